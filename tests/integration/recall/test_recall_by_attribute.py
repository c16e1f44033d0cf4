"""Recall by attribute, against the real Neo4j, Qdrant local and e5: a question that names no
word of its answer ("где я сейчас живу?", "какой у меня номер?") is answered from the graph's
current value of the attribute it asks for, a question about the past from the replaced value
first, and a question about an attribute nothing holds gets recall's usual answer, never
another attribute's value."""

from __future__ import annotations

import pytest

from graph.models import Status
from tests.support.told import told
from wave_agent.recall import HISTORY, Recall
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j

# A life with more in it than the attribute asked about: the answer must be found by what the
# question asks, not by being the only record.
_AROUND = ["Вчера ходили с подругой в кино на новый фильм.", "Купила себе зелёный свитер.",
           "Начальник опять перенёс совещание на пятницу.", "Сестра звала в гости на выходных.",
           "Мой номер +7 912 345-67-89.", "Работаю бухгалтером в «Ромашке»."]


async def test_a_move_answers_where_i_live_now_and_where_i_lived_before(
    writer: Writer, recall: Recall, user_id: str
) -> None:
    [samara] = await told(writer, user_id, ["я живу в Самаре"], 30)
    await told(writer, user_id, _AROUND, 20)
    [kazan] = await told(writer, user_id, ["переехала в Казань"], 3)
    old = await recall.graph.get_fact(user_id, samara)
    assert old is not None and old.status is Status.SUPERSEDED  # the writer's attribute step

    now = await recall.search(user_id, "где я сейчас живу?", k=5)
    assert now[0].fact.id == kazan, [h.fact.text for h in now]
    assert samara not in [h.fact.id for h in now]  # a question about now: no stale city

    before = await recall.search(user_id, "где я жила раньше?", k=5)
    assert before.preset is HISTORY
    assert before[0].fact.id == samara, [h.fact.text for h in before]
    assert kazan in [h.fact.id for h in before[:2]]  # the current one right after it


async def test_a_phone_question_answers_the_new_number(
    writer: Writer, recall: Recall, user_id: str
) -> None:
    await told(writer, user_id, _AROUND, 20)
    [new] = await told(writer, user_id, ["новый номер записывай: +7 903 111-22-33"], 2)
    for question in ("какой у меня номер?", "what's my phone number?", "jaki mam numer?"):
        found = await recall.search(user_id, question, k=5)
        assert found[0].fact.id == new, (question, [h.fact.text for h in found])
        assert not any("912" in h.fact.text for h in found), question

    old = await recall.search(user_id, "какой у меня был номер раньше?", k=5)
    assert "912" in old[0].fact.text, [h.fact.text for h in old]


async def test_an_attribute_with_no_value_is_not_answered_by_another(
    writer: Writer, recall: Recall, user_id: str
) -> None:
    """Nothing says what car the person drives: the city, employer and phone records do not
    come first as if they answered it; recall answers as it would without the step."""
    ids = await told(writer, user_id, [*_AROUND, "я живу в Самаре"], 10)
    found = await recall.search(user_id, "какая у меня машина?", k=5)
    plain = await recall.search(user_id, "какая у меня машина?", k=5, preset="default")
    assert [h.fact.id for h in found] == [h.fact.id for h in plain]
    stating = {f.id for f in await recall.graph.attribute_facts(user_id)}
    assert stating & set(ids)  # the other attributes are held, just not this one


async def test_a_question_about_one_child_keeps_recalls_record_about_that_child_first(
    writer: Writer, recall: Recall, user_id: str
) -> None:
    # Both records name a child; the newer one is about the other child. Read as asking for a
    # child, the question must not put the newest record naming one above recall's own first.
    await told(writer, user_id, _AROUND, 20)
    [son] = await told(writer, user_id, ["Сыну Мише одиннадцать, он учится в пятом классе."], 12)
    await told(writer, user_id, ["Дочке Вере три года, она ходит в ясли «Солнышко»."], 4)
    found = await recall.search(user_id, "в каком классе учится сын?", k=5)
    assert found[0].fact.id == son, [h.fact.text for h in found]


async def test_a_habit_given_up_and_a_car_sold_answer_the_question_about_now(
    writer: Writer, recall: Recall, user_id: str
) -> None:
    """"я сейчас курю?" after "бросила курить", "какая у меня машина?" after the car was sold:
    the ending the person said is the first answer, not the habit or the car it ended (round
    thirty, h/now30)."""
    await told(writer, user_id, ["Курю, где-то полпачки в день.", "Езжу на Kia Rio, ей уже 8 лет."],
                30)
    await told(writer, user_id, _AROUND, 20)
    [quit_] = await told(writer, user_id, ["Всё, бросила курить, держусь уже неделю."], 5)
    [sold] = await told(writer, user_id, ["Рио продала, теперь езжу на метро."], 3)
    smoking = await recall.search(user_id, "я сейчас курю?", k=5)
    assert smoking[0].fact.id == quit_, [h.fact.text for h in smoking]
    car = await recall.search(user_id, "какая у меня сейчас машина?", k=5)
    assert car[0].fact.id == sold, [h.fact.text for h in car]
