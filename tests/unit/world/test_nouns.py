"""The noun-phrase candidates and the noun model's decisions (``world.nouns``), with small
hand-made models (the tests do not depend on what the trainer shipped)."""

from __future__ import annotations

import numpy as np

from graph.models import EntityType
from wave_agent.world import nouns
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import Mention, Reading


def _model(weights: dict[str, dict[str, float]], kinds: set[str],
           threshold: float = 0.5) -> nouns.Model:
    classes = ["none", "thing", "person", "hobby"]
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


def test_a_polish_name_in_an_oblique_case_is_a_candidate_in_the_nominative() -> None:
    reading = Reading(mentions=(Mention("Ustrzyki", EntityType.PLACE),), language="pl")
    found = nouns.latin_candidates("Mieszkam w Ustrzykach z żoną Kasią.", reading)
    kasia = next(c for c in found if c.name == "Kasia")
    assert "Kasią" in kasia.aliases
    assert not any("Ustrzyk" in c.name for c in found)  # the rules' place covers it


def test_a_polish_subject_name_is_taken_as_a_person_by_a_model_that_learned_it() -> None:
    text = "Tomek rozpieszcza go jak dziecko."
    reading = Reading(language="pl")
    model = _model({"next:rozpieszcza": {"person": 5.0}}, {"pl|person"})
    added = nouns.add(text, reading, model)
    assert Mention("Tomek", EntityType.PERSON, ()) in added.mentions or any(
        m.name == "Tomek" and m.type is EntityType.PERSON for m in added.mentions)
