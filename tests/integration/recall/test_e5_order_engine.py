"""The e5-order step (``RecallConfig.e5_order``): with it on, the record whose e5 vector is
nearest the question comes first, the result says the order was e5's, and the same records
are found; off (the default), the learned order stands and the result says so."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from archive.embedder import Embedder
from graph.store import GraphStore
from tests.support.told import told_at_once
from wave_agent.recall import Recall
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j

# a chat history's turns, written for this test: one long self-contained how-to answer and
# the small talk around it
TOLD = [
    ("I finally set up the aquarium: a 60 litre tank, a sponge filter and six neon tetras.", 40),
    ("assistant: For neon tetras keep the water at 22-26 °C and the pH between 6 and 7; change "
     "a quarter of the water every week, feed small pinches twice a day and never add fish "
     "before the tank has cycled for four to six weeks, or the ammonia will kill them.", 39),
    ("My sister is visiting next weekend, we want to go hiking near the lake.", 20),
    ("assistant: The lake trail is about 9 km; start early, bring water and good shoes.", 19),
    ("Work has been busy, the quarterly report is due on Friday.", 5),
]


async def test_e5s_nearest_record_comes_first_when_the_step_is_on(
    writer: Writer, graph: GraphStore, archive: object, embedder: Embedder, recall: Recall,
    user_id: str
) -> None:
    stored = await told_at_once(writer, user_id, [(None, text, days) for text, days in TOLD])
    question = "What water temperature did you say my tetras need?"
    learned = await recall.search(user_id, question, k=5)
    assert not learned.e5_order, "off by default"

    on = Recall(graph, archive, embedder, config=replace(recall.config, e5_order="on",
                                                                  query_adapter="off"))
    found = await on.search(user_id, question, k=5)
    assert found.e5_order
    q = (await embedder.embed_query([question]))[0]
    vectors = await embedder.embed([f.text for f in stored])
    nearest = stored[int(np.argmax(np.asarray(vectors) @ np.asarray(q)))]
    assert found[0].fact.id == nearest.id, [h.fact.text for h in found]
    assert {h.fact.id for h in found} == {h.fact.id for h in learned}, "the same records"
