"""When a record stops being true and when it is due for a second look (``policy.lifetimes``),
the rules the writer, maintenance's ``expire``/``review`` jobs and the health report share."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.policy.lifetimes import due_for_review, expires_at, is_expired

NOW = datetime(2026, 12, 2, tzinfo=UTC)


def said(text: str, kind: FactType, days_ago: float, *, valid_until: datetime | None = None,
         tier: Tier = Tier.FACT, status: Status = Status.ACTIVE) -> Fact:
    when = NOW - timedelta(days=days_ago)
    return Fact(id="f-1", user_id="u", text=text, type=kind, tier=tier, status=status,
                veracity=Veracity.STATED, confidence=1.0, created_at=when,
                last_confirmed_at=when, valid_until=valid_until)


def test_a_mood_said_last_week_is_no_longer_true_and_a_promise_without_a_date_never_ends() -> None:
    assert is_expired(said("Я сегодня очень устала", FactType.STATE, 8), NOW)
    assert not is_expired(said("Я сегодня очень устала", FactType.STATE, 2), NOW)
    promise = said("Обещала маме починить кран", FactType.COMMITMENT, 400)
    assert expires_at(promise) is None and not is_expired(promise, NOW)
    dated = said("Сдать отчёт до пятницы", FactType.COMMITMENT, 3, valid_until=NOW - timedelta(hours=1))
    assert is_expired(dated, NOW)
    assert not is_expired(said("Живу в Самаре", FactType.IDENTITY, 3000), NOW)  # a fact does not expire


def test_a_price_is_due_for_review_after_half_a_year_other_facts_after_two() -> None:
    assert due_for_review(said("Аренда стоит 35 тысяч в месяц", FactType.EVENT, 200), NOW)
    assert not due_for_review(said("Аренда стоит 35 тысяч в месяц", FactType.EVENT, 100), NOW)
    assert not due_for_review(said("Моя дочь Соня ходит в школу", FactType.RELATIONSHIP, 200), NOW)
    assert due_for_review(said("Моя дочь Соня ходит в школу", FactType.RELATIONSHIP, 800), NOW)
    # only active facts of the fact and core tiers are listed
    assert not due_for_review(said("Аренда стоит 35 тысяч", FactType.EVENT, 800,
                                   tier=Tier.OBSERVATION), NOW)
    assert not due_for_review(said("Аренда стоит 35 тысяч", FactType.EVENT, 800,
                                   status=Status.SUPERSEDED), NOW)
