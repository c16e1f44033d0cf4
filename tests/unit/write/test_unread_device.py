"""A phone said by its make in passing ("Айфон 11 еле живой"), with no verb of having, is held as
the person's device when the statement head is sure it speaks of one (``unread_old.with_device``),
so a later "разбила его, купила новый" has a held phone to replace."""

from __future__ import annotations

import pytest

from archive.embedder import Embedder
from wave_agent.world.attributes import Value
from wave_agent.write import unread_old


@pytest.fixture(scope="module")
def head(embedder: Embedder) -> None:
    if embedder.model_name != unread_old.READS or not unread_old.MODEL_PATH.exists():
        pytest.skip("the head reads multilingual-e5-small passage vectors only")


def read(embedder: Embedder, text: str, values: tuple[Value, ...] = ()) -> tuple[Value, ...]:
    return unread_old.with_device(text, embedder.embed_sync([text])[0], values)


@pytest.mark.parametrize("text", [
    "Мой Xiaomi 12 совсем тормозит, памяти уже ни на что не хватает",
    "Айфон 13 опять разрядился к обеду, батарея на исходе",
    "My Pixel 6 battery is dying, lasts half a day",
    "Mój Xiaomi 12 ciągle się zawiesza",
])
def test_a_phone_said_in_passing_is_the_persons_device(embedder: Embedder, head: None,
                                                       text: str) -> None:
    got = [v for v in read(embedder, text) if v.attribute == "device"]
    assert [(v.entity, v.op) for v in got] == [("user", "add")]
    assert got[0].value.split()[0].lower() in text.lower()


@pytest.mark.parametrize("text", [
    "Сегодня купила новые кроссовки, наконец-то удобные",   # no device
    "всё, мой Xiaomi умер окончательно, не включается",      # a phone said dead is not added
    "Сестра хочет новый айфон, но денег у неё нет",          # someone else's wish
])
def test_no_device_is_read_where_none_is_held_now(embedder: Embedder, head: None,
                                                  text: str) -> None:
    assert [v for v in read(embedder, text) if v.attribute == "device"] == []


def test_what_the_rules_read_stands(embedder: Embedder, head: None) -> None:
    ruled = (Value("user", "device", "Pixel 8", "add"),)
    assert read(embedder, "Купила Pixel 8, а старый Xiaomi 12 отдала маме", ruled) == ruled
