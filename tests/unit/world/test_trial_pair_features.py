"""Round thirty-three (issue 29): two pair features measured and not shipped, the tense and mood
of the target's verb (``governor.verb_mood``) and the person named nearest before the target
(``governor.nearest_person``). The shipped reading must not carry them (no weights read them);
a refit that asks for them (``pairs.TRIAL``) gets what the parse says. Sentences of our own."""

from __future__ import annotations

from dataclasses import replace

import pytest

from graph.models import EntityType
from wave_agent.world import pairs as module
from wave_agent.world.pairs import pairs
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import USER, Mention


def _features(text: str, name: str, kind: EntityType, said: str) -> tuple[str, ...]:
    """The speaker's pair to one mention put on the parse by hand (the rules tie no thing
    sold and no job planned, so they may read none)."""
    reading = replace(rule_readings([text])[0], mentions=(Mention(name, kind, (said,)),),
                      links=())
    return next(p for p in pairs(text, reading) if p.source == USER).features


def test_the_shipped_reading_carries_neither_trial_feature() -> None:
    text = "Брат Кирилл. Сварщик на заводе. Продали нашу старую машину."
    found = pairs(text, rule_readings([text])[0])
    assert found
    assert not any(f.startswith(("syn:mood:", "syn:lastp:")) for p in found for f in p.features)


def test_a_thing_sold_and_a_job_planned_say_their_verbs_tense(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module, "TRIAL", frozenset({"mood"}))
    sold = _features("Мы продали нашу старую машину.", "машина", EntityType.VEHICLE, "машину")
    assert "syn:mood:продать|past" in sold and "syn:mood:perf|past" in sold
    planned = _features("Я собираюсь работать водителем.", "водитель", EntityType.OCCUPATION,
                        "водителем")
    assert "syn:mood:inf" in planned and "syn:mood:inf<pres" in planned
    wished = _features("Я бы работал водителем.", "водитель", EntityType.OCCUPATION,
                       "водителем")
    assert "syn:mood:cond" in wished and "syn:mood:impf|past" in wished


def test_a_job_in_a_verbless_sentence_after_a_name_points_at_that_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module, "TRIAL", frozenset({"lastp"}))
    text = "Брат Кирилл. Сварщик на заводе."
    found = pairs(text, rule_readings([text])[0])
    job = next(p for p in found if p.source == USER and "варщик" in p.target)
    assert "syn:lastp:other|far|verbless:True" in job.features
    kirill = next(p for p in found if p.source == "Кирилл" and "варщик" in p.target)
    assert "syn:lastp:source|far|verbless:True" in kirill.features
