"""What the learned head adds where the hand rules read nothing (issue 30, round twenty-five).

A move said with no verb the rules know ("first night in the new place", "landed, we're in
X"): when the learned head is sure the statement sets the person's city, the place the reading
names becomes the city; never a street, where one came from, or someone else's place (issue 30,
round twenty-five). A partner said as "X теперь официально мой парень": the one person named,
never a child or pet the person holds nor someone else's relative."""

from __future__ import annotations

from wave_agent.world import read, statement_attributes
from wave_agent.world.attributes import Value, as_said, read_values, with_learned

SURE = {"city": 0.99}
UNSURE = {"city": 0.2}


def cities(text: str, sure: dict[str, float]) -> set[tuple[str, str, str]]:
    reading = read(as_said(text))
    found = with_learned(text, reading, read_values(text, reading, ()), sure,
                         statement_attributes.TAKES)
    return {(v.entity, v.value, v.op) for v in found if v.attribute == "city"}


def test_a_first_night_in_a_new_city_is_where_the_person_lives_now() -> None:
    assert cities("Вот и первая ночь в Вологде, коробки так и не разобраны", SURE) == {
        ("user", "Вологда", "set")}
    assert cities("приземлились, мы во Владивостоке! дождь стеной", SURE) == {
        ("user", "Владивосток", "set")}


def test_an_unsure_head_adds_nothing_to_what_the_rules_read() -> None:
    assert cities("Вот и первая ночь в Вологде, коробки так и не разобраны", UNSURE) == set()


def test_a_street_or_another_persons_city_is_not_taken() -> None:
    assert ("user", "Вологда", "set") not in cities(
        "Сестра звонила из Вологды, у них там метель", SURE)
    assert cities("Обедали на Малой Садовой, потом гуляли", SURE) == set()
    assert ("user", "Тверь", "set") not in cities("Брат на днях перебрался в Тверь", SURE)


def test_a_city_the_rules_read_stands_as_read() -> None:
    text = "Переехала в Вологду, первая ночь на новом месте"
    reading = read(as_said(text))
    rules = read_values(text, reading, ())
    assert with_learned(text, reading, rules, SURE, statement_attributes.TAKES) == rules
    assert any(v == Value("user", "city", "Вологда", "set") for v in rules)


def partners(text: str, sure: dict[str, float], held: list[Value] | None = None) -> set[str]:
    reading = read(as_said(text))
    found = with_learned(text, reading, read_values(text, reading, held or []), sure,
                         statement_attributes.TAKES, held or [])
    return {v.value for v in found if v.entity == "user" and v.attribute == "partner"}


def test_a_new_partner_said_without_a_verb_the_rules_know_is_the_partner() -> None:
    assert partners("Вадим теперь официально мой парень, вот так", {"partner": 0.99}) == {"Вадим"}
    assert partners("Вадим теперь официально мой парень, вот так", {"partner": 0.1}) == set()


def test_a_child_the_person_holds_is_never_taken_for_a_partner() -> None:
    son = Value("user", "child", "Гоша", "add")
    assert partners("Гоша сегодня весь вечер со мной, мы теперь неразлучны",
                    {"partner": 0.99}, [son]) == set()
