"""Offline, a message cut into pieces keeps what the whole says: the values the reader finds in
the whole message are given to the pieces that name them (month 13: "уронила айфон в лужу ...
купила Pixel 8" left the iPhone held, "урок уже 3000 оплатила. занимаемся теперь онлайн" left
the old price, each piece read alone)."""

from __future__ import annotations

import asyncio

from wave_agent.llm.offline import extract_heuristic
from wave_agent.postprocess.extract import with_message_values, with_stated_attributes
from wave_agent.world import read
from wave_agent.world.attributes import Value, as_said, read_values


def pieces(text: str, held: list[Value]) -> dict[str, tuple[str, ...]]:
    async def run() -> dict[str, tuple[str, ...]]:
        facts = await with_stated_attributes(text, extract_heuristic(text, max_facts=4),
                                             max_facts=4)
        return {f.text: f.attributes for f in await with_message_values(text, facts, held)}
    return asyncio.run(run())


def test_an_ending_said_beside_the_new_one_reaches_the_piece_that_names_the_old() -> None:
    found = pieces("уронила айфон в лужу, всё, умер окончательно. в обед купила Pixel 8, "
                   "привыкаю к андроиду", [Value("user", "device", "айфон", "add")])
    dropped = next(attrs for text, attrs in found.items() if "айфон" in text)
    assert "user|device|айфон|remove" in dropped


def test_a_new_price_keeps_the_change_word_of_its_message() -> None:
    found = pieces("Елена подняла цену на вокал — сегодняшний урок уже 3000 оплатила. "
                   "занимаемся теперь онлайн", [Value("user", "price:lessons", "2500", "set")])
    text, paid = next((text, attrs) for text, attrs in found.items() if "3000" in text)
    # given by the whole message, or read by the piece itself ("оплатила" is a paying verb)
    held = [Value("user", "price:lessons", "2500", "set")]
    own = {v.encode() for v in read_values(text, read(as_said(text)), held)}
    assert "user|price:lessons|3000|set" in set(paid) | own


def test_a_piece_that_names_no_value_of_the_whole_is_left_to_its_own_reading() -> None:
    found = pieces("и ещё вокал, с педагогом Еленой, раз в неделю по четвергам. 2500 за урок", [])
    assert all(not attrs for attrs in found.values())


def test_two_values_of_one_single_attribute_in_a_message_are_given_to_no_piece() -> None:
    found = pieces("команда хорошая. я старший тестировщик на мобильном банке, под мной два "
                   "джуна. руководитель — Рамиль, спокойный",
                   [Value("user", "role", "тестировщик", "set")])
    assert not any("руководитель" in a for attrs in found.values() for a in attrs)


def test_an_ending_whose_piece_names_it_otherwise_goes_with_the_new_phone() -> None:
    # the piece saying the old phone's end names it in another alphabet ("пиксель" for the held
    # "Pixel 6"), so no piece names it: the ending goes with the piece saying the new one
    found = pieces("пиксель всё, разбила окончательно. взяла Samsung A55, привыкаю к нему",
                   [Value("user", "device", "Pixel 6", "add")])
    new = next(attrs for text, attrs in found.items() if "Samsung" in text)
    assert "user|device|Pixel 6|remove" in new


def test_a_new_phone_said_with_no_ending_ends_nothing() -> None:
    found = pieces("взяла Samsung A55, привыкаю к нему. на работе аврал",
                   [Value("user", "device", "Pixel 6", "add")])
    assert not any("remove" in a for attrs in found.values() for a in attrs)



def test_an_ending_in_a_sentence_no_piece_was_cut_from_is_kept_with_its_ending() -> None:
    # the extractor keeps the visit; read alone, with nothing held, the ending's own sentence
    # states nothing and is not kept, so the held illness would stay beside this message's record
    found = pieces("была у терапевта. гастрита больше нет, можно кофе",
                   [Value("user", "condition", "гастрит", "add")])
    ended = [attrs for text, attrs in found.items() if "гастрит" in text]
    assert ended and "user|condition|гастрит|remove" in ended[0]

def test_nothing_is_kept_for_a_value_the_message_does_not_end() -> None:
    found = pieces("теннис по субботам, как всегда. вторую неделю дожди",
                   [Value("user", "hobby", "теннис", "add")])
    assert not any(attr.endswith("|remove") for attrs in found.values() for attr in attrs)


def test_eating_meat_beside_the_diet_given_up_ends_the_diet_and_denies_nothing() -> None:
    # a piece alone ("были у брата на даче, ел шашлык.") denies the held meatless diet; its
    # message also says the diet is over ("хватит с меня веганства"), so the piece ends it
    held = [Value("user", "diet", "веганство", "set")]
    found = pieces("были у брата на даче, ел шашлык. первый раз за год мясо, и ничего. "
                   "короче, хватит с меня веганства", held)
    said = [a for attrs in found.values() for a in attrs if "|diet|" in a]
    assert said and "user|diet|веганство|negate" not in said, found
    assert "user|diet|веганство|remove" in said


def test_having_had_enough_of_a_way_of_living_ends_it() -> None:
    held = [Value("user", "diet", "вегетарианство", "set")]
    text = "всё, хватит с меня вегетарианства"
    assert {v.encode() for v in read_values(text, read(as_said(text)), held)} == {
        "user|diet|вегетарианство|remove"}
    money = "денег хватит до зарплаты"
    assert not read_values(money, read(as_said(money)), held)
