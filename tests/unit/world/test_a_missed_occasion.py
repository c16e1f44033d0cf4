"""One occasion missed is not the habit denied (issue 30: "на йогу не пошла" raised a
contradiction against the person's yoga). A negated perfective past ("не пошла", "не сходил",
"didn't go", "nie poszłam") says an event; giving the habit up ("больше не хожу", "бросила",
"не занимаюсь", "I don't do yoga any more") still acts on the held value. Sentences of our own,
not a month's."""

from __future__ import annotations

import pytest

from tests.support.held_attributes import acts_on_held, held_fact

HELD = [held_fact("swim", "Плаваю в бассейне по вторникам", "user|hobby|плавание|add"),
        held_fact("dance", "Хожу на танцы по пятницам", "user|hobby|танцы|add"),
        held_fact("climb", "I go climbing twice a week", "user|hobby|climbing|add"),
        held_fact("run", "Biegam co rano", "user|hobby|bieganie|add"),
        held_fact("yoga", "Chodzę na jogę", "user|hobby|joga|add")]


@pytest.mark.parametrize("text", [
    "на танцы не пошла, голова раскалывается",
    "в бассейн так и не поехал, машина не завелась",
    "на танцы не сходила, застряла на работе",
    "I didn't go climbing, the gym was closed",
    "Nie poszłam na jogę, padam z nóg",
])
def test_one_missed_occasion_leaves_the_habit_held(text: str) -> None:
    assert not acts_on_held(text, HELD)


@pytest.mark.parametrize("text", [
    "на танцы больше не хожу, надоело",
    "бросила танцы, колено не даёт",
    "танцами не занимаюсь, это сестра танцует",
    "I don't do climbing any more",
    "Nie chodzę już na jogę, szkoda czasu",
])
def test_giving_the_habit_up_still_acts_on_it(text: str) -> None:
    assert acts_on_held(text, HELD)
