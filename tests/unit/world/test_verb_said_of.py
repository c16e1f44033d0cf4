"""Who the verb a relation's target hangs on is said of (``world.governor``), and what the
relation model reads from it: the speaker by a verb's first-person ending, the clause's own verb
when the parser hangs an object on another clause's verb, a wish that is not so yet."""

from __future__ import annotations

from wave_agent.world import read
from wave_agent.world.governor import NOT_YET, governor_features, verb_form
from wave_agent.world.reader import parsed


def _features(text: str, target: str, source: str | None = None) -> list[str]:
    words = parsed([text])[0].words
    t = next(i for i, w in enumerate(words) if w.text.startswith(target))
    s = next(i for i, w in enumerate(words) if w.text.startswith(source)) if source else None
    return governor_features(words, t, s)


def _links(text: str) -> set[tuple[str, str, str]]:
    return {(link.source, link.type, link.target) for link in read(text).links}


def test_a_verbs_person_is_read_from_its_ending() -> None:
    assert verb_form("работаю") == "1"
    assert verb_form("трудится") == "3"
    assert verb_form("устроилась") == "past"
    assert verb_form("учиться") == "inf"


def test_the_speaker_said_only_by_the_verbs_ending() -> None:
    features = _features("Третий год работаю в аптеке на Садовой.", "аптеке")
    assert "syn:gov:1" in features and "syn:gsubj:none" in features


def test_a_person_said_by_a_pronoun_in_the_next_sentence() -> None:
    features = _features("Тётя Зоя давно на пенсии. Но она подрабатывает в музее.", "музее",
                         "Зоя")
    assert "syn:gsubj:pron3" in features
    assert "syn:gsubj:pron3|far:True" in features


def test_the_verb_of_the_targets_own_clause() -> None:
    # the parser may hang "рисованием" on "играет", whose subject is Егор's
    features = _features("Внук Егор играет в хоккей, а внучка Лиза занимается рисованием.",
                         "рисованием", "Егор")
    assert "syn:gsubj:source" not in features


def test_a_wish_is_marked_for_the_model() -> None:
    assert NOT_YET in _features("Брат Олег мечтает устроиться в «Газпром».", "Газпром", "Олег")
    assert NOT_YET not in _features("Брат Олег устроился в «Газпром».", "Газпром", "Олег")


def test_a_wish_or_a_persuasion_is_no_workplace_yet() -> None:
    for text in ("Брат Олег мечтает устроиться в «Газпром».",
                 "Подруга Катя уговаривает меня перейти в «Сбер»."):
        assert not [link for link in _links(text) if link[1] == "works_at"], text


def test_a_second_verb_shares_its_clauses_subject() -> None:
    features = _features("Внучка Лиза пошла в школу и занимается плаванием.", "плаванием")
    assert "syn:gsubj:none" not in features and "syn:gsubj:me" not in features
