"""What a new record's attribute values do to the held ones (``write.attributes.decide``,
pure): a new single value replaces, an ending replaces what it ends, a denial of a held value
or a denied value taken up again is a contradiction, and an age moves on only by a birthday."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world.attributes import Value
from wave_agent.write.attributes import decide, held_values

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def fact(fid: str, *values: str) -> Fact:
    return Fact(id=fid, user_id="u", text=fid, type=FactType.IDENTITY, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=NOW, last_confirmed_at=NOW, attributes=values)


def test_a_new_city_replaces_and_the_record_s_other_values_are_carried() -> None:
    old = fact("f1", "user|city|Самара|set", "user|role|бухгалтер|set")
    decision = decide([Value("user", "city", "Казань", "set")], held_values([old]), "new")
    assert decision.replaces == [old] and not decision.contradicts
    assert decision.carried == ["user|role|бухгалтер|set"]
    assert decision.changes[0]["old"] == "Самара" and decision.changes[0]["new"] == "Казань"


def test_the_same_value_again_changes_nothing() -> None:
    old = fact("f1", "user|city|Самара|set")
    assert not decide([Value("user", "city", "Самаре", "set")], held_values([old]), "new").acts


def test_an_ending_replaces_only_the_value_it_names() -> None:
    cat, dog = fact("f1", "user|pet|Рыжик|add"), fact("f2", "user|pet|Лайма|add")
    decision = decide([Value("user", "pet", "Рыжик", "remove")], held_values([cat, dog]), "new")
    assert decision.replaces == [cat]


def test_a_denial_of_a_held_value_and_a_denied_value_taken_up_are_contradictions() -> None:
    allergy = fact("f1", "user|allergy|орех|add")
    denied = decide([Value("user", "allergy", "*", "negate")], held_values([allergy]), "new")
    assert [f.id for f, _ in denied.contradicts] == ["f1"] and not denied.replaces
    sober = fact("f2", "user|habit|алкоголь|negate")
    drinks = [Value("user", "habit", "алкоголь", "add")]
    taken_up = decide(drinks, [], "new", held_values([sober], ops=("negate",)))
    assert [f.id for f, _ in taken_up.contradicts] == ["f2"]
    again = decide(drinks, [], "new", held_values([sober], ops=("negate",)), changed=True)
    assert not again.contradicts  # "снова начал": a change, not a contradiction


def test_an_age_moves_on_by_a_year_and_a_smaller_one_is_a_contradiction() -> None:
    age = fact("f1", "user|age|38|set")
    older = decide([Value("user", "age", "39", "set")], held_values([age]), "new")
    assert older.replaces == [age] and not older.contradicts
    younger = decide([Value("user", "age", "36", "set")], held_values([age]), "new")
    assert [f.id for f, _ in younger.contradicts] == ["f1"] and not younger.replaces


def test_opposites_about_different_attributes_or_holders_are_no_contradiction() -> None:
    from wave_agent.write.attributes import about_other_things

    brother = [Value("role:brother", "habit", "курение", "negate")]
    assert about_other_things(brother, ("user|habit|курение|add",))
    assert not about_other_things([Value("user", "habit", "курение", "negate")],
                                  ("user|habit|курение|add",))
    assert not about_other_things([], ("user|habit|курение|add",))  # nothing read: the surface check


def test_an_age_said_in_passing_is_checked_against_the_time_since_and_a_birthday() -> None:
    from datetime import timedelta

    from wave_agent.write.attributes import says_birthday

    age = fact("f1", "user|age|33|set")
    later = NOW + timedelta(days=9)
    passing = "в мои 36 я всё ещё боюсь первой заговорить с соседями"
    jumped = decide([Value("user", "age", "36", "set")], held_values([age]), "new",
                    at=later, birthday=says_birthday(passing))
    assert [f.id for f, _ in jumped.contradicts] == ["f1"] and not jumped.replaces
    party = "мне сегодня 34! день рождения, торт"
    grew = decide([Value("user", "age", "34", "set")], held_values([age]), "new",
                  at=later, birthday=says_birthday(party))
    assert grew.replaces == [age] and not grew.contradicts
    son = fact("f2", "Тёма|age|7|set")
    assert decide([Value("Тёма", "age", "8", "set")], held_values([son]), "new",
                  at=NOW + timedelta(days=400), birthday=False).replaces == [son]
    assert decide([Value("Тёма", "age", "9", "set")], held_values([son]), "new",
                  at=later, birthday=False).contradicts
    # ten months on, a birthday nobody mentioned is likely: one year up is a change, two are not
    grown = decide([Value("user", "age", "34", "set")], held_values([age]), "new",
                   at=NOW + timedelta(days=300), birthday=False)
    assert grown.replaces == [age] and not grown.contradicts
    assert decide([Value("user", "age", "35", "set")], held_values([age]), "new",
                  at=NOW + timedelta(days=300), birthday=False).contradicts
    assert says_birthday("I turned 40 today") and says_birthday("Dziś moje urodziny, mam 30 lat")
    assert not says_birthday("Мне 36, если что")
    # an age said as today's is the day it moved on (tuning_7: "мне сегодня 34 🎉" with no word
    # of a birthday raised a false alarm once the first "мне 33" was kept)
    assert says_birthday("мне сегодня 34 🎉 мама с утра по видеосвязи пела") and says_birthday(
        "I'm 30 today") and says_birthday("dziś kończę 30")
    assert not says_birthday("сегодня купила 2 торта")


def test_a_changed_value_finds_its_line_in_the_block_as_the_list_item_it_was_appended_as() -> None:
    """A fact goes into the core block as a list item ("- Мне 33"); when the age moves on, that
    item is the line replaced, not left for the prompt to read beside the new age."""
    import asyncio

    from wave_agent.write.attributes import lines_holding

    change = {"entity": "user", "attribute": "age", "old": "33", "new": "34", "op": "set",
              "old_text": "Мне 33"}
    lines = ["- Меня зовут Марина", "- Мне 33", "- Сыну Тиме 8"]
    assert asyncio.run(lines_holding(lines, change)) == ["- Мне 33"]
    assert asyncio.run(lines_holding(["- Сыну Тиме 8", "- Мама, 33 года стажа"], change)) == []


def test_an_age_that_follows_one_held_age_settles_a_contradicting_one() -> None:
    # tuning_8: "мне 31", then "в свои 28" (a contradiction), then at the birthday "мне сегодня
    # 32": 32 follows 31, so both old ages are replaced and nothing is raised again
    said, odd = fact("f1", "user|age|31|set"), fact("f2", "user|age|28|set")
    d = decide([Value("user", "age", "32", "set")], held_values([said, odd]), "new",
               birthday=True)
    assert {f.id for f in d.replaces} == {"f1", "f2"} and not d.contradicts


def test_someone_else_s_new_value_with_no_news_is_a_contradiction() -> None:
    # tuning_9: "Оля, моя подруга, педиатр", later "Оля ... она же учительница"
    old = fact("f1", "Оля|role|педиатр|set")
    said = [Value("Оля", "role", "учительница", "set")]
    decision = decide(said, held_values([old]), "new", news=False)
    assert decision.contradicts and not decision.replaces
    # a move or a change word brings news: "Дина переехала в Москву" replaces Омск
    moved = decide([Value("Дина", "city", "Москва", "set")],
                   held_values([fact("f2", "Дина|city|Омск|set")]), "new", news=True)
    assert moved.replaces and not moved.contradicts
    # the person's own new value is a change all the same ("за квартиру отдала 38 тысяч")
    own = decide([Value("user", "city", "Казань", "set")],
                 held_values([fact("f3", "user|city|Самара|set")]), "new", news=False)
    assert own.replaces and not own.contradicts


def test_a_job_taken_is_news_of_the_employer() -> None:
    from wave_agent.write.attributes import tells_news

    # tuning_10: "Гоша устроился в Яндекс" after "работает курьером в Самокате" was raised as a
    # contradiction (the false alarm of month 9) instead of a change
    assert tells_news("Гоша устроился в Яндекс, в поддержку!")
    assert tells_news("Олег перешёл в «Ростелеком» инженером.") and tells_news("Tom joined Google")
    assert not tells_news("Оля, моя подруга, она же учительница")



def test_a_holiday_named_new_is_a_date_not_news() -> None:
    from wave_agent.write.attributes import tells_news

    # tuning_14: "Костя у нас стоматолог, обещал на Новый год ..." after Костя the anaesthetist was
    # applied as a change: "Новый" was read as news of the role
    said = "Костя у нас стоматолог, обещал на Новый год мне зуб посмотреть"
    assert not tells_news(said)
    decision = decide([Value("Костя", "role", "стоматолог", "set")],
                      held_values([fact("f1", "Костя|role|анестезиолог|set")]), "new",
                      news=tells_news(said))
    assert decision.contradicts and not decision.replaces
    assert not tells_news("Z Artemem planujemy Nowy Rok w Samarze") and not tells_news(
        "Lesha's coming for New Year's")
    # the new year as the date a value holds from, or another "new" beside it, is news
    assert tells_news("с нового года аренда 45 тысяч") and tells_news("od nowego roku czynsz 2600")
    assert tells_news("from the new year my rent is 900")
    assert tells_news("на Новый год подарила себе новый телефон")

def test_a_child_again_after_no_children_is_a_contradiction() -> None:
    # tuning_9: "детей у меня нет", then "сын опять с соплями": "опять" is the illness, not the son
    denied = fact("f1", "user|child|*|negate")
    decision = decide([Value("user", "child", "сын", "add")], [], "new",
                      held_values([denied], ops=("negate",)), changed=True, again=True)
    assert decision.contradicts
    resumed = decide([Value("user", "habit", "курение", "add")], [], "new",
                     held_values([fact("f2", "user|habit|курение|negate")], ops=("negate",)),
                     changed=True, again=True)
    assert not resumed.contradicts  # "снова курю": a habit taken up again


def test_a_place_shortened_as_people_say_it_is_the_same_place() -> None:
    from wave_agent.world.attributes import same_value

    assert same_value("Нижний", "Нижний Новгород") and same_value("Нижнем", "Нижний Новгород")
    assert not same_value("Москва", "Московская область")


def test_a_quitting_and_a_diet_left_are_changes_not_contradictions() -> None:
    """Month 11 (tuning_12): "выкинула сигареты" beside "всё, я не курю" was read as smoking
    held and raised against the denial; "вегетарианство не моё" after "с сегодняшнего дня я
    вегетарианка" was raised as a contradiction, though the person had left the diet."""
    from wave_agent.world import read
    from wave_agent.world.attributes import as_said, read_values

    def said(text: str) -> list[Value]:
        return list(read_values(text, read(as_said(text))))

    quit_ = fact("f1", "user|habit|курение|negate")
    thrown = said("Выкинула сигареты.")
    assert thrown == [Value("user", "habit", "курение", "remove")]
    assert not decide(thrown, held_values([quit_]), "new",
                      held_values([quit_], ops=("negate",))).contradicts
    diet = fact("f2", "user|diet|вегетарианство|set")
    left = said("Вегетарианство не моё.")
    decision = decide(left, held_values([diet]), "new")
    assert decision.replaces == [diet] and not decision.contradicts
    # thrown out ends a habit, nothing else; "не моё дело" ends nothing
    held = [Value("user", "city", "Самара", "set"), Value("user", "partner", "Дима", "set")]
    assert said("самарскую симку уже выкинула") == []
    assert not read_values("выкинула последнюю пачку после разговора с Димой",
                           read(as_said("выкинула последнюю пачку после разговора с Димой")), held)
    assert said("ладно, не моё дело, у меня зарплата в рублях") == []
    # a denial said outright is still one
    assert said("я не вегетарианка") == [Value("user", "diet", "вегетарианство", "negate")]


def test_an_age_one_up_after_the_birthday_the_graph_holds_is_the_age_moved_on() -> None:
    # month 18 (tuning_19): "Мне 31, день рождения 14 ноября." on 3 November, then on the 14th
    # "мне 32 🎉 отмечаю в новом городе" (no birthday word) was raised as a contradiction, and
    # every later "I'm 32" with it: three false alarms
    from datetime import timedelta

    said = fact("f1", "user|age|31|set", "user|birthday|14 ноября|set")
    said = replace(said, created_at=datetime(2026, 11, 3, 10, tzinfo=UTC))
    held = held_values([said])
    party = datetime(2026, 11, 14, 20, tzinfo=UTC)
    moved = decide([Value("user", "age", "32", "set")], held, "new", at=party, birthday=False)
    assert moved.replaces == [said] and not moved.contradicts
    # before the birthday, or two years up after it, it is still a contradiction
    early = decide([Value("user", "age", "32", "set")], held, "new",
                   at=party - timedelta(days=2), birthday=False)
    assert early.contradicts and not early.replaces
    jump = decide([Value("user", "age", "33", "set")], held, "new", at=party, birthday=False)
    assert jump.contradicts and not jump.replaces
    # someone else's birthday moves no age of the person's
    mums = replace(fact("f2", "мама|birthday|14 ноября|set"), created_at=said.created_at)
    other = decide([Value("user", "age", "32", "set")],
                   held_values([replace(said, attributes=("user|age|31|set",)), mums]), "new",
                   at=party, birthday=False)
    assert other.contradicts


def test_an_age_said_on_the_birthday_itself_does_not_move_on_again() -> None:
    # "мне сегодня 34" on the birthday, then "в свои 35" a week later: the birthday is not
    # after the held age, so the second is a contradiction (tuning_6, tuning_13, tuning_17)
    said = replace(fact("f1", "user|age|34|set", "user|birthday|19 ноября|set"),
                   created_at=datetime(2026, 11, 19, 9, tzinfo=UTC))
    later = decide([Value("user", "age", "35", "set")], held_values([said]), "new",
                   at=datetime(2026, 11, 27, 12, tzinfo=UTC), birthday=False)
    assert later.contradicts and not later.replaces


def test_a_birthday_by_its_month_counts_when_the_month_passed() -> None:
    said = replace(fact("f1", "user|age|40|set", "user|birthday|март|set"),
                   created_at=datetime(2026, 2, 20, tzinfo=UTC))
    spring = decide([Value("user", "age", "41", "set")], held_values([said]), "new",
                    at=datetime(2026, 4, 2, tzinfo=UTC), birthday=False)
    assert spring.replaces == [said]


def test_one_of_many_values_denied_with_a_change_word_ends_it() -> None:
    # month 18 (tuning_19): "На йогу в Казани так и не записалась и, честно, уже не хочу" after
    # "По вторникам и четвергам хожу на йогу" was raised as a contradiction (a false alarm) and
    # the yoga stayed held
    yoga = fact("f1", "user|hobby|йога|add")
    quit_ = decide([Value("user", "hobby", "йога", "negate")], held_values([yoga]), "new",
                   changed=True)
    assert quit_.replaces == [yoga] and not quit_.contradicts
    assert quit_.changes[0]["op"] == "remove"
    # with no word of a change it is still a contradiction; so is "again" alone, a single value,
    # and a denial of the attribute as a whole
    assert decide([Value("user", "hobby", "йога", "negate")], held_values([yoga]),
                  "new").contradicts
    sister = fact("f2", "user|sibling|Катя|add")
    assert decide([Value("user", "sibling", "Катя", "negate")], held_values([sister]), "new",
                  changed=True, again=True).contradicts
    allergy = fact("f3", "user|allergy|орех|add")
    assert decide([Value("user", "allergy", "*", "negate")], held_values([allergy]), "new",
                  changed=True).contradicts
    status = fact("f5", "user|other:marital_status|разведена|set")  # no slot of many values
    assert decide([Value("user", "other:marital_status", "разведена", "negate")],
                  held_values([status]), "new", changed=True).contradicts
    vegan = fact("f4", "user|diet|веганство|set")
    assert decide([Value("user", "diet", "веганство", "negate")], held_values([vegan]), "new",
                  changed=True).contradicts
