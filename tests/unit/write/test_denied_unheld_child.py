"""A class denial of the person's children contradicts an earlier record that spoke of their
child without a kin word the reader reads (``write.unread_old.denied_old``): the learned head is
sure the earlier statement says the person has a child; a denial with no such statement before
it finds nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from archive.embedder import Embedder
from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world.attributes import ANY, Value
from wave_agent.world.reading import USER
from wave_agent.write import unread_old
from wave_agent.write.attributes import read

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NO_CHILDREN = Value(USER, "child", ANY, "negate")


def fact(text: str, at: datetime, attributes: tuple[str, ...] = ()) -> Fact:
    return Fact(id=f"f-{abs(hash(text)) % 10**8}", user_id="u", text=text, type=FactType.IDENTITY,
                tier=Tier.CORE, status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=at, last_confirmed_at=at, attributes=attributes)


@pytest.fixture(scope="module")
def head(embedder: Embedder) -> None:
    if embedder.model_name != unread_old.READS or not unread_old.MODEL_PATH.exists():
        pytest.skip("the head reads multilingual-e5-small passage vectors only")


async def test_the_denial_is_read_as_one_of_the_persons_children() -> None:
    values = await read("Детей у меня нет, если что.", [])
    assert unread_old.unheld_denials(values, set()) == [NO_CHILDREN]
    # a child already held is compared by the rules, not looked for
    assert unread_old.unheld_denials(values, {NO_CHILDREN.key}) == []


@pytest.mark.xfail(strict=True, reason="the head scores this son 0.69 for a child, under DENIAL_SURE "
                   "(0.8, chosen on tuning_2..24): the step does not reach a wording of our own")
def test_a_son_named_by_his_school_and_age_is_contradicted(embedder: Embedder, head: None) -> None:
    son = fact("Отвела Тёму в первый класс, ему семь, гордый такой", T0)
    weather = fact("На улице опять слякоть, ненавижу ноябрь", T0 + timedelta(hours=2))
    denial = fact("Детей у меня нет, если что.", T0 + timedelta(days=12))
    vectors = embedder.embed_sync([weather.text, son.text])
    found = unread_old.denied_old(NO_CHILDREN, denial, [(weather, vectors[0]), (son, vectors[1])])
    assert found == son


def test_nothing_is_raised_without_a_child_said_before(embedder: Embedder, head: None) -> None:
    earlier = [fact("Работаю бухгалтером в небольшой фирме", T0),
               fact("Вчера ходила в кино с подругой, фильм так себе", T0 + timedelta(days=1)),
               fact("Купила новый пылесос, очень доволен", T0 + timedelta(days=2))]
    denial = fact("Детей у меня нет, если что.", T0 + timedelta(days=12))
    vectors = embedder.embed_sync([f.text for f in earlier])
    assert unread_old.denied_old(NO_CHILDREN, denial, list(zip(earlier, vectors, strict=True))) is None


def test_a_later_record_is_not_what_the_denial_contradicts(embedder: Embedder, head: None) -> None:
    denial = fact("Детей у меня нет, если что.", T0)
    son = fact("Отвела Тёму в первый класс, ему семь, гордый такой", T0 + timedelta(days=3))
    vector = embedder.embed_sync([son.text])[0]
    assert unread_old.denied_old(NO_CHILDREN, denial, [(son, vector)]) is None
