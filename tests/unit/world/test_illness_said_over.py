"""When a statement says an illness is over (``world.illness.said_over``, round forty): its
verb of passing or cure, or "больше нет"; a denied passing and a held illness are not."""

from __future__ import annotations

import pytest

from wave_agent.world.illness import said_over
from wave_agent.world.reader import read


@pytest.mark.parametrize(("text", "name"), [
    ("Слава богу, бронхит прошёл, снова хожу на работу.", "бронхит"),
    ("Мигрень отпустила, третий день без таблеток.", "мигрень"),
    ("Кота вылечили от отита, уши чистые.", "отит"),
    ("Анализы хорошие, гастрита больше нет.", "гастрит"),
])
def test_an_illness_said_over(text: str, name: str) -> None:
    assert said_over(read(text), name)


@pytest.mark.parametrize(("text", "name"), [
    ("Бронхит никак не прошёл, опять к врачу.", "бронхит"),
    ("У меня мигрень, второй день лежу.", "мигрень"),
    ("Прошёл обследование, нашли гастрит.", "гастрит"),
])
def test_an_illness_still_held(text: str, name: str) -> None:
    assert not said_over(read(text), name)
