"""A new price said as a payment that the reader reads as no price is the held price whose record
shares a word with it and is nearest by meaning (``write.paid_price``): the old price is then
replaced, not left in force beside the new one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from archive.embedder import Embedder
from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world.attributes import Value
from wave_agent.write import paid_price, unread_old

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SPANISH = Value("user", "price:spanish_lessons", "1500", "set")
RENT = Value("user", "price:rent", "38000", "set")
PLUS = Value("user", "price:плюс", "399", "set")


def fact(text: str) -> Fact:
    return Fact(id=f"f-{abs(hash(text)) % 10**8}", user_id="u", text=text, type=FactType.IDENTITY,
                tier=Tier.CORE, status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=T0, last_confirmed_at=T0)


HELD = [(SPANISH, fact("а по субботам утром испанский с Лаурой по зуму, 1500 за урок")),
        (RENT, fact("аренда тут 38 тысяч. дороже, чем в Нижнем, но и квартира больше")),
        (PLUS, fact("Яндекс Плюс у меня, кстати, 399 в месяц"))]


@pytest.fixture(scope="module")
def prices(embedder: Embedder) -> list[tuple[Value, Fact, object]]:
    if embedder.model_name != unread_old.READS or not unread_old.MODEL_PATH.exists():
        pytest.skip("the head reads multilingual-e5-small passage vectors only")
    vectors = embedder.embed_sync([f.text for _, f in HELD])
    return [(v, f, x) for (v, f), x in zip(HELD, vectors, strict=True)]


def paid(embedder: Embedder, prices: list, text: str, values: tuple[Value, ...] = ()) -> Value | None:
    return paid_price.paid_price(text, embedder.embed_sync([text])[0], values, prices)


@pytest.mark.parametrize(("text", "attribute", "amount"), [
    ("перевела Лауре 1800 за сегодняшний испанский", "price:spanish_lessons", "1800"),
    ("скинула репетитору 1800 за испанский", "price:spanish_lessons", "1800"),
    ("с Плюса списали 449. опять подорожал, и никто не предупредил", "price:плюс", "449"),
])
def test_a_payment_is_the_new_price_of_the_held_one_it_names(
        embedder: Embedder, prices: list, text: str, attribute: str, amount: str) -> None:
    assert paid(embedder, prices, text) == Value("user", attribute, amount, "set")


@pytest.mark.parametrize("text", [
    "Олег сказал, что алименты будет присылать как раньше, 15 тысяч в месяц",  # someone else's
    "купила машину! шкода октавия 2017 года, серая, пробег 90 тысяч",  # no price said
    "проплыла сегодня 1500 метров в бассейне",  # a count, not money
    "заплатила 3000 за обед с коллегами",  # names none of the held prices
])
def test_no_held_price_is_changed_by_an_amount_that_is_not_its_price(
        embedder: Embedder, prices: list, text: str) -> None:
    assert paid(embedder, prices, text) is None


def test_a_statement_whose_price_the_reader_reads_is_left_to_the_reader(
        embedder: Embedder, prices: list) -> None:
    read = (Value("user", "price:lessons", "1800", "set"),)
    assert paid(embedder, prices, "испанский теперь 1800 за урок", read) is None


def test_an_amount_is_money_said_with_its_currency_or_a_bare_number_no_word_counts() -> None:
    assert paid_price.amount_said("отдал 27 тысяч за первый месяц") == ("27 тысяч", "27000")
    assert paid_price.amount_said("списали 449.") == ("449", "449")
    assert paid_price.amount_said("бассейн тут 3900, дешевле") == ("3900", "3900")
    assert paid_price.amount_said("проплыла 1500 метров") is None
    assert paid_price.amount_said("переехали в 2025 году") is None
    assert paid_price.amount_said("мой номер +7 920 254-31-86") is None
