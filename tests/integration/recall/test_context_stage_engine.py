"""The context stage through the engine (``RecallConfig.context_stage``, on by default since
round forty): over a chat between two people it reorders the learned order and says so,
finding the same records; over a person's notes it leaves the order and the scores exactly as
they were; switched off, the engine still hands its rows to an observer."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from graph.models import FactType, Veracity, utcnow
from graph.store import GraphStore
from tests.support.told import told_at_once
from wave_agent.recall import Recall
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j

# two friends' chat over two evenings, written for this test, as LoCoMo's turns are stored
CHAT = [
    [("Joanna", "Hey Nate! How was your weekend?"),
     ("Nate", "Pretty good, I won a local gaming tournament on Saturday."),
     ("Joanna", "Wow, congrats! Which game was it?"),
     ("Nate", "Street Fighter. I practised every night for a month."),
     ("Joanna", "I spent mine writing the second draft of my screenplay."),
     ("Nate", "Is it the one about the lighthouse keeper?"),
     ("Joanna", "Yes, I rewrote the ending so she stays on the island.")],
    [("Nate", "My turtles got a bigger tank this week."),
     ("Joanna", "How many turtles do you have now?"),
     ("Nate", "Three. The newest one is called Shelly."),
     ("Joanna", "I adopted a dog from the shelter, his name is Max."),
     ("Nate", "What breed is he?"),
     ("Joanna", "A beagle mix, he loves long walks by the river.")],
]


async def test_the_stage_reorders_a_chat_between_people_and_leaves_notes_alone(
    writer: Writer, graph: GraphStore, archive: object, embedder: object, recall: Recall,
    user_id: str
) -> None:
    start = utcnow() - timedelta(days=30)
    items = []
    for s, session in enumerate(CHAT):
        for n, (speaker, text) in enumerate(session):
            items.append(MemoryItem(
                text=f"{speaker}: {text}", type=FactType.EVENT, veracity=Veracity.STATED,
                created_at=start + timedelta(days=7 * s, seconds=30 * n), speaker=speaker,
                source_message_ids=(f"D{s + 1}:{n + 1}",), exchange_id=f"chat:s{s + 1}"))
    await writer.remember_many(user_id, items)
    off = Recall(graph, archive, embedder,  # type: ignore[arg-type]
                 config=replace(recall.config, context_stage=False))
    question = "What game did Nate win a tournament in?"
    before = await off.search(user_id, question, k=13)
    after = await recall.search(user_id, question, k=13)
    assert not before.context_order, "switched off"
    assert after.context_order, "on by default over a chat between two people"
    assert {h.fact.id for h in after} == {h.fact.id for h in before}, "the same records"

    notes_user = f"{user_id}-notes"
    await told_at_once(writer, notes_user, [
        (None, "Я купила новый велосипед, синий, за 30 тысяч.", 20),
        (None, "Сын пошёл во второй класс, школа номер 12.", 15),
        (None, "Записалась к стоматологу на 14 марта?", 10),
        (None, "Переехала на улицу Ленина, дом 5.", 5)])
    question = "Где я сейчас живу?"
    plain = await off.search(notes_user, question, k=4)
    staged = await recall.search(notes_user, question, k=4)
    assert not staged.context_order, "a person's notes"
    assert [(h.fact.id, h.score) for h in staged] == [(h.fact.id, h.score) for h in plain]


async def test_the_engine_hands_its_context_rows_over_with_the_stage_off(
    writer: Writer, graph: GraphStore, archive: object, embedder: object, recall: Recall,
    user_id: str
) -> None:
    start = utcnow() - timedelta(days=30)
    await writer.remember_many(user_id, [
        MemoryItem(text=f"{speaker}: {text}", type=FactType.EVENT, veracity=Veracity.STATED,
                   created_at=start + timedelta(days=7 * s, seconds=30 * n), speaker=speaker,
                   source_message_ids=(f"D{s + 1}:{n + 1}",), exchange_id=f"chat:s{s + 1}")
        for s, session in enumerate(CHAT) for n, (speaker, text) in enumerate(session)])
    seen: list[tuple[list[str], dict[str, object], dict[str, tuple[str | None, str | None]]]] = []
    off = Recall(graph, archive, embedder,  # type: ignore[arg-type]
                 config=replace(recall.config, context_stage=False))
    watched = Recall(graph, archive, embedder,  # type: ignore[arg-type]
                     config=off.config,
                     context_observer=lambda c, ids, feats, links: seen.append(
                         (ids, {i: c.facts[i] for i in ids}, links)))
    question = "What breed is Joanna's dog Max?"
    plain = await off.search(user_id, question, k=13)
    watched_hits = await watched.search(user_id, question, k=13)
    assert not watched_hits.context_order, "watching does not switch the stage on"
    assert [(h.fact.id, h.score) for h in watched_hits] == [(h.fact.id, h.score) for h in plain]
    assert len(seen) == 1
    ids, facts, links = seen[0]
    assert set(links) == set(ids) and len(ids) <= 40, "the learned order's first 40"
    answer = next(i for i in ids if "beagle" in facts[i].text)  # type: ignore[attr-defined]
    before, after = links[answer]
    assert before is not None and after is None, "the breed answers the question before it"
