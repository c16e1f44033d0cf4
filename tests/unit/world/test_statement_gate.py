"""The learned gate on what the hand rules read (``wave_agent/world/statement_attributes.py``),
on sentences written for this test, in none of its training data: a word the rules take for a
job ("я свидетельница", "теперь я пешеход", "я тётя") or a child's school taken for the
person's employer must not replace the person's real job or employer; a real new job or a new
employer stands (issue 30, round twenty-five)."""

from __future__ import annotations

import pytest

from archive.embedder import Embedder
from wave_agent.world import read, statement_attributes
from wave_agent.world.attributes import Value, as_said, read_values


def gated(embedder: Embedder, text: str) -> set[tuple[str, str, str, str]]:
    found = read_values(text, read(as_said(text)), ())
    vector = embedder.embed_sync([text])[0]
    sure = statement_attributes.probabilities(embedder.model_name, vector)
    return {(v.entity, v.attribute, v.value, v.op) for v in statement_attributes.kept(found, sure)}


@pytest.fixture
def e5(embedder: Embedder) -> Embedder:
    if embedder.model_name != statement_attributes.READS:
        pytest.skip("the head reads multilingual-e5-small vectors only")
    return embedder


def test_a_word_that_is_no_job_does_not_become_the_persons_role(e5: Embedder) -> None:
    for text in ("Брат стал отцом, так что я теперь тётя!",
                 "Продал машину, всё, теперь я пешеход"):
        assert not any(a == "role" for _, a, _, _ in gated(e5, text)), text


def test_a_new_job_and_a_new_employer_stand(e5: Embedder) -> None:
    assert ("user", "role", "старший менеджер", "set") in gated(
        e5, "Меня повысили, теперь я старший менеджер по закупкам")
    found = gated(e5, "Устроилась в Сбербанк аналитиком")
    assert ("user", "employer", "Сбербанк", "set") in found
    assert ("user", "role", "аналитик", "set") in found


def test_without_the_heads_vectors_every_value_read_stands() -> None:
    values = (Value("user", "role", "тётя", "set"), Value("user", "city", "Самара", "set"))
    assert statement_attributes.kept(values, statement_attributes.probabilities(
        "some-other-model", None)) == values


def test_a_city_or_a_partner_is_never_left_out() -> None:
    values = (Value("user", "city", "Самара", "set"), Value("user", "partner", "Олег", "set"))
    assert statement_attributes.kept(values, {"city": 0.01, "partner": 0.01}) == values
