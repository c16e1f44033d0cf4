"""A value of one slot said another way (issue 30, round thirty-five; month 36's misses, by the
lead's reading): another person's city said by where they are ("Лена у себя в Москве" after
"звонила из Питера"), the person's own age said in passing ("в мои 29" after "мне 32!"), a
child's age as an adjective ("девятилетний" after seven), a meatless diet broken by eating meat
("я вообще-то мясо ем" after "я пескетарианка"). Each is a second value of a held slot and,
said with no word of a change, a contradiction to ask about; said as a change it is none.
Sentences of our own; places are given as the world reader's mentions."""

from __future__ import annotations

import pytest

from graph.models import EntityType
from tests.unit.world.test_attribute_decisions import NOW, fact
from wave_agent.world.attributes import Value, read_values
from wave_agent.world.reading import Mention, Reading
from wave_agent.write.attributes import (
    decide,
    held_values,
    marks_change,
    says_birthday,
    tells_news,
)


def values(text: str, held: tuple[Value, ...] = (), places: tuple[str, ...] = ()) -> set[str]:
    reading = Reading(mentions=tuple(Mention(p, EntityType.PLACE) for p in places),
                      links=(), language="ru")
    return {v.encode() for v in read_values(text, reading, held)}


def raised(held_raw: list[str], text: str, places: tuple[str, ...] = ()) -> list[str]:
    held_facts = [fact(f"f{i}", raw) for i, raw in enumerate(held_raw)]
    held = held_values(held_facts)
    reading = Reading(mentions=tuple(Mention(p, EntityType.PLACE) for p in places),
                      links=(), language="ru")
    new = read_values(text, reading, [h.value for h in held])
    decision = decide(new, held, "new", held_values(held_facts, ops=("negate",)),
                      changed=marks_change(text), news=tells_news(text), at=NOW,
                      birthday=says_birthday(text))
    return [f.id for f, _ in decision.contradicts]


@pytest.mark.parametrize(("text", "place", "expected"), [
    ("Лена у себя в Москве, пишет, что холодно", "Москва", "Лена|city|Москва|set"),
    ("Денис звонил, у них в Екатеринбурге минус двадцать пять", "Екатеринбург",
     "Денис|city|Екатеринбург|set"),
    ("Мама из Саратова звонила, говорит, сугробы по пояс", "Саратов",
     "role:mother|city|Саратов|set"),
    ("мама у меня всю жизнь в Твери прожила", "Тверь", "role:mother|city|Тверь|set"),
])
def test_another_persons_city_said_by_where_they_are_is_read(text: str, place: str,
                                                            expected: str) -> None:
    assert expected in values(text, places=(place,))


@pytest.mark.parametrize("text", [
    "у нас в Калининграде опять дождь",         # the speaker's own
    "я у себя в Казани, никуда не еду",
    "Олег приехал из Омска на неделю",          # a visit, no call
])
def test_the_speaker_or_a_visit_gives_no_one_a_city(text: str) -> None:
    assert not {v for v in values(text, places=("Калининград", "Казань", "Омск"))
                if "|city|" in v and not v.startswith("user|")}


def test_a_friends_city_said_another_way_is_asked_about_and_a_move_is_not() -> None:
    assert raised(["Лена|city|Питер|set"], "Лена у себя в Москве, пишет, что холодно",
                  ("Москва",)) == ["f0"]
    assert raised(["Лена|city|Питер|set"], "Лена переехала в Москву", ("Москва",)) == []


def test_the_persons_age_said_in_passing_is_an_age_even_beside_a_negation() -> None:
    assert "user|age|29|set" in values("ну а что, в мои 29 можно и не такое")
    assert "user|age|29|set" in values("в мои-то 29 лет уже спина болит")
    assert "user|age|29|set" in values("в мои двадцать девять можно и не такое")
    assert raised(["user|age|32|set"], "ну а что, в мои 29 можно и не такое") == ["f0"]
    assert raised(["user|age|32|set"], "мне исполнилось 33") == []


@pytest.mark.parametrize(("text", "expected"), [
    ("у меня девятилетний сын, ему скучно на каникулах", "role:son|age|9|set"),
    ("отвела 9-летнюю Соню на танцы", "Соня|age|9|set"),
])
def test_an_age_said_as_an_adjective_is_read(text: str, expected: str) -> None:
    assert expected in values(text)


def test_an_age_as_an_adjective_is_the_held_childs_and_a_jump_is_asked_about() -> None:
    held = ("user|child|Миша|add", "Миша|age|7|set")
    assert "Миша|age|9|set" in values("мой девятилетний сын опять разбил чашку",
                                      tuple(Value.decode(h) for h in held))  # type: ignore[misc]
    assert raised(["role:son|age|7|set"], "у меня девятилетний сын, ему скучно") == ["f0"]
    assert raised(["role:son|age|7|set"], "девятилетний ребёнок опять разбил чашку") == ["f0"]
    assert "летн" not in "".join(values("летний лагерь был отличный"))  # summer, no age
    # a likeness is no age ("визжал как трёхлетка"), nor a new animal's age a held child's
    assert not {v for v in values("Миша визжал как трёхлетка",
                                  (Value("user", "child", "Миша", "add"),)) if "|age|" in v}
    assert not {v for v in values("взяли двухлетнего метиса, назвали Бублик, Миша придумал",
                                  (Value("user", "child", "Миша", "add"),)) if "Миша|age" in v}


def test_eating_meat_after_a_meatless_diet_is_asked_about_and_a_change_is_not() -> None:
    held = ["user|diet|пескетарианство|set"]
    assert raised(held, "я вообще-то мясо ем, ты что") == ["f0"]
    assert raised(held, "взяла на обед шаурму с курицей, я ж всеядная") == ["f0"]
    assert raised(held, "теперь я ем мясо, врач сказал") == []
    assert raised(held, "Артём жарит стейки, а я как обычно с овощами") == []
    assert raised(held, "мясо не ем уже три года") == []
