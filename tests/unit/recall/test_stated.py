"""The newest statement of an asked attribute first (``wave_agent/recall/stated.py``): the heads
read records written for this test (in no month they were trained on) as stating the person's
city, employer or phone, and not a record about something else; among recall's chosen records
the ones stating the asked value come newest first while the others keep their places."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pytest

from archive.embedder import Embedder
from wave_agent.recall import stated

# (record, attribute it states): fresh wordings, Russian first
# (Russian only: the months' statements are three quarters Russian, and short English and Polish
# ones are read weakly, docs/benchmarks.md "The newest statement first")
STATES = [
    ("Всё, перебрались в Тверь, снимаем однушку у вокзала", "city"),
    ("Со вчерашнего дня я официально сотрудник «Северстали»", "employer"),
    ("Поменяла симку, теперь звонить на +7 901 555-12-34", "phone"),
    ("Мы с Олегом расстались, теперь встречаюсь с Игорем", "partner"),
    ("Продал старую Ладу, купил Шкоду Октавию", "vehicle"),
    ("Мне исполнилось 42, отметили на даче", "age"),
]
NOT_STATED = [("Купила наконец зимние ботинки, старые совсем развалились", "city"),
              ("Посмотрели вчера новый фильм Балабанова", "employer"),
              ("Погода сегодня мерзкая, весь день дождь", "phone")]


@pytest.fixture(scope="module")
def vectors(embedder: Embedder) -> dict[str, np.ndarray]:
    if embedder.model_name != "multilingual-e5-small" or stated.model() is None:
        pytest.skip("the heads read multilingual-e5-small vectors only")
    texts = [t for t, _ in STATES + NOT_STATED]
    return dict(zip(texts, embedder.embed_sync(texts), strict=True))


def test_fresh_records_are_read_as_stating_their_attribute(vectors: dict[str, np.ndarray]) -> None:
    heads = stated.model()
    assert heads is not None
    missed = [t for t, a in STATES if not heads.states(a, vectors[t])]
    assert len(missed) <= 1, missed  # one of six may be missed
    assert not [t for t, a in NOT_STATED if heads.states(a, vectors[t])]


def test_an_attribute_without_a_head_is_never_read() -> None:
    heads = stated.model()
    if heads is None:
        pytest.skip("no heads")
    assert not heads.states("price", np.ones(stated.DIM, dtype=np.float32))
    assert not heads.states("city", np.ones(7, dtype=np.float32))


def test_the_newest_statement_takes_the_first_place_others_stay() -> None:
    start = datetime(2026, 11, 1)
    created = {"old-city": start, "talk": start + timedelta(days=3),
               "new-city": start + timedelta(days=20), "cat": start + timedelta(days=25)}
    states = {"old-city", "new-city"}.__contains__
    got = stated.newest_first(["old-city", "talk", "new-city", "cat"], states, created.__getitem__)
    assert got == ["new-city", "talk", "old-city", "cat"]


def test_one_statement_or_none_leaves_the_order() -> None:
    order = ["a", "b", "c"]
    assert stated.newest_first(order, {"b"}.__contains__, lambda _: datetime(2026, 1, 1)) == order
    assert stated.newest_first(order, lambda _: False, lambda _: datetime(2026, 1, 1)) == order
