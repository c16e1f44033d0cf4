"""One stemmer: the writer's duplicate check and recall's coverage stem a text the same way,
and the graph's stored entity keys do not move."""

from __future__ import annotations

import pytest

from graph.entities import stem_key, text_grams
from graph.stemming import language_of, stem
from wave_agent.policy import similarity
from wave_agent.recall.ranking import STOP_STEMS, text_stems


@pytest.mark.parametrize("text", [
    "Kupiliśmy Zosi rower, kosztował 1800 zł.",
    "Zosia ma alergię na orzechy laskowe.",
    "Mam psa, jest bardzo duzy",
    "Игорю выписали очки, минус полтора.",
    "Melanie painted a sunrise over the lake last summer.",
])
def test_the_writer_and_recall_stem_a_text_alike(text: str) -> None:
    # The writer maps a few words of one concept to one ("kosztował", "cena" -> "сто") and
    # drops its own stop words; every other content stem is recall's stem of the same word.
    writer = similarity.content_stems(text, numbers=False)
    assert writer - {"сто"} <= text_stems(text)


def test_a_polish_question_meets_its_record_in_any_form() -> None:
    record = text_stems("Kupiliśmy Zosi rower, kosztował 1800 zł.")
    asked = text_stems("Ile kosztowały rowery Zosi?") - STOP_STEMS
    assert {"rower", "zos"} <= asked & record


def test_the_language_of_a_text() -> None:
    assert language_of("Ile kosztował rower?") == "polish"
    assert language_of("Mam psa, jest bardzo duzy") == "polish"  # no Polish letter
    assert language_of("Сколько стоил велосипед?") == "russian"
    assert language_of("How much was the bike?") == "english"


def test_a_word_alone_is_stemmed_by_its_letters() -> None:
    assert stem("игорем") == stem("игорь") == "игор"
    assert stem("rowerem", "polish") == stem("rowery", "polish") == "rower"
    assert stem("kupiłem") == "kup"  # a Polish letter: Polish
    assert stem("painted") == "paint"


def test_stored_entity_keys_keep_their_stemmer() -> None:
    # Entity.stem_key is stored: Latin words keep the English stemmer they were made with.
    assert stem_key("Kraków") == "kraków"
    assert stem_key("с Игорем") == "игор"
    assert "kraków" in text_grams("Mieszkam w Kraków od roku")


def test_a_polish_question_without_a_polish_letter_is_polish() -> None:
    assert language_of("kiedy syn ma treningi?") == "polish"
    assert language_of("do której weterynarki chodzimy z kotem?") == "polish"  # ó
    assert language_of("When does my son have practice?") == "english"
