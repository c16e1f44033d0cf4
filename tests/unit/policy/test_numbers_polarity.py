"""Same words with other numbers, change markers, and negation (RU/EN)."""

from __future__ import annotations

from wave_agent.policy import numbers, polarity, similarity


def test_numbers_are_normalised() -> None:
    assert numbers.numbers("Аренда 80 000 рублей, скидка 1,5%") == ("80000", "1.5")


def test_price_change_is_same_words_other_numbers() -> None:
    assert numbers.same_words_other_numbers("Пилот стоит 150 тысяч", "Пилот теперь стоит 200 тысяч")
    assert numbers.same_words_other_numbers("The pilot costs 150k", "The pilot now costs 200k")


def test_same_numbers_or_other_words_are_not_a_change() -> None:
    assert not numbers.same_words_other_numbers("Пилот стоит 150 тысяч", "Пилот стоит 150 тысяч")
    assert not numbers.same_words_other_numbers("Пилот стоит 150 тысяч", "Внедрение стоит 2 миллиона")
    assert not numbers.same_words_other_numbers("I have 2 kids", "I have 3 cats")


def test_change_markers() -> None:
    assert numbers.has_change_marker("пилот теперь стоит 200") == "теперь"
    assert numbers.has_change_marker("I no longer drink coffee") == "no longer"
    assert numbers.has_change_marker("Я больше не пью кофе") == "больше не"
    assert numbers.has_change_marker("I drink coffee") is None


def test_negation_is_opposite_and_contrast_is_not() -> None:
    assert polarity.opposite("I eat meat", "I don't eat meat")
    assert polarity.opposite("Я пью кофе", "Я больше не пью кофе")
    assert not polarity.opposite("I don't eat meat", "I do not eat any meat")
    assert not polarity.negated("По утрам я пью чай, а не кофе")
    assert not polarity.negated("I drink tea rather than coffee")


def test_stems_and_names() -> None:
    assert similarity.lexical("Моя сестра Анна живёт в Берлине", "Анна, моя сестра, живет в Берлине") == 1.0
    assert similarity.different_names("Igor's birthday is on 5 May", "Anna's birthday is on 5 May")
    # a word capitalised only because it opens the sentence is not a name
    assert not similarity.different_names("Я живу в Москве", "Живу в Москве")
    assert not similarity.different_names("I'd rather drink tea", "I prefer tea")
