"""The cosine weighed in over an assistant's chat history (``RecallConfig.assistant_cosine``),
through the real engine: an imported history with an AI assistant puts the turn nearest the
question in meaning first once meaning weighs enough; a person's notes (no record said by an
assistant) come back in exactly the order they had without the step."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from archive.embedder import Embedder
from graph.models import Veracity
from graph.store import GraphStore
from tests.support.told import told_at_once
from wave_agent.recall import Recall
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j

# an imported history with an assistant, written for this test
HISTORY = [
    ("user", "I finally set up the aquarium: a 60 litre tank, a sponge filter and six neon "
             "tetras.", 40),
    ("assistant", "For neon tetras keep the water at 22-26 °C and the pH between 6 and 7; "
                  "change a quarter of the water every week and feed small pinches twice a "
                  "day.", 40),
    ("user", "My sister is visiting next weekend, we want to go hiking near the lake.", 20),
    ("assistant", "The lake trail is about 9 km; start early, bring water and good shoes.", 20),
    ("user", "Work has been busy, the quarterly report is due on Friday.", 5),
    ("assistant", "Good luck with the report! Break it into small parts and start with the "
                  "numbers.", 5),
]
NOTES = [
    "Аквариум на 60 литров, шесть неонов и губчатый фильтр",
    "Сестра приезжает в следующие выходные, пойдём в поход к озеру",
    "Квартальный отчёт сдавать в пятницу",
    "Неонам нужна вода 22-26 градусов",
]


async def test_over_an_assistant_history_the_turn_nearest_in_meaning_comes_first(
    writer: Writer, graph: GraphStore, archive: object, embedder: Embedder, recall: Recall,
    user_id: str
) -> None:
    stored = await told_at_once(writer, user_id, HISTORY, Veracity.IMPORTED)
    question = "What water temperature do my tetras need?"
    heavy = Recall(graph, archive, embedder, config=replace(recall.config, assistant_cosine=50.0))
    found = await heavy.search(user_id, question, k=5)
    q = (await embedder.embed_query([question]))[0]
    vectors = await embedder.embed([f.text for f in stored])
    nearest = stored[int(np.argmax(np.asarray(vectors) @ np.asarray(q)))]
    assert found[0].fact.id == nearest.id, [h.fact.text for h in found]


async def test_notes_come_back_in_the_order_they_had_without_the_step(
    writer: Writer, graph: GraphStore, archive: object, embedder: Embedder, recall: Recall,
    user_id: str
) -> None:
    for text in NOTES:
        await writer.remember(user_id, text)
    question = "Какая температура воды нужна неонам?"
    off = Recall(graph, archive, embedder, config=replace(recall.config, assistant_cosine=0.0))
    heavy = Recall(graph, archive, embedder, config=replace(recall.config, assistant_cosine=50.0))
    without = [h.fact.id for h in await off.search(user_id, question, k=4)]
    with_step = [h.fact.id for h in await heavy.search(user_id, question, k=4)]
    assert with_step == without
