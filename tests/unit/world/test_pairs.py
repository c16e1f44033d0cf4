"""The relation model's pairs and decoding (``world.pairs``), with a small hand-made model
(the tests do not depend on what the trainer shipped)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from graph.models import EntityType
from wave_agent.world.pairs import CLASSES, Model, pairs, relink
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import USER, Link, Mention, Reading
from wave_agent.world.word_classes import word_class

TEXT = "Моя сестра Катя живёт в Казани."
READING = Reading(mentions=(Mention("Катя", EntityType.PERSON, ("сестра",)),
                            Mention("Казань", EntityType.PLACE, ("Казани",))))


def _model(weights: dict[str, dict[str, float]], keep_rules: bool = False,
           languages: tuple[str, ...] = ("ru", "en", "pl")) -> Model:
    vocabulary = sorted(weights)
    coef = np.zeros((len(CLASSES), len(vocabulary)))
    for j, feature in enumerate(vocabulary):
        for kind, w in weights[feature].items():
            coef[CLASSES.index(kind), j] = w
    intercept = np.zeros(len(CLASSES))
    intercept[CLASSES.index("none")] = 1.0
    return Model(vocabulary, list(CLASSES), coef, intercept, 0.5, keep_rules=keep_rules,
                 languages=languages)


def test_a_person_placed_before_a_city_lives_there_and_the_speaker_is_her_sister() -> None:
    model = _model({"t:person>place": {"lives_in": 5.0}, "t:user>person": {"kin": 5.0}})
    links = set(relink(TEXT, READING, model).links)
    assert Link("Катя", "lives_in", "Казань") in links
    assert Link(USER, "kin:sister", "Катя") in links  # the role word beside the name
    assert Link(USER, "lives_in", "Казань") not in links


def test_the_speakers_own_name_is_no_pair_of_its_own() -> None:
    reading = Reading(mentions=(Mention("Марина", EntityType.PERSON),
                                Mention("Самара", EntityType.PLACE)))
    found = {(p.source, p.target) for p in pairs("Меня зовут Марина, живу в Самаре.", reading)}
    assert found == {(USER, "Самара")}


def test_weights_saved_are_the_weights_loaded(tmp_path: Path) -> None:
    model = _model({"t:person>place": {"lives_in": 5.0}}, keep_rules=True)
    model.save(tmp_path / "relations.npz")
    loaded = Model.load(tmp_path / "relations.npz")
    assert loaded is not None and loaded.keep_rules
    assert relink(TEXT, READING, loaded).links == relink(TEXT, READING, model).links


def test_the_parse_tells_living_in_a_city_from_having_been_there() -> None:
    """What the tree says between the two ends (the verb both hang on, the target's
    preposition and case) is what the model weighs, not the words' order."""
    model = _model({"syn:lca_case:жить|в|Loc": {"lives_in": 5.0}})
    lived, visited = rule_readings(["Моя сестра Катя живёт в Казани.",
                                    "Моя сестра Катя была в Казани на свадьбе."])
    assert lived.words and visited.words  # natasha's parse rides along with the reading
    assert Link("Катя", "lives_in", "Казань") in relink(
        "Моя сестра Катя живёт в Казани.", lived, model).links
    assert Link("Катя", "lives_in", "Казань") not in relink(
        "Моя сестра Катя была в Казани на свадьбе.", visited, model).links


def test_weights_for_russian_leave_an_english_reading_as_the_rules_read_it() -> None:
    model = _model({"t:user>place": {"lives_in": 5.0}}, languages=("ru",))
    reading = Reading(mentions=(Mention("Leeds", EntityType.PLACE),), language="en")
    assert relink("I was in Leeds once.", reading, model) is reading


def test_a_model_scoped_to_jobs_in_russian_adds_a_job_and_leaves_the_rules_other_links(
        tmp_path: Path) -> None:
    """Where the model raised only some types held out ("ru|works_as"), it gives those and
    nothing else; the rules' links stay, and the scope survives a save."""
    model = _model({"t:user>occupation": {"works_as": 5.0}, "t:person>place": {"lives_in": 5.0},
                    "t:user>person": {"kin": 5.0}}, languages=("ru",))
    model.scope = frozenset({"ru|works_as"})
    model.save(tmp_path / "relations.npz")
    loaded = Model.load(tmp_path / "relations.npz")
    assert loaded is not None and loaded.scope == {"ru|works_as"}
    text = "Моя сестра Катя живёт в Казани, а я тимлид."
    reading = Reading(mentions=(*READING.mentions, Mention("тимлид", EntityType.OCCUPATION)),
                      links=(Link(USER, "kin:sister", "Катя"),), language="ru")
    links = set(relink(text, reading, loaded).links)
    assert links == {Link(USER, "kin:sister", "Катя"), Link(USER, "works_as", "тимлид")}


def test_a_language_with_its_own_threshold_takes_only_the_links_the_model_is_sure_of(
        tmp_path: Path) -> None:
    """Russian adds the model's links to the rules' only when it is sure ("ru": 0.9, the
    threshold its held-out authors chose); Polish keeps the model's own threshold; a save keeps
    both."""
    model = _model({"t:person>place": {"lives_in": 4.0}}, keep_rules=True,
                   languages=("ru", "pl"))  # p(lives_in) about 0.8
    model.thresholds = {"ru": 0.9}
    model.save(tmp_path / "relations.npz")
    loaded = Model.load(tmp_path / "relations.npz")
    assert loaded is not None and loaded.thresholds == {"ru": 0.9}
    russian = Reading(mentions=READING.mentions, language="ru")
    assert Link("Катя", "lives_in", "Казань") not in relink(TEXT, russian, loaded).links
    polish = Reading(mentions=(Mention("Kasia", EntityType.PERSON, ("siostra",)),
                               Mention("Kraków", EntityType.PLACE, ("Krakowie",))), language="pl")
    assert Link("Kasia", "lives_in", "Kraków") in relink(
        "Moja siostra Kasia mieszka w Krakowie.", polish, loaded).links


def test_a_type_with_its_own_threshold_is_taken_where_the_language_would_not(
        tmp_path: Path) -> None:
    """"ru|lives_in": 0.7 beside "ru": 0.9: the model's lives-in link the language's threshold
    leaves out is taken at the type's own, and a save keeps it."""
    model = _model({"t:person>place": {"lives_in": 4.0}}, keep_rules=True,
                   languages=("ru",))  # p(lives_in) about 0.8
    model.thresholds = {"ru": 0.9, "ru|lives_in": 0.7}
    model.save(tmp_path / "relations.npz")
    loaded = Model.load(tmp_path / "relations.npz")
    assert loaded is not None and loaded.threshold_of("ru", "lives_in") == 0.7
    assert loaded.threshold_of("ru", "works_at") == 0.9
    russian = Reading(mentions=READING.mentions, language="ru")
    assert Link("Катя", "lives_in", "Казань") in relink(TEXT, russian, loaded).links


def test_a_job_word_before_a_firm_ties_the_firm_whatever_the_job() -> None:
    """The model weighs what the target's head stands for (an occupation the reading found),
    not only which word it is: one weight serves a welder and a nurse alike."""
    model = _model({"kp:thead:occupation": {"works_at": 3.0},
                    "t:person>organisation": {"works_at": 1.0},
                    "t:user>organisation": {"none": 5.0}})
    texts = ["Брат Ильдар работает сварщиком на «Кубаньстали».",
             "Сестра Алина работает медсестрой в «Инвитро»."]
    welder, nurse = rule_readings(texts)
    assert Link("Ильдар", "works_at", "Кубаньсталь") in relink(texts[0], welder, model).links
    assert Link("Алина", "works_at", "Инвитро") in relink(texts[1], nurse, model).links
    assert Link(USER, "works_at", "Инвитро") not in relink(texts[1], nurse, model).links


def test_a_pet_the_rules_tied_to_no_one_is_judged_the_speakers_by_the_model() -> None:
    """A pair pointing at the speaker (a pet, a friend) is the model's to judge too."""
    reading = Reading(mentions=(Mention("Барсик", EntityType.PET, ("Барсику",)),))
    model = _model({"t:pet>user": {"pet_of": 5.0}})
    assert Link("Барсик", "pet_of", USER) in relink("Барсику лучше, сахар держится.",
                                                     reading, model).links
    english = Reading(mentions=(Mention("Rex", EntityType.PET),), language="en")
    assert not english.links and relink("Rex is better now.", english, model).links == ()



def test_a_verb_no_set_taught_is_read_as_the_verbs_of_its_word_class(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Taught on one verb only, through its navec word class (``world.word_classes``), the model
    reads a verb of the same class alike: an author's own word for a phrasing the labelled
    sets wrote with another ("приобрели" where they wrote "купили"). The classes here are three
    words' own vectors (the tests do not depend on a shipped table)."""
    from wave_agent.world import word_classes as module
    from wave_agent.world.morphology import Models

    embedding = Models.get().embedding
    seeds = np.array([embedding.get(w) for w in ("купить", "жить", "дача")], dtype="float32")
    monkeypatch.setattr(module, "_centroids", [seeds / np.linalg.norm(seeds, axis=1,
                                                                       keepdims=True)])
    word_class.cache_clear()
    try:
        assert word_class("приобрести") == word_class("купить") == 0
        model = _model({"cl:lca_fall:0|obj": {"owns": 5.0}})
        text = "Мы приобрели дачу в Истре."
        reading = replace(rule_readings([text])[0], links=())
        links = set(relink(text, reading, model).links)
        assert Link(USER, "owns", "дача") in links
        assert Link(USER, "owns", "Истра") not in links  # the town hangs on the dacha
    finally:
        word_class.cache_clear()


def test_without_word_classes_shipped_a_pair_has_no_class_features(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No table shipped (``word_classes.CLUSTERS_PATH`` absent): the pairs are read as before."""
    from wave_agent.world import word_classes as module

    monkeypatch.setattr(module, "_centroids", [None])
    word_class.cache_clear()
    try:
        text = "Мы купили дачу в Истре."
        found = pairs(text, rule_readings([text])[0])
        assert found and not any(f.startswith("cl:") for p in found for f in p.features)
    finally:
        word_class.cache_clear()


def test_a_pet_another_owner_is_named_for_is_not_the_persons_once_a_model_reads_owners(
        tmp_path: Path) -> None:
    """A model fitted on the owner features (``owners``, kept in its file) hears whose a pet is:
    "у Кости кот" is Костя's, "у меня кот" the person's; a model without them reads as before."""
    weights = {"t:pet>user": {"pet_of": 5.0}, "syn:owner:name": {"none": 10.0}}
    model = _model(weights)
    model.owners = True
    model.save(tmp_path / "relations.npz")
    loaded = Model.load(tmp_path / "relations.npz")
    assert loaded is not None and loaded.owners
    theirs, mine = "У Кости кот Барсик.", "У меня кот Барсик."
    for text, own in ((theirs, False), (mine, True)):
        reading = rule_readings([text])[0]
        assert (Link("Барсик", "pet_of", USER) in relink(text, reading, loaded).links) is own
    plain = _model(weights)
    assert not plain.owners
    reading = rule_readings([theirs])[0]
    assert not any(f.startswith("syn:owner") for p in pairs(theirs, reading) for f in p.features)
    assert Link("Барсик", "pet_of", USER) in relink(theirs, reading, plain).links


def test_russian_reads_its_own_refit_and_polish_the_shared_weights() -> None:
    """Since h/world32 Russian statements are read by ``relations_ru.npz``, fitted with what
    stands beside the target and who its verb is said of ("на выходных" beside a town); Polish
    and English keep ``relations.npz``, which never read those features."""
    russian, polish = Model.get("ru"), Model.get("pl")
    assert russian is not None and polish is not None
    assert any(f.startswith("syn:bes:") for f in russian.index)
    assert not any(f.startswith("syn:bes:") for f in polish.index)
    assert russian.owners
