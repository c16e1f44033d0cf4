"""The now/stable gate on the attribute step, against the real Neo4j, Qdrant local and e5
(round thirty-one, h/gate31): with the gate on (the default 0.2, and 0.5), the questions about now that depend on the
override ("где я сейчас живу?" after a move, "какой у меня номер?" after a new one) and a
question about the past still get the value they ask for first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from archive.embedder import Embedder
from tests.support.told import told
from wave_agent.recall import Recall, asked
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j

_AROUND = ["Вчера ходили с подругой в кино на новый фильм.", "Купила себе зелёный свитер.",
           "Начальник опять перенёс совещание на пятницу.", "Сестра звала в гости на выходных.",
           "Работаю бухгалтером в «Ромашке»."]


async def test_with_the_gate_on_questions_about_now_and_the_past_keep_their_value(
    writer: Writer, recall: Recall, graph: object, archive: object, embedder: Embedder,
    user_id: str
) -> None:
    if embedder.model_name != asked.READS or asked.now_gate() is None:
        pytest.skip("the gate reads multilingual-e5-small vectors only")
    assert recall.config.attribute_now_gate is not None  # the gate is on by default
    strict = Recall(graph, archive, embedder,  # type: ignore[arg-type]
                    config=replace(recall.config, attribute_now_gate=0.5))
    samara, _ = await told(writer, user_id, ["я живу в Самаре", "Мой номер +7 912 345-67-89."],
                            30)
    await told(writer, user_id, _AROUND, 20)
    [kazan] = await told(writer, user_id, ["переехала в Казань"], 3)
    [phone] = await told(writer, user_id, ["новый номер записывай: +7 903 111-22-33"], 2)

    for gated in (recall, strict):
        for question, wanted in (("где я сейчас живу?", kazan), ("какой у меня номер?", phone),
                                 ("где я жила раньше?", samara)):
            found = await gated.search(user_id, question, k=5)
            assert found[0].fact.id == wanted, (question, gated.config.attribute_now_gate,
                                                [h.fact.text for h in found])
