"""The noun-phrase candidates and the noun model's decisions (``world.nouns``), with small
hand-made models (the tests do not depend on what the trainer shipped)."""

from __future__ import annotations

import numpy as np

from graph.models import EntityType
from wave_agent.world import nouns
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import USER, Link, Mention, Reading


def _model(weights: dict[str, dict[str, float]], kinds: set[str],
           threshold: float = 0.5) -> nouns.Model:
    classes = ["none", "thing", "person", "hobby", "pet"]
    vocabulary = sorted(weights)
    coef = np.zeros((len(classes), len(vocabulary)))
    for j, feature in enumerate(vocabulary):
        for kind, w in weights[feature].items():
            coef[classes.index(kind), j] = w
    intercept = np.zeros(len(classes))
    intercept[0] = 1.0
    return nouns.Model(vocabulary, classes, coef, np.zeros((len(classes), 600)), intercept,
                       threshold, frozenset(kinds))


def _russian(text: str) -> Reading:
    return rule_readings([text], learned_nouns=False)[0]


def test_a_noun_no_mention_covers_is_a_candidate() -> None:
    reading = _russian("Весной взяли абонемент в бассейн и купили палатку.")
    names = {c.name for c in nouns.candidates(reading)}
    assert "палатка" in names


def test_a_noun_the_rules_already_read_is_no_candidate() -> None:
    reading = _russian("Я живу в Самаре. В гараже стоит старая моторная лодка.")
    names = {c.name for c in nouns.candidates(reading)}
    assert not any("самар" in name.lower() for name in names)
    assert "старая моторная лодка" in names  # with the adjectives that agree with it


def test_the_model_adds_a_kind_it_takes_and_leaves_the_others() -> None:
    text = "Весной купили палатку."
    reading = _russian(text)
    takes = _model({"lemma:палатка": {"thing": 5.0}}, {"ru|thing"})
    added = nouns.add(text, reading, takes)
    assert any(m.type is EntityType.THING and "палатка" in m.name for m in added.mentions)
    leaves = _model({"lemma:палатка": {"thing": 5.0}}, {"ru|hobby"})
    assert nouns.add(text, reading, leaves) == reading


def test_below_the_threshold_nothing_is_added() -> None:
    text = "Весной купили палатку."
    reading = _russian(text)
    unsure = _model({"lemma:палатка": {"thing": 1.2}}, {"ru|thing"}, threshold=0.9)
    assert nouns.add(text, reading, unsure) == reading


def test_a_kind_with_its_own_threshold_is_taken_at_it_and_it_survives_a_save(tmp_path) -> None:
    """A kind the training gave a lower threshold ("ru|thing" at 0.6) is added where the
    model's one threshold (0.9) would leave it; the saved model keeps it."""
    text = "Весной купили палатку."
    reading = _russian(text)
    model = _model({"lemma:палатка": {"thing": 3.0}}, {"ru|thing"}, threshold=0.9)
    assert nouns.add(text, reading, model) == reading
    model.thresholds = {"ru|thing": 0.6}
    assert any("палатка" in m.name for m in nouns.add(text, reading, model).mentions)
    model.save(tmp_path / "nouns.npz")
    loaded = nouns.Model.load(tmp_path / "nouns.npz")
    assert loaded is not None and loaded.thresholds == {"ru|thing": 0.6}
    assert any("палатка" in m.name for m in nouns.add(text, reading, loaded).mentions)


def test_a_polish_name_in_an_oblique_case_is_a_candidate_in_the_nominative() -> None:
    reading = Reading(mentions=(Mention("Ustrzyki", EntityType.PLACE),),
                      links=(Link(USER, "lives_in", "Ustrzyki"),), language="pl")
    found = nouns.latin_candidates("Mieszkam w Ustrzykach z żoną Kasią.", reading)
    kasia = next(c for c in found if c.name == "Kasia")
    assert "Kasią" in kasia.aliases
    assert not any("Ustrzyk" in c.name for c in found)  # the rules' linked place covers it


def test_a_polish_subject_name_is_taken_as_a_person_by_a_model_that_learned_it() -> None:
    text = "Tomek rozpieszcza go jak dziecko."
    reading = Reading(language="pl")
    model = _model({"next:rozpieszcza": {"person": 5.0}}, {"pl|person"})
    added = nouns.add(text, reading, model)
    assert Mention("Tomek", EntityType.PERSON, ()) in added.mentions or any(
        m.name == "Tomek" and m.type is EntityType.PERSON for m in added.mentions)


def test_a_polish_place_no_pattern_linked_is_judged_again_and_may_be_a_firm() -> None:
    """"jestem w Allegro": a capital after "w" the rules took for a town, with no pattern
    behind it, is a candidate again (marked as the rules read it); a model sure it is a firm
    re-types it, one that is not leaves the place."""
    text = "Od marca jestem w Allegro, znowu pod Markiem."
    reading = Reading(mentions=(Mention("Allegro", EntityType.PLACE),), language="pl")
    found = [c for c in nouns.latin_candidates(text, reading) if c.name == "Allegro"]
    assert found and found[0].read == "place" and "read_prev2:jestem" in found[0].features
    classes = ["none", "place", "organisation"]
    coef = np.zeros((3, 1))
    coef[2, 0] = 5.0
    firm = nouns.Model(["read_prev2:jestem"], classes, coef, np.zeros((3, 600)),
                       np.array([1.0, 0.0, 0.0]), 0.5, frozenset({"pl|organisation"}))
    retyped = nouns.add(text, reading, firm)
    assert [m.type for m in retyped.mentions if m.name == "Allegro"] == [
        EntityType.ORGANISATION]
    unsure = nouns.Model(["read_prev2:jestem"], classes, coef / 10, np.zeros((3, 600)),
                         np.array([1.0, 0.0, 0.0]), 0.5, frozenset({"pl|organisation"}))
    assert nouns.add(text, reading, unsure) == reading


def test_a_job_the_rules_did_not_tie_to_a_verb_is_an_occupation_a_model_can_learn() -> None:
    text = "Светка воспитательница в садике."
    reading = _russian(text)
    assert any(c.name == "воспитательница" for c in nouns.candidates(reading))
    classes = ["none", "occupation"]
    coef = np.array([[0.0], [5.0]])
    model = nouns.Model(["lemma:воспитательница"], classes, coef, np.zeros((2, 600)),
                        np.array([1.0, 0.0]), 0.5, frozenset({"ru|occupation"}))
    added = nouns.add(text, reading, model)
    assert any(m.name == "воспитательница" and m.type is EntityType.OCCUPATION
               for m in added.mentions)


def test_a_russian_person_the_rules_tied_to_nothing_is_judged_again() -> None:
    """"Буся что-то постоянно бегает в лоток": a person the rules read and linked to nothing
    is a candidate again (marked as read); a model sure it is a pet re-types it, one sure it is
    no one drops it; a person a link ties is not judged."""
    text = "Буся что-то постоянно бегает в лоток и плачет."
    reading = Reading(mentions=(Mention("Буся", EntityType.PERSON),), language="ru",
                      words=_russian(text).words)
    found = [c for c in nouns.candidates(reading) if c.name == "Буся"]
    assert found and found[0].read == "person" and "read:person" in found[0].features
    pet = _model({"read:person": {"pet": 5.0}}, {"ru|pet", "ru|person"})
    assert [m.type for m in nouns.add(text, reading, pet).mentions] == [EntityType.PET]
    no_one = _model({"read:person": {"none": 5.0}}, {"ru|person"})
    assert nouns.add(text, reading, no_one).mentions == ()
    tied = Reading(mentions=reading.mentions, links=(Link("Буся", "pet_of", USER),),
                   language="ru", words=reading.words)
    assert not any(c.read for c in nouns.candidates(tied))


def test_a_russian_place_no_link_ties_is_judged_again_and_may_be_a_firm() -> None:
    """"Всё, я ушла из Волгатранса": a place the rules read and linked to nothing is a
    candidate again (marked as read); a model sure it is a firm re-types it, one that is not
    leaves the place; a place a link ties ("живу в Самаре") is not judged."""
    text = "Всё, я ушла из Волгатранса, надоело."
    reading = Reading(mentions=(Mention("Волгатранс", EntityType.PLACE),), language="ru",
                      words=_russian(text).words)
    found = [c for c in nouns.candidates(reading) if c.name == "Волгатранс"]
    assert found and found[0].read == "place" and "read:place" in found[0].features
    classes = ["none", "place", "organisation"]
    coef = np.zeros((3, 1))
    coef[2, 0] = 5.0
    firm = nouns.Model(["read:place"], classes, coef, np.zeros((3, 600)),
                       np.array([1.0, 0.0, 0.0]), 0.5, frozenset({"ru|organisation"}))
    assert [m.type for m in nouns.add(text, reading, firm).mentions] == [
        EntityType.ORGANISATION]
    unsure = nouns.Model(["read:place"], classes, coef / 10, np.zeros((3, 600)),
                         np.array([1.0, 0.0, 0.0]), 0.5, frozenset({"ru|organisation"}))
    assert nouns.add(text, reading, unsure) == reading
    tied = Reading(mentions=reading.mentions, links=(Link(USER, "lives_in", "Волгатранс"),),
                   language="ru", words=reading.words)
    assert not any(c.read for c in nouns.candidates(tied))


def test_a_numbered_institution_is_one_candidate_with_its_number() -> None:
    """"в поликлинике № 8": the number names which one, so it is part of the candidate."""
    names = {c.name for c in nouns.candidates(_russian("Наблюдаюсь в поликлинике № 8."))}
    assert "поликлиника № 8" in names
    after = nouns.candidates(_russian("Хирург в поликлинике № 3 Тимошенко, строгий."))
    assert any(c.name == "поликлиника № 3" and "поликлиника №3" in c.aliases for c in after)


def test_a_place_read_after_v_is_judged_by_what_its_word_form_stands_for() -> None:
    """"Переехал в Казань, прораб в КазаньСтройМонтаж": both read as places after "в", linked
    to nothing; the model sees what each word form stands for (the dictionary's town, a firm's
    run-together capitals) and the verb and case it hangs on, so one weight on those re-types
    the firm and leaves the town."""
    text = "Переехал в Казань, прораб в КазаньСтройМонтаж."
    reading = Reading(mentions=(Mention("Казань", EntityType.PLACE),
                                Mention("КазаньСтройМонтаж", EntityType.PLACE)),
                      language="ru", words=_russian(text).words)
    found = {c.name: c for c in nouns.candidates(reading)}
    assert "known:Geox" in found["Казань"].features
    assert "camel:True" in found["КазаньСтройМонтаж"].features
    assert "known:-" in found["КазаньСтройМонтаж"].features
    classes = ["none", "place", "organisation"]
    coef = np.zeros((3, 1))
    coef[2, 0] = 5.0
    firm_form = nouns.Model(["camel:True"], classes, coef, np.zeros((3, 600)),
                            np.array([1.0, 0.0, 0.0]), 0.5, frozenset({"ru|organisation"}))
    kinds = {m.name: m.type for m in nouns.add(text, reading, firm_form).mentions}
    assert kinds == {"Казань": EntityType.PLACE, "КазаньСтройМонтаж": EntityType.ORGANISATION}


def test_a_loose_place_the_model_finds_likelier_a_firm_is_retyped_at_its_own_threshold(
        tmp_path) -> None:
    """"Сама я бухгалтер в Волгаэнерго": a loose place the model finds likelier a firm than
    anything else, though under the threshold it adds a new firm at, stays a place until the
    training gives loose places their own retype threshold; then it is a firm, and the saved
    model keeps that. A loose place the model finds likeliest a place stays one."""
    text = "Сама я бухгалтер в Волгаэнерго, седьмой год там."
    reading = Reading(mentions=(Mention("Волгаэнерго", EntityType.PLACE),), language="ru",
                      words=_russian(text).words)
    classes = ["none", "place", "organisation"]
    coef = np.zeros((3, 1))
    coef[2, 0] = 1.5  # organisation the likeliest, at about 0.5: under the model's 0.7
    leaning = nouns.Model(["read:place"], classes, coef, np.zeros((3, 600)),
                          np.array([0.4, 0.4, 0.0]), 0.7, frozenset({"ru|organisation"}))
    kind, p = leaning.choose(next(c for c in nouns.candidates(reading) if c.read))
    assert kind == "organisation" and 0.4 < p < 0.7
    assert nouns.add(text, reading, leaning) == reading
    leaning.retype = {"ru|place": 0.4}
    assert [m.type for m in nouns.add(text, reading, leaning).mentions] == [
        EntityType.ORGANISATION]
    leaning.save(tmp_path / "nouns.npz")
    loaded = nouns.Model.load(tmp_path / "nouns.npz")
    assert loaded is not None and loaded.retype == {"ru|place": 0.4}
    assert [m.type for m in nouns.add(text, reading, loaded).mentions] == [
        EntityType.ORGANISATION]
    town = nouns.Model(["read:place"], classes, -coef, np.zeros((3, 600)),
                       np.array([0.0, 0.6, 0.0]), 0.7, frozenset({"ru|organisation"}))
    town.retype = {"ru|place": 0.3}
    assert nouns.add(text, reading, town) == reading
