"""The LoCoMo harness and its baselines on a tiny synthetic conversation, real stores."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from archive.embedder import Embedder
from graph.store import GraphStore
from wave_agent.bench.baselines import BM25Index, ContextRRF, DenseIndex, context_windows
from wave_agent.bench.locomo import PrimedEmbedder, Tally, recall_at, record_text, run_conversation
from wave_agent.bench.locomo_data import Conversation, Question, Turn, normalise_evidence
from wave_agent.recall import Recall, RecallConfig
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j

LINES = [
    (1, "Mia", "Hi Leo! I finally adopted a puppy last weekend, a beagle called Biscuit."),
    (1, "Leo", "Congrats! How is Biscuit settling in?"),
    (1, "Mia", "He chewed my favourite sneakers, but he is adorable."),
    (1, "Leo", "I started learning the violin, my teacher is very strict."),
    (2, "Leo", "We played our first violin concert at the town hall on Saturday."),
    (2, "Mia", "Amazing! I went hiking in the Alps with my sister Ida."),
    (2, "Leo", "Did you see any ibex up there?"),
    (2, "Mia", "Yes, three of them near the glacier!"),
]


def conversation() -> Conversation:
    turns = []
    counters = {1: 0, 2: 0}
    for session, speaker, text in LINES:
        counters[session] += 1
        at = datetime(2023, 5, 1 + 7 * (session - 1), 14, 0, tzinfo=UTC)
        turns.append(Turn(f"D{session}:{counters[session]}", session, len(turns), speaker, text, at))
    questions = (
        Question("What is the name of Mia's puppy?", ("D1:1",), 1),
        Question("Where did Leo play a violin concert?", ("D2:1",), 4),
        Question("What animals did Mia see near the glacier?", ("D2:3", "D2:4"), 4),
    )
    return Conversation("conv-test", ("Mia", "Leo"), tuple(turns), questions)


def test_evidence_ids_are_normalised() -> None:
    assert normalise_evidence(["D8:6; D9:17", "D:11:26", "D9:1 D4:4", "D"]) == (
        "D8:6", "D9:17", "D11:26", "D9:1", "D4:4")
    assert recall_at([("D1:1",), ("D2:3", "D2:4")], ("D2:4", "D1:1"), 1) == 0.5
    assert recall_at([("D1:1",), ("D2:3", "D2:4")], ("D2:4", "D1:1"), 2) == 1.0


async def test_baselines_find_the_obvious_turns(embedder: Embedder) -> None:
    conv = conversation()
    texts = [record_text(t) for t in conv.turns]
    bm25 = BM25Index(texts)
    assert bm25.search("violin concert town hall", 3)[0] == 4
    assert bm25.search("zzz qqq", 3) == []
    dense = DenseIndex(await embedder.embed(texts))
    query = (await embedder.embed(["a young dog that chews shoes"]))[0]
    assert dense.search_vector(query, 3)[0] in (0, 2)
    windows = context_windows(texts, [t.session for t in conv.turns])
    assert windows[3] == " ".join(texts[2:4])  # the session boundary cuts the window
    context = ContextRRF(windows, await embedder.embed(windows))
    vector = (await embedder.embed(["ibex near the glacier"]))[0]
    assert set(context.search("ibex near the glacier", vector, 3)) & {6, 7}


async def test_harness_replays_asks_and_scores(
    graph: GraphStore, archive: object, embedder: Embedder
) -> None:
    primed = PrimedEmbedder(embedder)
    writer = Writer(graph, ArchiveSync(primed, archive))  # type: ignore[arg-type]
    tally = Tally()
    seen: list[str] = []
    user = await run_conversation(
        conversation(), writer=writer, embedder=primed, graph=graph, tally=tally,
        recall_factory=lambda clock: Recall(graph, archive, primed, clock=clock,
                                            config=RecallConfig(voice_timeout_s=30.0)),
        progress=lambda label, _d, _t: seen.append(label),
    )
    summary = tally.summary()
    assert summary["questions"] == 3
    assert summary["wave"]["R@10"] == 100.0 and summary["bm25"]["R@10"] == 100.0
    for system in ("wave", "bm25", "dense", "context_rrf"):
        assert 0.0 <= summary[system]["R@1"] <= summary[system]["R@5"] <= summary[system]["R@10"]
    assert summary["latency_ms"]["wave"]["p95"] > 0 and summary["latency_ms"]["dense"]["p50"] > 0
    assert any("remembering" in label for label in seen)
    # every question keeps its own row (--details), each system's first rank within the ten
    assert [row["id"] for row in tally.questions] == [f"conv-test:{n}" for n in (1, 2, 3)]
    assert all(row["wave"]["first"] is not None and row["wave"]["R@10"] == 1.0
               for row in tally.questions)
    assert user.startswith("bench-locomo-conv-test-")
    assert await graph.list_facts(user) == []  # the replayed records were removed afterwards
