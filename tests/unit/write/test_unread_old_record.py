"""A new job replaces the record of the old one even when the old statement was never read as a
job: the learned head finds it among the nearby records (``write.unread_old``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from archive.embedder import Embedder
from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world.attributes import Value
from wave_agent.write import unread_old

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def fact(text: str, at: datetime, attributes: tuple[str, ...] = ()) -> Fact:
    return Fact(id=f"f-{abs(hash(text)) % 10**8}", user_id="u", text=text, type=FactType.IDENTITY,
                tier=Tier.CORE, status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=at, last_confirmed_at=at, attributes=attributes)


@pytest.fixture(scope="module")
def head(embedder: Embedder) -> None:
    if embedder.model_name != unread_old.READS or not unread_old.MODEL_PATH.exists():
        pytest.skip("the head reads multilingual-e5-small passage vectors only")


NEW_JOB = Value("user", "role", "финансовый директор", "set")


def test_the_old_job_said_in_other_words_is_replaced(embedder: Embedder, head: None) -> None:
    old = fact("я уже восьмой год как веду бухгалтерию в «Ромашке», главбух", T0)
    chat = fact("Сегодня купила новые кроссовки", T0 + timedelta(hours=1))
    new = fact("Со вчерашнего дня я финансовый директор", T0 + timedelta(days=9))
    vectors = embedder.embed_sync([old.text, chat.text])
    found = unread_old.unread_olds(NEW_JOB, new, [(old, vectors[0]), (chat, vectors[1])])
    assert found == [old]


def test_someone_elses_job_and_a_later_record_stay(embedder: Embedder, head: None) -> None:
    sisters = fact("я уже восьмой год как веду бухгалтерию в «Ромашке», главбух", T0,
                   attributes=("Оля|role|главбух|set",))  # read as someone else's: not the person's
    later = fact("я уже восьмой год как веду бухгалтерию в «Ромашке», главбух",
                 T0 + timedelta(days=20))
    new = fact("Со вчерашнего дня я финансовый директор", T0 + timedelta(days=9))
    vectors = embedder.embed_sync([sisters.text, later.text])
    assert unread_old.unread_olds(NEW_JOB, new, [(sisters, vectors[0]), (later, vectors[1])]) == []


def test_a_pinned_record_is_not_retired_by_a_guess(embedder: Embedder, head: None) -> None:
    from dataclasses import replace

    old = replace(fact("я уже восьмой год как веду бухгалтерию в «Ромашке», главбух", T0),
                  pinned=True)
    new = fact("Со вчерашнего дня я финансовый директор", T0 + timedelta(days=9))
    vector = embedder.embed_sync([old.text])[0]
    assert unread_old.unread_olds(NEW_JOB, new, [(old, vector)]) == []


def test_only_a_value_no_record_holds_looks_for_one() -> None:
    city = Value("user", "city", "Казань", "set")
    assert unread_old.wanted([NEW_JOB, city], {"user|city"}) == [NEW_JOB]
    # someone else's value, a price and an addition do not look
    assert unread_old.wanted([Value("Оля", "city", "Казань", "set"),
                              Value("user", "price:rent", "40000", "set"),
                              Value("user", "pet", "Барсик", "add")], set()) == []
