"""A promise said in conversation comes back on time: due time read, moved, reminded once,
asked about when unclear, removed with the record it came from. Real Neo4j, Qdrant local
mode and the whole pipeline (turn, outbox, post-processor, offline extractor); the clock is
moved with ``WAVE_NOW``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from archive.embedder import Embedder
from graph.commitments import Commitment, CommitmentState
from wave_agent.commitments.sweep import Notice, ReminderSweep
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j

MOSCOW = ZoneInfo("Europe/Moscow")
WEDNESDAY = "2026-12-02T14:30+03:00"
FRIDAY_10 = "2026-12-04T10:00+03:00"
SATURDAY_10 = "2026-12-05T10:00+03:00"


@pytest.fixture
async def services(settings: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    moscow = settings.model_copy(update={"timezone": "Europe/Moscow"})
    async with Services(moscow, embedder=embedder) as opened:
        await (await opened.turns()).warm_up()
        yield opened


async def say(services: Services, user_id: str, text: str) -> None:
    turns = await services.turns()
    await turns.handle(user_id, text)
    report = await services.postprocessor().drain(120)
    assert report.pending == 0, report


class Outbox:
    """What the sweep sent, as a person would see it arrive."""

    def __init__(self) -> None:
        self.sent: list[tuple[Commitment, Notice]] = []

    async def __call__(self, commitment: Commitment, notice: Notice) -> None:
        self.sent.append((commitment, notice))


def local(moment: datetime | None) -> str | None:
    return moment.astimezone(MOSCOW).strftime("%a %Y-%m-%d %H:%M") if moment else None


async def test_a_promise_is_due_moved_reminded_once_and_erased_with_its_record(
    services: Services, user_id: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WAVE_NOW", WEDNESDAY)
    await say(services, user_id, "обещала маме позвонить в пятницу")
    ledger = await services.commitments()
    [promise] = await ledger.open(user_id)
    assert local(promise.due_at) == "Fri 2026-12-04 10:00"
    graph = await services.graph()
    [source] = promise.source_ids
    assert (await graph.get_fact(user_id, source)).text == "Обещала маме позвонить в пятницу"

    await say(services, user_id, "перенесла звонок маме на субботу")
    [moved] = await ledger.open(user_id)
    assert moved.id == promise.id
    assert local(moved.due_at) == "Sat 2026-12-05 10:00"
    assert len(moved.source_ids) == 2  # the promise and the record that moved it
    assert [local(e.due_at) for e in moved.history if e.what in ("created", "moved")] == [
        "Fri 2026-12-04 10:00", "Sat 2026-12-05 10:00"]

    outbox = Outbox()
    sweep = ReminderSweep(ledger, outbox, users=user_id)
    monkeypatch.setenv("WAVE_NOW", FRIDAY_10)
    await sweep.tick()
    assert outbox.sent == []  # moved to Saturday: nothing on Friday
    monkeypatch.setenv("WAVE_NOW", SATURDAY_10)
    await sweep.tick()
    await sweep.tick()
    assert [(c.id, n.kind, n.late) for c, n in outbox.sent] == [(promise.id, "reminder", False)]

    await (await services.writer()).delete(user_id, source)
    assert await ledger.open(user_id) == []
    assert await graph.get_commitment(user_id, promise.id) is None


async def test_a_reminder_due_while_nothing_could_send_goes_out_once_and_says_it_is_late(
    services: Services, user_id: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WAVE_NOW", WEDNESDAY)
    await say(services, user_id, "в понедельник надо отправить Паше ключи")
    ledger = await services.commitments()
    [keys] = await ledger.open(user_id)
    assert local(keys.due_at) == "Mon 2026-12-07 10:00"

    class Down(Outbox):
        async def __call__(self, commitment: Commitment, notice: Notice) -> None:
            raise ConnectionError("Telegram unreachable")

    monkeypatch.setenv("WAVE_NOW", "2026-12-07T10:00+03:00")
    report = await ReminderSweep(ledger, Down(), users=user_id).tick()
    assert report.failed == 1
    outbox = Outbox()
    monkeypatch.setenv("WAVE_NOW", "2026-12-07T13:00+03:00")
    sweep = ReminderSweep(ledger, outbox, users=user_id)
    await sweep.tick()
    await sweep.tick()
    assert [(c.id, n.late) for c, n in outbox.sent] == [(keys.id, True)]


async def test_an_unclear_day_is_asked_once_and_the_answer_sets_it(
    services: Services, user_id: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WAVE_NOW", WEDNESDAY)  # a Wednesday: "в среду" is today or next week
    await say(services, user_id, "в среду надо сходить в банк")
    ledger = await services.commitments()
    [bank] = await ledger.open(user_id)
    assert bank.due_at is None and bank.needs_date
    outbox = Outbox()
    sweep = ReminderSweep(ledger, outbox, users=user_id)
    await sweep.tick()
    await sweep.tick()
    assert [(c.id, n.kind) for c, n in outbox.sent] == [(bank.id, "question")]
    answered = await ledger.postpone(user_id, bank.id, "в следующую среду в 11")
    assert local(answered.due_at) == "Wed 2026-12-09 11:00"
    assert not answered.needs_date


async def test_a_person_who_turned_reminders_off_gets_none_and_closing_is_kept(
    services: Services, user_id: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WAVE_NOW", WEDNESDAY)
    await say(services, user_id, "до 15-го оплатить садик")
    ledger = await services.commitments()
    [nursery] = await ledger.open(user_id)
    assert local(nursery.due_at) == "Tue 2026-12-15 10:00"
    await ledger.set_prefs(user_id, enabled=False)
    outbox = Outbox()
    monkeypatch.setenv("WAVE_NOW", "2026-12-15T10:01+03:00")
    await ReminderSweep(ledger, outbox, users=user_id).tick()
    assert outbox.sent == []
    done = await ledger.close(user_id, nursery.id, CommitmentState.DONE)
    assert done.state is CommitmentState.DONE
    assert await ledger.open(user_id) == []


async def test_the_turn_mentions_what_is_due_today_and_not_before(
    services: Services, user_id: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WAVE_NOW", WEDNESDAY)
    await say(services, user_id, "обещала маме позвонить в пятницу")
    turns = await services.turns()
    wednesday = await turns.prepare(user_id, "что у меня сегодня по планам?")
    assert "Commitments due today" not in wednesday.system
    monkeypatch.setenv("WAVE_NOW", "2026-12-04T08:00+03:00")  # Friday morning
    friday = await turns.prepare(user_id, "что у меня сегодня по планам?")
    assert "Commitments due today" in friday.system
    assert "Обещала маме позвонить в пятницу" in friday.system
