"""A birthplace said two ways is one attribute, and two of them are a contradiction (issue 30:
"коренная самарчанка" after "родом из Тольятти" was never raised; nine honest months of
twenty-seven had such a pair). A native's word names its place by the stem ("пермячка" ->
Пермь), not by a list of towns; a word that leads to no place, someone else's birthplace, a
denied one, or the same place said again raise nothing. Sentences of our own, not a month's."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.held_attributes import contradicted_by, held_fact
from wave_agent.world.attributes import Value
from wave_agent.write.attributes import held_values, read


def birthplace(text: str) -> list[str]:
    return [v.value for v in asyncio.run(read(text, [])) if v.attribute == "birthplace"
            and v.entity == "user" and v.op == "set"]


@pytest.mark.parametrize(("text", "place"), [
    ("родом я из Ижевска, в Москву переехала после школы", "Ижевск"),
    ("я вообще родился в Нижнем Новгороде, потом мы уехали", "Нижний Новгород"),
    ("сама я из Перми, сюда перебралась пять лет назад", "Пермь"),
    ("я коренная москвичка, тут и выросла", "Москва"),
    ("я ж пермячка, у нас так не говорят", "Пермь"),
    ("Urodziłam się w Poznaniu, ale mieszkam w Warszawie", "Poznań"),
    ("I was born in Leeds but live in York now", "Leeds"),
])
def test_a_birthplace_is_read_however_it_is_said(text: str, place: str) -> None:
    assert birthplace(text) == [place]


@pytest.mark.parametrize("text", [
    "я сегодня уставшая, сил нет",
    "так что теперь я пескетарианка, привыкай",
    "с понедельника я веганка, посмотрим",
    "я из Москвы вернулась вчера вечером",
    "мама родом из Саратова",
    "Лена, кстати, сама из Рыбинска",
    "Французский у меня по пятницам, с Мари, она из Лиона.",
    "у меня подруга из Казани, завтра приедет",
    "у меня по средам урок с Мартой из Кракова",
    "коллега говорит, сам из Череповца",
    "я не коренная москвичка, приехала в 20",
])
def test_no_birthplace_of_the_speaker_where_none_is_said(text: str) -> None:
    assert birthplace(text) == []


def test_a_native_of_another_place_contradicts_the_birthplace_held() -> None:
    assert contradicted_by("я вообще родом из Ижевска, в Казань переехала в 18",
                           "на работе спросили, откуда я. коренная казанка, говорю") == ["first"]


def test_born_elsewhere_contradicts_the_place_one_is_from() -> None:
    assert contradicted_by("сама я из Перми, если что",
                           "я ведь вообще в Оренбурге родилась, у бабушки") == ["first"]


@pytest.mark.parametrize("later", [
    "я ж пермячка, у нас так не говорят",
    "родилась я в Перми, в роддоме на Комсомольском",
    "мама звонила из Саратова, зовёт в гости",
    "переехала в Казань, теперь живу тут",
])
def test_the_same_place_or_another_matter_raises_nothing(later: str) -> None:
    assert contradicted_by("сама я из Перми, если что", later) == []


def test_a_held_birthplace_is_not_ended_by_a_word_alike() -> None:
    held = held_values([held_fact("born", "я коренная казанка",
                                  Value("user", "birthplace", "Казань", "set").encode())])
    values = asyncio.run(read("кажется, я влюбилась. не сглазь", held))
    assert not [v for v in values if v.attribute == "birthplace"]
