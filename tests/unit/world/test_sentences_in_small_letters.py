"""A move or a new job said in chat's small letters, with another sentence after it, is read
as the person would mean it: the parser is not left to read the two sentences as one (month
20: "всё, мы переехали в Казань! сняли двушку на Чистопольской" set no city)."""

from __future__ import annotations

import pytest

from wave_agent.world import read
from wave_agent.world.attributes import as_said, capitalised, read_values


def values(text: str) -> set[tuple[str, str, str, str]]:
    return {(v.entity, v.attribute, v.value, v.op)
            for v in read_values(text, read(as_said(text)))}


@pytest.mark.parametrize(("text", "expected"), [
    ("всё, мы переехали в Казань! сняли двушку на Чистопольской, Ново-Савиновский район",
     ("user", "city", "Казань", "set")),
    ("ok, we moved to Berlin! found a flat near the park, tiny but ours",
     ("user", "city", "Berlin", "set")),
    ("no i już, przeprowadziliśmy się do Krakowa! wynajęliśmy mieszkanie, malutkie",
     ("user", "city", "Kraków", "set")),
    ("всё. мы с Денисом расстались. три года коту под хвост",
     ("user", "partner", "Денис", "remove")),
])
def test_a_value_said_before_a_sentence_in_small_letters_is_read(
    text: str, expected: tuple[str, str, str, str]
) -> None:
    assert expected in values(text)


def test_a_text_read_as_a_value_is_not_read_again_and_small_talk_stays_empty() -> None:
    # read as it is: the capitals are only tried where the plain reading found nothing
    assert values("со Светой всё. разошлись. сказала, что на расстоянии это не отношения") == {
        ("user", "partner", "Света", "remove")}
    assert values("погода сегодня мерзкая. пойду спать, завтра рано вставать") == set()


def test_only_a_sentence_after_an_end_gets_its_capital() -> None:
    assert capitalised("всё, мы в Казани! сняли квартиру. ну почти") == (
        "всё, мы в Казани! Сняли квартиру. Ну почти")
    assert capitalised("в 9.30 у врача, т.е. утром") == "в 9.30 у врача, т.е. утром"
