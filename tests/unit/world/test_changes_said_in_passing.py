"""Changes said in passing, as the months' authors say them (issue 30, round thirty-one,
h/change31): a diet said against the old one, a habit said to be over, a partner said to be
one "теперь". Each is read as a change that replaces the held value, not as nothing
and not as a denial that asks the person which is true."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world import read
from wave_agent.world.attributes import Value, as_said, read_values
from wave_agent.write.attributes import decide, held_values

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def values(text: str, held: list[Value] | None = None) -> set[tuple[str, str, str, str]]:
    return {(v.entity, v.attribute, v.value, v.op)
            for v in read_values(text, read(as_said(text)), held or [])}


def fact(fid: str, *said: str) -> Fact:
    return Fact(id=fid, user_id="u", text=fid, type=FactType.IDENTITY, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=NOW, last_confirmed_at=NOW, attributes=said)


VEGETARIAN = [Value("user", "diet", "вегетарианство", "set")]


def test_a_diet_said_against_the_old_one_replaces_it_and_raises_nothing() -> None:
    """tuning_31: "я теперь пескетарианка, а не вегетарианка" read the old diet as denied, a
    contradiction that kept both records active."""
    text = "в общем, я теперь ем рыбу. так что я теперь пескетарианка, а не вегетарианка"
    read_now = values(text, VEGETARIAN)
    assert read_now == {("user", "diet", "пескетарианство", "set")}
    old = fact("f1", "user|diet|вегетарианство|set")
    decision = decide([Value(*v) for v in read_now], held_values([old]), "new")
    assert decision.replaces == [old] and not decision.contradicts


def test_of_two_diets_named_the_one_said_as_held_now_is_the_diet() -> None:
    """tuning_4 and tuning_18: the first diet word named was taken, the old one."""
    assert values("терапевт говорит, с моим гемоглобином вегетарианство — плохая идея. так что "
                  "теперь я пескетарианка, привыкай", VEGETARIAN) == {
        ("user", "diet", "пескетарианство", "set")}
    assert ("user", "diet", "вегетарианство", "set") in values(
        "кето закончилось, теперь я вегетарианка", [Value("user", "diet", "кето", "set")])
    # one diet said is read as before
    assert values("я вегетарианка лет пять уже") == {("user", "diet", "вегетарианство", "set")}


def test_a_new_city_said_against_the_old_one_is_a_change() -> None:
    held = [Value("user", "city", "Нижний Новгород", "set")]
    assert values("я живу в Казани, а не в Нижнем Новгороде", held) == {
        ("user", "city", "Казань", "set")}


def test_a_habit_said_to_be_over_ends_it() -> None:
    """"с сигаретами покончено" was read as taking the habit up ("покончить" was no ending)."""
    smoking = [Value("user", "habit", "курение", "add")]
    assert values("с сигаретами покончено", smoking) == {("user", "habit", "курение", "remove")}
    old = fact("f1", "user|habit|курение|add")
    decision = decide([Value("user", "habit", "курение", "remove")], held_values([old]), "new")
    assert decision.replaces == [old] and not decision.contradicts



def test_a_held_habit_counted_in_days_without_it_is_given_up() -> None:
    """Six tuning months' authors and month 38's label "третий день без сигарет" the end of
    the smoking (round thirty-six, h/self36); it was read as nothing, so "я курю?" kept the
    old answer. With no habit held it stays no value, and never a denial that asks which is
    true."""
    smoking = [Value("user", "habit", "курение", "add")]
    for text in ("третий день без сигарет. держусь на жвачке и злости",
                 "Пятый день без сигарет. Кажется, я правда бросила", "пятый день не курю",
                 "Пачку вчера выкинула, сегодня первый день без сигарет"):
        assert values(text, smoking) == {("user", "habit", "курение", "remove")}, text
    assert values("третий день без сигарет. держусь") == set()


def test_a_partner_said_to_be_one_now() -> None:
    """Eleven partners of nine months' authors were said so and not read."""
    for text, name in (("Артём теперь официально мой парень 😊 да, быстро.", "Артём"),
                       ("Тимур теперь мой парень. официально 🙈", "Тимур"),
                       ("мы с Маратом теперь официально вместе. он сказал это вслух", "Марат"),
                       ("Tomek jest oficjalnie moim chłopakiem 🙈 od wczoraj", "Tomek")):
        assert ("user", "partner", name, "set") in values(text), text
    # together for a walk is no couple
    assert not any(v[1] == "partner" for v in values("мы с Олей теперь вместе ходим в зал"))
    assert not any(v[1] == "partner" for v in values("Денис теперь мой начальник"))


def test_a_role_said_as_written_down_is_the_persons_whole_title() -> None:
    """Three tuning months' authors and month 38's say a new role as written down, after a
    dash ("в трудовой — «руководитель группы аналитики»", "официально должность —
    руководитель группы дизайна"): read as another word said in passing ("главный"), cut
    short, or not at all, so the old role stayed (round thirty-six, h/self36)."""
    held = [Value("user", "role", "UX-дизайнер", "set")]
    said = values("в команде пять дизайнеров, и я ими руковожу. официально должность — "
                  "руководитель группы дизайна", held)
    assert ("user", "role", "руководитель группы дизайна", "set") in said
    assert not {v for v in said if v[1] == "role" and v[2] != "руководитель группы дизайна"}
    assert ("user", "role", "руководитель группы аналитики", "set") in values(
        "у меня в группе пять человек, и я над ними главная — руководитель группы аналитики")
    assert ("user", "role", "руководитель группы аналитиков", "set") in values(
        "новости: меня повысили! теперь я руковожу группой аналитиков")
    # someone else's title, a dash that names no job, and a denial set no role of the person's
    for text in ("у мужа новая должность — ведущий инженер", "я сегодня — к врачу, потом домой",
                 "я не руковожу никем", "его должность — ведущий инженер"):
        assert not any(v[0] == "user" and v[1] == "role" for v in values(text)), text


def test_a_diet_said_to_have_ended_ends_it() -> None:
    """"вегетарианство закончилось на шаурме у офиса" (month 38) and "вегетарианству конец"
    (tuning_21) were read as the diet set again, so its record was renewed, not ended."""
    held = [Value("user", "diet", "вегетарианство", "set")]
    for text in ("вегетарианство закончилось на шаурме у офиса, всё, снова ем всё",
                 "вчера на др съела стейк — и всё, вегетарианству конец. мясо снова ем"):
        assert ("user", "diet", "вегетарианство", "remove") in values(text, held), text
        assert ("user", "diet", "вегетарианство", "set") not in values(text, held), text
    assert ("user", "diet", "вегетарианство", "set") in values(
        "моё вегетарианство продолжается", held)
    assert not values("занятие по йоге закончилось поздно", [Value("user", "hobby", "йога", "add")])


def test_a_pastime_dropped_with_a_parenthetical_between_is_ended_not_taken_up_again() -> None:
    """"йогу я, похоже, забросила" (tuning_21, and month 40's miss): the clause was cut at both
    commas, so "йогу я" was read as the pastime held and "забросила" ended nothing; the old
    record stayed active (round thirty-eight, h/self38). A parenthetical by pymorphy3's
    reading joins the clause it sits in."""
    swimming = [Value("user", "hobby", "бассейн", "add")]
    assert values("бассейн я, кажется, забросила. времени нет совсем", swimming) == {
        ("user", "hobby", "бассейн", "remove")}
    yoga = [Value("user", "hobby", "йога", "add")]
    assert values("йогу, наверное, бросила. не тянет", yoga) == {("user", "hobby", "йога", "remove")}
    old = fact("f1", "user|hobby|йога|add")
    decision = decide([Value("user", "hobby", "йога", "remove")], held_values([old]), "new")
    assert decision.replaces == [old] and not decision.contradicts
    # a three-letter pastime said to be over: "всё" after it, the parenthetical between
    running = [Value("user", "hobby", "бег", "add")]
    assert values("бег, похоже, всё. колени не держат", running) == {
        ("user", "hobby", "бег", "remove")}
    # what is not an ending: a parenthetical beside a pastime still held, "всё" not closing
    assert values("по субботам, кстати, бассейн", swimming) != {("user", "hobby", "бассейн", "remove")}
    assert ("user", "hobby", "бег", "remove") not in values("бег, похоже, всё время откладываю",
                                                            running)
    tim = [Value("user", "partner", "Тимур", "set")]
    assert not any(v[3] == "remove" for v in values("с Тимуром, кажется, всё серьёзно", tim))


def test_the_first_night_in_a_town_is_where_the_person_now_lives() -> None:
    """"первая ночь в Калининграде. коробки везде" (four tuning months labelled it the city set,
    and month 40's "first night in Kazan") was read as no city, so the old city stayed current
    (round thirty-eight, h/self38)."""
    kazan = [Value("user", "city", "Казань", "set")]
    assert values("Первая ночь в Самаре. коробки до потолка, спим на полу", kazan) == {
        ("user", "city", "Самара", "set")}
    assert values("первое утро в Томске. снимаю однушку на Ленина", kazan) == {
        ("user", "city", "Томск", "set")}
    assert values("First night in Leeds. Boxes everywhere", kazan) == {
        ("user", "city", "Leeds", "set")}
    old = fact("f1", "user|city|Казань|set")
    decision = decide([Value("user", "city", "Самара", "set")], held_values([old]), "new")
    assert decision.replaces == [old] and not decision.contradicts
    # a trip's first night, someone else's, or a night not slept are no move
    for text in ("первая ночь в Стамбуле, отель шикарный", "первая ночь в Сочи в отпуске",
                 "у Лёвы первая ночь в Москве у бабушки",
                 "Первая ночь в Самаре не спала совсем"):
        assert not any(v[1] == "city" and v[3] == "set" for v in values(text, kazan)), text


def test_a_rent_said_in_thousands_with_no_word_for_them_is_the_new_rent() -> None:
    """"хозяйка подняла аренду: с этого месяца 35 вместо 32", "за квартиру тут 38 отдаю": five
    tuning months' authors and month 40 say the rent paid to the landlord in thousands with no
    word for them; read as no price, the old rent stayed current (round thirty-eight)."""
    rent = [Value("user", "price:rent", "30000", "set")]
    for text, said in (("перевела хозяйке 33 за ноябрь, свет отдельно", "33000"),
                       ("с этого месяца за квартиру 36. хозяйка, конечно, молодец", "36000"),
                       ("хозяйка попросила уже 41, говорит, всё дорожает", "41000")):
        assert values(text, rent) == {("user", "price:rent", said, "set")}, text
    old = fact("f1", "user|price:rent|30000|set")
    decision = decide([Value("user", "price:rent", "33000", "set")], held_values([old]), "new")
    assert decision.replaces == [old] and not decision.contradicts
    # a number that is no amount: a floor, minutes, an age, a date, degrees
    for text in ("квартира на 9 этаже, хозяйка милая, до работы 15 минут",
                 "мне 34, квартиру снимаю, теперь с подругой",
                 "с 15 числа хозяйка поднимает аренду", "в квартире 25 градусов, хозяйка молчит"):
        assert not any(v[1] == "price:rent" for v in values(text, rent)), text
