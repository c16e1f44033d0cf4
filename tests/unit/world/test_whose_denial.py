"""A denial raises a contradiction against the person's own child only when it is theirs and
the negation governs the class word (``world.denial``): a friend's "no children yet" or "без"
said of a car leaves the person's son alone, while the person's own "детей у нас нет" still asks
which is true. Sentences of our own, not a month's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.write.attributes import decide, held_values, read

NOW = datetime(2026, 11, 1, tzinfo=UTC)
SON = Fact(id="son", user_id="u", text="Сын Миша пошёл во второй класс", type=FactType.IDENTITY,
           tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
           created_at=NOW, last_confirmed_at=NOW, attributes=("user|child|Миша|add",))


def contradicts_son(text: str) -> bool:
    held = held_values([SON])
    values = asyncio.run(read(text, held))
    return bool(decide(values, held, "new").contradicts)


@pytest.mark.parametrize("text", [
    "Виталик наконец женился, детей у них пока нет",
    "Мой коллега Гоша разведён, детей нет",
    "Сестра вышла замуж в мае, детей пока не планируют",
    "с ребёнком и тёщей на дачу без прицепа никак",
    "My friend Tom is married, no kids yet",
    "with the kids and all the bags, no way without a taxi",
])
def test_someone_else_s_denial_or_another_noun_s_raises_nothing(text: str) -> None:
    assert not contradicts_son(text)


@pytest.mark.parametrize("text", [
    "детей у нас нет",
    "Вахтёрша спросила, не мешает ли шум от детей. Сказала ей — детей у нас нет",
    "Мы с Виталиком женаты, детей пока нет",
    "живём вдвоём, без детей",
    "I have no kids",
    "Dzieci nie mamy.",
])
def test_the_person_s_own_denial_still_asks_which_is_true(text: str) -> None:
    assert contradicts_son(text)
