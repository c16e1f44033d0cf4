"""English and Polish written all in lower case (issue 29, round thirty-five): the patterns
find a name by its capital letter, so a writer who types none had no people, places or firms
read; the capitals are given back first (``world.capitals``), by what the labelled statements
and the e5 tokenizer's vocabulary say of each word, and a statement written with capitals is
read as written."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import capitals, read


def _names(text: str, kind: EntityType) -> set[str]:
    return {m.name for m in read(text).mentions if m.type is kind}


def test_a_lower_case_introduction_has_its_people_places_and_workplace_read() -> None:
    text = ("hi! i'm priya, 31, FY2 doctor at leeds general infirmary. live in headingley "
            "with my boyfriend callum")
    reading = read(text)
    places = {m.name for m in reading.mentions if m.type is EntityType.PLACE}
    people = {m.name for m in reading.mentions if m.type is EntityType.PERSON}
    assert "Headingley" in places
    assert "Callum" in people
    assert any(link.type == "kin:boyfriend" for link in reading.links)


def test_lower_case_english_lives_and_works() -> None:
    text = "we moved to manchester last year and i work at tesco now"
    assert "Manchester" in _names(text, EntityType.PLACE)
    assert "Tesco" in _names(text, EntityType.ORGANISATION)


def test_lower_case_polish_town_is_read_in_the_nominative() -> None:
    assert "Kraków" in _names("mieszkam w krakowie od pięciu lat", EntityType.PLACE)


def test_common_words_keep_their_lower_case() -> None:
    restored = capitals.restore("i live in a small flat and work at home", "en")
    assert restored == "I live in a small flat and work at home"
    assert not _names("i live in a small flat and work at home", EntityType.PLACE)


def test_a_statement_written_with_capitals_is_left_as_written() -> None:
    # its writer uses capitals: a word in lower case there is lower case on purpose
    text = "Mruczek ma nadczynnosc tarczycy, tabletki w kiełbasce"
    assert capitals.restore(text, "pl") == text
    assert capitals.restore("I work at the bakery with Tom", "en") == (
        "I work at the bakery with Tom")
