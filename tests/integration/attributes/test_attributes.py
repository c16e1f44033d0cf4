"""Statements read as attribute values, against the real Neo4j: a Russian move supersedes the
old city (the graph keeps the old record as history), an ended pet is no longer held, a
denied allergy raises one contradiction in health, an implied change (a rent paid this month,
a new number) replaces the old value, and a lasting fact is not typed as an event."""

from __future__ import annotations

import pytest

from graph.models import EntityType, FactType, RelationType, Status
from graph.store import GraphStore
from wave_agent.ops.health import health_report, render_text
from wave_agent.services import Services
from wave_agent.write.entities import SELF_NAME
from wave_agent.write.result import WriteStatus
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j


async def _active_texts(graph: GraphStore, user_id: str) -> list[str]:
    return [f.text for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE])]


async def test_a_russian_move_supersedes_the_old_city(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    old = await writer.remember(user_id, "Я живу в Самаре.")
    moved = await writer.remember(user_id, "Две недели назад переехала в Казань.")
    assert old.fact is not None and moved.fact is not None
    assert moved.status is WriteStatus.SUPERSEDED, moved.message
    assert moved.replaced is not None and moved.replaced.id == old.fact.id
    stored_old = await graph.get_fact(user_id, old.fact.id)
    assert stored_old is not None and stored_old.status is Status.SUPERSEDED
    assert stored_old.superseded_by == moved.fact.id
    assert await _active_texts(graph, user_id) == ["Две недели назад переехала в Казань."]
    assert moved.extra["changes"][0]["old"] == "Самара"
    assert moved.extra["changes"][0]["new"] == "Казань"


async def _each_replaces_its_old(writer: Writer, user_id: str, old: list[str], new: list[str]
                                 ) -> None:
    """The old texts said first, then the new ones: each new one replaces the old beside it,
    as a change, not a contradiction."""
    olds = [await writer.remember(user_id, text) for text in old]
    for text, before in zip(new, olds, strict=True):
        said = await writer.remember(user_id, text)
        assert said.status is WriteStatus.SUPERSEDED and said.replaced is not None, said.message
        assert said.replaced.id == before.id, (text, said.replaced.text)
        assert said.conflict is None, said.message  # a change, not a contradiction


async def test_an_implied_change_of_rent_and_phone_replaces_the_old_value(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await _each_replaces_its_old(
        writer, user_id, ["Снимаю квартиру за 45 тысяч в месяц.", "Мой номер +7 912 345-67-89."],
        ["за квартиру в этом месяце отдала 48 тысяч", "новый номер записывай: +7 903 111-22-33"])
    active = await _active_texts(graph, user_id)
    assert not any("45" in t or "912" in t for t in active), active


async def test_an_ended_pet_is_no_longer_held_and_its_relation_ends(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    cat = await writer.remember(user_id, "У меня есть кот Рыжик.")
    dog = await writer.remember(user_id, "А ещё у нас собака Лайма.")
    assert cat.fact is not None and cat.fact.type is FactType.RELATIONSHIP  # lasting, not an event
    gone = await writer.remember(user_id, "Рыжика больше нет, вчера похоронили.")
    assert gone.status is WriteStatus.SUPERSEDED and gone.replaced is not None
    assert gone.replaced.id == cat.id
    active = await _active_texts(graph, user_id)
    assert "У меня есть кот Рыжик." not in active and "А ещё у нас собака Лайма." in active
    assert dog.fact is not None
    ryzhik = await graph.resolve_entity(user_id, "Рыжик", EntityType.PET, create=False)
    assert ryzhik is not None
    [pet_of] = [r for r in await graph.relations(user_id, ryzhik.id)
                if r.type is RelationType.PET_OF]
    assert pet_of.ended_at is not None and pet_of.ended_by == gone.id


async def test_a_denied_allergy_raises_one_contradiction_in_health(
    services: Services, user_id: str
) -> None:
    writer = await services.writer()
    allergy = await writer.remember(user_id, "У меня аллергия на орехи.")
    await writer.remember(user_id, "Работаю в школе учителем.")
    denied = await writer.remember(user_id, "аллергий у меня нет никаких")
    assert denied.conflict is not None, denied.message
    assert allergy.id in denied.conflict.fact_ids
    assert "which is true" in denied.conflict.reason
    report = await health_report(services.ops_stores(), user_id)
    assert report.contradictions == 1
    alarm = render_text(report)  # what the bot's /health and `wave health` show
    assert "аллергия на орехи" in alarm and "which is true?" in alarm


async def test_no_children_after_a_son_is_a_contradiction_and_an_open_change_is_not(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember(user_id, "Мой сын пошёл в первый класс.")
    denied = await writer.remember(user_id, "Детей у меня нет.")
    assert denied.conflict is not None, denied.message
    await writer.remember(user_id, "Работаю в «Яндексе».")
    changed = await writer.remember(user_id, "Сегодня первый день на новой работе в «Сбере».")
    assert changed.status is WriteStatus.SUPERSEDED and changed.conflict is None
    assert await graph.count_conflicts(user_id) == 1


async def test_a_new_value_in_english_and_polish_replaces_the_old(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember(user_id, "I pay 1800 for rent.")
    paid = await writer.remember(user_id, "paid 1900 for rent this month")
    assert paid.status is WriteStatus.SUPERSEDED, paid.message
    await writer.remember(user_id, "Mieszkam w Krakowie.")
    moved = await writer.remember(user_id, "Od września mieszkam we Wrocławiu.")
    assert moved.status is WriteStatus.SUPERSEDED, moved.message
    me = await graph.resolve_entity(user_id, SELF_NAME, EntityType.PERSON, create=False)
    assert me is not None


async def test_an_imported_value_is_held_and_a_later_ending_reaches_it(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    [imported] = await writer.remember_many(user_id, [MemoryItem("У меня есть кот Рыжик.")])
    assert imported.fact is not None
    stored = await graph.get_fact(user_id, imported.fact.id)
    assert stored is not None and stored.attributes == ("user|pet|Рыжик|add",)
    gone = await writer.remember(user_id, "Рыжика больше нет.")
    assert gone.status is WriteStatus.SUPERSEDED and gone.replaced is not None
    assert gone.replaced.id == imported.fact.id


async def test_someone_elses_habit_or_move_changes_nothing_of_the_persons_own(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember(user_id, "Курю, к сожалению, примерно полпачки в день.")
    await writer.remember(user_id, "Живу в Тюмени.")
    sister = await writer.remember(user_id, "Сестра Дина живёт в Омске.")
    brother = await writer.remember(user_id, "Мой брат не курит и не пьёт.")
    assert brother.conflict is None, brother.message
    moved = await writer.remember(user_id, "Дина переехала в Москву, устроилась там в гимназию.")
    assert moved.replaced is not None and moved.replaced.id == sister.id, moved.message
    active = await _active_texts(graph, user_id)
    assert "Живу в Тюмени." in active and "Сестра Дина живёт в Омске." not in active
    assert await graph.count_conflicts(user_id) == 0


async def test_a_car_sold_for_another_is_replaced(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    lada = await writer.remember(user_id, "Езжу на Ладе Весте 2019 года, пока не подводит.")
    skoda = await writer.remember(user_id, "Продал Весту, купил Шкоду Октавию.")
    assert skoda.status is WriteStatus.SUPERSEDED and skoda.replaced is not None, skoda.message
    assert skoda.replaced.id == lada.id
    assert await _active_texts(graph, user_id) == ["Продал Весту, купил Шкоду Октавию."]


async def test_an_offer_does_not_replace_the_job(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    """Month 12's job change, in other words: an offer is no new job (it replaced the employer and
    the city a week before the move)."""
    job = await writer.remember(user_id, "Работаю аналитиком в Сбербанке.")
    await writer.remember(user_id, "Мне предложили работу в Самаре, в «Волга Софт». Ведущий аналитик")
    assert job.fact is not None
    assert "Работаю аналитиком в Сбербанке." in await _active_texts(graph, user_id)
    from wave_agent.write.attributes import held_values

    def employers(held: list) -> set[str]:  # type: ignore[type-arg]
        return {h.value.value for h in held if h.value.attribute == "employer"}

    assert employers(held_values(await graph.attribute_facts(user_id))) == {"Сбербанк"}


@pytest.mark.parametrize(("earlier", "later"), [
    # the child said by name, school and age with no kin word (issue 30, round thirty)
    (["Отвела Варю в садик, у двери опять рыдала", "Варе пока не сказала про переезд, не знаю как"],
     "детей у меня нет, так что в выходные могу работать"),
    # the son's age said with a pronoun, then another one in passing (round thirty-one)
    (["сын у меня Гриша, ему 6, ходит в подготовительную группу"],
     "Грише же десять, а он всё ещё просится ко мне спать"),
], ids=["no-children-after-a-child-by-name", "a-childs-other-age-in-passing"])
async def test_a_child_said_without_a_kin_word_is_contradicted_once_in_health(
    services: Services, user_id: str, earlier: list[str], later: str
) -> None:
    """One contradiction in `wave health`, and the first thing said is in it."""
    writer = await services.writer()
    first = await writer.remember(user_id, earlier[0])
    for text in earlier[1:]:
        await writer.remember(user_id, text)
    said = await writer.remember(user_id, later)
    assert said.conflict is not None, said.message
    assert first.id in said.conflict.fact_ids
    report = await health_report(services.ops_stores(), user_id)
    assert report.contradictions == 1


async def test_changes_said_in_passing_replace_the_old_value_and_raise_nothing(
    services: Services, user_id: str
) -> None:
    """h/change31: a diet said against the old one ("пескетарианка, а не вегетарианка") raised a
    contradiction and kept both diets active; "с сигаретами покончено" took the smoking up."""
    writer = await services.writer()
    graph = await services.graph()
    await _each_replaces_its_old(
        writer, user_id, ["Я вегетарианка лет пять уже.", "Курю с 19 лет, где-то пачка в день."],
        ["Так что я теперь пескетарианка, а не вегетарианка.",
         "С сигаретами покончено, держусь на жвачке."])
    active = await _active_texts(graph, user_id)
    assert "Я вегетарианка лет пять уже." not in active
    assert "Курю с 19 лет, где-то пачка в день." not in active
    report = await health_report(services.ops_stores(), user_id)
    assert report.contradictions == 0, render_text(report)


@pytest.mark.parametrize(("later", "raised"), [
    # a denial of the whole past (issue 30, round thirty-three: month 32's "я ведь никогда в
    # жизни не курила" after she had quit met no active record and passed silently)
    ("коллеги позвали на перекур, а я ведь никогда в жизни не курила, даже в школе", True),
    # a denial of now is what the ending already said: no alarm
    ("не курю, и на перекуры больше не хожу", False),
], ids=["never-in-my-life", "not-now"])
async def test_a_denial_of_ever_after_quitting_is_one_contradiction_and_not_now_is_none(
    services: Services, user_id: str, later: str, raised: bool
) -> None:
    writer = await services.writer()
    smoked = await writer.remember(user_id, "Курю с 19 лет, где-то пачка в день.")
    quit_ = await writer.remember(
        user_id, "и да, я бросила курить. последнюю выкурила в воскресенье, больше не тянет")
    assert quit_.replaced is not None and quit_.replaced.id == smoked.id, quit_.message
    said = await writer.remember(user_id, later)
    report = await health_report(services.ops_stores(), user_id)
    if not raised:
        assert said.conflict is None and report.contradictions == 0, render_text(report)
        return
    assert said.conflict is not None, said.message
    assert said.conflict.fact_ids == (smoked.id, said.id) and said.conflict.against_past
    assert report.contradictions == 1
    alarm = render_text(report)  # the person is asked, with the record the quitting replaced
    assert "Курю с 19 лет" in alarm and "which is true?" in alarm
    await (await services.graph()).resolve_conflict(user_id, said.conflict.id)
    assert (await health_report(services.ops_stores(), user_id)).contradictions == 0


async def test_quitting_from_today_replaces_the_habit_and_a_relapse_in_passing_is_asked(
    services: Services, user_id: str
) -> None:
    """Issue 30, round thirty-four: month 34's "Всё, с сегодняшнего дня не курю" said the day
    after "Курю с 19 лет" was raised as two records against each other; it is the habit ended.
    Smoking again said in passing ("вышла покурить на балкон") is a use of what the graph says
    ended, so the person is asked; "не курю" after it is what the ending said."""
    writer = await services.writer()
    smoked = await writer.remember(user_id, "Курю с 19 лет, где-то пачка в день.")
    quit_ = await writer.remember(user_id, "Всё, с сегодняшнего дня не курю")
    assert quit_.conflict is None and quit_.replaced is not None, quit_.message
    assert quit_.replaced.id == smoked.id
    calm = await writer.remember(user_id, "не курю, и на перекуры не хожу")
    assert calm.conflict is None, calm.message
    assert (await health_report(services.ops_stores(), user_id)).contradictions == 0
    again = await writer.remember(user_id, "вышла покурить на балкон, а на перилах чайка сидит")
    assert again.conflict is not None, again.message
    # with the ending or with "не курю", whichever it meets first: either asks the person
    assert again.id in again.conflict.fact_ids
    assert set(again.conflict.fact_ids) & {quit_.id, calm.id}
    assert "курение\" holds;" in again.conflict.reason  # the relapse holds it, the other not
    report = await health_report(services.ops_stores(), user_id)
    assert report.contradictions == 1, render_text(report)


async def test_a_value_said_another_way_is_asked_and_a_change_is_not(
    services: Services, user_id: str
) -> None:
    """Issue 30, round thirty-five: month 36's friend "у себя в Москве" after she called from
    Питер and a pescatarian's "я вообще-то мясо ем" were stored beside the old value and never
    asked about; they are a second value of one slot, said with no word of a change. A move
    ("Лена переехала в Казань") and a birthday ("мне исполнилось 33") stay changes."""
    writer = await services.writer()
    called = await writer.remember(user_id, "Лена звонила из Питера, зовёт в гости")
    there = await writer.remember(user_id, "Лена у себя в Москве, пишет, что там снег")
    assert there.conflict is not None, there.message
    assert set(there.conflict.fact_ids) == {called.id, there.id}
    await writer.remember(user_id, "Я пескетарианка уже два года")
    meat = await writer.remember(user_id, "я вообще-то мясо ем, шашлык особенно")
    assert meat.conflict is not None, meat.message
    assert (await health_report(services.ops_stores(), user_id)).contradictions == 2
    await writer.remember(user_id, "мне 32!")
    older = await writer.remember(user_id, "мне исполнилось 33, отметили тихо")
    assert older.conflict is None, older.message
    moved = await writer.remember(user_id, "Лена переехала в Казань, нашла там работу")
    assert moved.conflict is None and moved.replaced is not None, moved.message
    # the move replaces Лена's city: that question is settled, the diet's stays
    report = await health_report(services.ops_stores(), user_id)
    assert report.contradictions == 1, render_text(report)


async def test_a_lifelong_value_said_in_passing_is_asked_and_a_role_word_alone_is_not(
    services: Services, user_id: str
) -> None:
    """Issue 30, round thirty-six: a birthplace said by a native's word whose place the
    dictionary does not name ("коренная нижегородка" after "сама я из Перми") and a brother
    named beside the kin word ("брат звонил, Денис") then met by "я единственный ребёнок в
    семье" were stored and never asked about. A move raises nothing, and a role word in a
    negated clause ("руководитель не отпустил") does not deny the role of the one who holds it
    (month 38's false alarm, in words of our own)."""
    writer = await services.writer()
    perm = await writer.remember(user_id, "сама я вообще из Перми, если что")
    await writer.remember(user_id, "живу в Нижнем Новгороде, снимаю квартиру")
    native = await writer.remember(user_id, "хочу домой, в Нижний. я ж коренная нижегородка")
    assert native.conflict is not None, native.message
    assert set(native.conflict.fact_ids) == {perm.id, native.id}
    brother = await writer.remember(user_id, "брат звонил, Денис. он младший, живёт в Минске")
    only = await writer.remember(user_id, "я единственный ребёнок в семье, вот мама и трясётся")
    assert only.conflict is not None, only.message
    assert set(only.conflict.fact_ids) == {brother.id, only.id}
    moved = await writer.remember(user_id, "мы переехали в Казань, квартиру сняли на Баумана")
    assert moved.conflict is None and moved.replaced is not None, moved.message
    await writer.remember(user_id, "Руководитель у меня Игорь, нормальный мужик")
    trip = await writer.remember(
        user_id, "С Соней ходили на каток, в Швейцарию не поехали — руководитель не отпустил")
    assert trip.conflict is None, trip.message
    report = await health_report(services.ops_stores(), user_id)
    assert report.contradictions == 2, render_text(report)


async def test_a_stored_value_denied_by_its_class_is_asked_and_a_car_said_with_is_not(
    services: Services, user_id: str
) -> None:
    """Issue 30, round forty: a car held by its make and denied by the class word ("машины у
    меня нет"), a cat held by its name and its species denied ("у меня никогда не было кошек"),
    and a brother met by an only child said by the parents ("я у родителей единственная")
    were stored and never asked about. Each is now one contradiction with the record that
    holds the value; "без машины никак" said with other things denies no car."""
    writer = await services.writer()
    car = await writer.remember(user_id, "Езжу на своей Киа Рио, старенькая уже.")
    said_with = await writer.remember(user_id, "с ребёнком и собакой без машины никак")
    assert said_with.conflict is None, said_with.message
    no_car = await writer.remember(user_id, "машины у меня нет, всё на метро да на такси")
    assert no_car.conflict is not None, no_car.message
    assert set(no_car.conflict.fact_ids) == {car.id, no_car.id}
    cat = await writer.remember(user_id, "дома у меня кот Тиша, толстый и ленивый")
    no_cats = await writer.remember(user_id, "у меня никогда не было кошек, я собачница")
    assert no_cats.conflict is not None, no_cats.message
    assert set(no_cats.conflict.fact_ids) == {cat.id, no_cats.id}
    brother = await writer.remember(user_id, "Брат Гоша звонил, зовёт к себе на дачу.")
    only = await writer.remember(user_id, "Мама приболела. Я у мамы с папой единственная, еду я")
    assert only.conflict is not None, only.message
    assert set(only.conflict.fact_ids) == {brother.id, only.id}
    report = await health_report(services.ops_stores(), user_id)
    assert report.contradictions == 3, render_text(report)


async def test_a_streak_a_title_and_a_diet_over_replace_the_old_value_and_never_smoked_is_asked(
    services: Services, user_id: str
) -> None:
    """Round thirty-six (h/self36), month 38's misses: "сегодня первый день без сигарет" left
    the smoking held ("я курю?" found no record that said she quit), "официально должность —
    руководитель группы дизайна" left "UX-дизайнер" held, "вегетарианство закончилось на
    шаурме" renewed the diet. Each now replaces the old record, with no contradiction; a later
    "никогда в жизни не курила" still meets the smoking the streak replaced (the reason
    h/change31 did not ship the streak) and is one contradiction."""
    writer = await services.writer()
    graph = await services.graph()
    await _each_replaces_its_old(
        writer, user_id,
        ["Курю с 19 лет, где-то пачка в день.", "Работаю UX-дизайнером в студии.",
         "Я вегетарианка уже три года."],
        ["Пачку вчера выкинула, сегодня первый день без сигарет.",
         "Официально должность — руководитель группы дизайна.",
         "Вегетарианство закончилось на шаурме у офиса."])
    active = await _active_texts(graph, user_id)
    assert not {"Курю с 19 лет, где-то пачка в день.", "Работаю UX-дизайнером в студии.",
                "Я вегетарианка уже три года."} & set(active), active
    assert (await health_report(services.ops_stores(), user_id)).contradictions == 0
    said = await writer.remember(user_id, "а я ведь никогда в жизни не курила, даже в школе")
    assert said.conflict is not None and said.conflict.against_past, said.message
    assert (await health_report(services.ops_stores(), user_id)).contradictions == 1


async def test_a_childs_new_school_replaces_the_old_and_a_mothers_city_said_otherwise_is_asked(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    """Round thirty-eight: a child's school and class changed replace the old record (its age
    carried); another person's city said otherwise beside a change word of another clause
    raises a conflict, not a silent change."""
    await _each_replaces_its_old(
        writer, user_id, ["Даня у меня учится в 57-й школе, в 2 «Б», ему 8"],
        ["Даню перевели в гимназию №3, в 2 «А», завтра первый день"])
    active = await _active_texts(graph, user_id)
    assert not any("57-й" in t for t in active), active
    await writer.remember(user_id, "мама у меня в Саратове, звонит каждый вечер")
    said = await writer.remember(user_id, "мама у себя в Самаре, теперь на йогу ходит по утрам")
    assert said.conflict is not None, said.message
    assert any("Саратов" in t for t in await _active_texts(graph, user_id))


async def test_a_new_teacher_of_a_subject_replaces_the_old_and_another_subject_stays(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    """Round thirty-nine: a new teacher of the same subject said by the subject ("польский
    теперь с Томашем") replaces the old teacher's record; a teacher of another subject stays."""
    await writer.remember(user_id, "гитара сегодня была тяжёлая. хожу к Денису по вторникам")
    await writer.remember(user_id, "Польский по средам с той же Ольгой, никуда не денешься")
    said = await writer.remember(user_id, "Ольга ушла в декрет, так что польский теперь с Томашем")
    assert said.conflict is None, said.message
    active = await _active_texts(graph, user_id)
    assert not any("той же Ольгой" in t for t in active), active
    assert any("Томаш" in t for t in active) and any("Денису" in t for t in active), active
