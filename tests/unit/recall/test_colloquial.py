"""Clipped everyday words are asked in full too (``wave_agent.recall.colloquial``)."""

from __future__ import annotations

from wave_agent.recall import colloquial


def test_a_clipped_word_in_any_case_brings_the_full_one() -> None:
    assert colloquial.expand("сколько заплатили за велик?") == (
        "сколько заплатили за велик? (велосипед)")
    assert colloquial.full_words("Когда Соня каталась на велике и уронила ноут?") == [
        "велосипед", "ноутбук"]
    assert colloquial.full_words("ile dałem za kompa?") == ["komputer"]


def test_a_question_in_plain_words_is_left_as_it_is() -> None:
    assert colloquial.expand("сколько стоил велосипед?") == "сколько стоил велосипед?"


def test_a_polish_question_reaches_full_text_without_its_function_words() -> None:
    """No Polish analyzer in full-text: "za" and "mam" matched any record that had them."""
    from wave_agent.recall.question import without_polish_function_words

    assert without_polish_function_words("ile zapłaciłem za rozrząd?").split() == [
        "zapłaciłem", "rozrząd?"]
    assert without_polish_function_words("What did I pay for the bike?") == (
        "What did I pay for the bike?")
    assert without_polish_function_words("na co mam?") == "na co mam?"  # nothing else left
