"""Three misreadings a month showed (issue 30, round thirty): an age one up said with a
congratulation on the person's own birthday moves on and is not a contradiction; a birthday
said with its date before the word is the person's birthday; a denial of children in a later
clause is read there, not in an earlier clause with an adjective of the same stem; and a school
someone else is moved to, with a "first day", is not the person's employer. The sentences are
this test's own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world.attributes import Value, read_values
from wave_agent.world.reader import read
from wave_agent.write.attributes import decide, held_values, says_birthday

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def fact(fid: str, *values: str) -> Fact:
    return Fact(id=fid, user_id="u", text=fid, type=FactType.IDENTITY, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=NOW, last_confirmed_at=NOW, attributes=values)


def values(text: str, held: list[Value] | None = None) -> set[tuple[str, str, str, str]]:
    return {(v.entity, v.attribute, v.value, v.op) for v in read_values(text, read(text), held or [])}


def test_an_age_one_up_with_a_congratulation_on_ones_own_birthday_is_the_age_moved_on() -> None:
    age = fact("f1", "user|age|41|set")
    said = "вот и мне 42, с днём рождения меня, любимую"
    assert says_birthday(said) and says_birthday("поздравьте с днем рождения!")
    assert says_birthday("готовлюсь ко дню рождения")
    moved = decide([Value("user", "age", "42", "set")], held_values([age]), "new",
                   at=NOW + timedelta(days=12), birthday=says_birthday(said))
    assert moved.replaces == [age] and not moved.contradicts
    # an age that does not fit stays a contradiction, birthday or not
    odd = "в мои 39 уже поздно начинать, с днём рождения меня"
    assert decide([Value("user", "age", "39", "set")], held_values([age]), "new",
                  at=NOW + timedelta(days=12), birthday=says_birthday(odd)).contradicts
    assert not says_birthday("в мои 39 уже поздно начинать")


def test_a_birthday_said_with_its_date_before_the_word_is_the_persons() -> None:
    assert ("user", "birthday", "3 марта", "set") in values(
        "у меня 3 марта день рождения, хочу собрать друзей")
    assert not any(v[1] == "birthday" for v in values(
        "у сестры 3 марта день рождения, надо подарок"))


def test_no_children_said_after_a_clause_with_a_childrens_thing_is_a_denial() -> None:
    held = [Value("user", "child", "Матвей", "add")]
    assert ("user", "child", "*", "negate") in values(
        "коллега позвал на детский утренник, а у меня детей нет, зачем мне туда", held)
    # someone else's lack of children is not the person's
    assert not any(v[1] == "child" and v[3] == "negate" for v in values(
        "на детский праздник позвали Олю, у неё детей нет", held))


def test_a_school_someone_else_is_moved_to_is_not_the_persons_employer() -> None:
    said = values("Соню перевели в школу №12, завтра первый день. переживаю")
    assert not any(v[1] == "employer" for v in said)
    assert ("user", "employer", "Сбер", "set") in values("Сегодня первый день на новой работе в «Сбере»")
