"""Values the month authors say in passing, which the reader missed (issue 30, round fifteen):
a pet taken to live with someone else, a pet said with no owner, a device by its make in small
letters, a price with its currency before "per lesson", a pass to a pool; and (round sixteen)
the last day at the held employer."""

from __future__ import annotations

from wave_agent.world import read
from wave_agent.world.attributes import Value, as_said, read_values


def values(text: str, held: list[Value] | None = None) -> set[tuple[str, str, str, str]]:
    return {(v.entity, v.attribute, v.value, v.op)
            for v in read_values(text, read(as_said(text)), held or [])}


KESHA = Value("user", "pet", "попугай Кеша", "add")
TIMA = Value("user", "child", "Тимофей", "add")


def test_a_pet_taken_to_live_with_mum_is_no_longer_the_persons() -> None:
    found = values("Кешу отвезла маме в Балахну. он у меня всё равно орал", [KESHA, TIMA])
    assert ("user", "pet", "попугай Кеша", "remove") in found
    assert ("user", "pet", "попугай Кеша", "remove") in values("кешу отвезли к бабушке", [KESHA])


def test_a_visit_a_wish_or_a_child_taken_to_school_ends_nothing() -> None:
    assert values("Кешу отвезла к ветеринару, всё хорошо", [KESHA]) == set()
    assert values("надо отвезти Кешу маме", [KESHA]) == set()
    assert values("Тимку отвезла в школу.", [KESHA, TIMA]) == set()


def test_a_pet_living_with_the_person_is_theirs() -> None:
    assert ("user", "pet", "Рыжик", "add") in values(
        "дома со мной кот Рыжик, ему уже 14, старенький совсем")
    assert any(v[:2] == ("user", "pet") and v[2].startswith("Кеш") and v[3] == "add"
               for v in values("И попугай Кеша, он не считается, он просто орёт"))
    # another's pet stays another's; an ending of no held pet adds none
    assert not any(v[1] == "pet" and v[0] == "user" for v in values("У Кости кот Барсик."))
    assert not any(v[1] == "pet" for v in values("пять лет коту под хвост"))


def test_a_device_by_its_make_in_small_letters() -> None:
    held = [Value("user", "device", "iPhone 11", "set")]
    found = values("айфон всё, умер окончательно. взяла самсунг S24, непривычно жутко", held)
    assert ("user", "device", "iPhone 11", "remove") in found
    assert any(v[1] == "device" and v[3] == "add" and "S24" in v[2] for v in found), found
    assert any(v[1] == "device" and v[3] == "add" for v in values("настраиваю новый Pixel 8"))
    assert not any(v[1] == "device" and v[3] == "add"
                   for v in values("на новый айфон денег нет, переезд"))


def test_a_price_with_its_currency_and_a_pass_to_a_pool() -> None:
    assert ("user", "price:english_lessons", "1500", "set") in values(
        "I have english lessons twice a week with Catherine, 1500 rub per lesson.")
    pool = values("Тиме взяли абонемент в бассейн, 4000 в месяц.")
    assert ("user", "price:swimming", "4000", "set") in pool
    assert ("user", "price:swimming", "4500", "set") in values(
        "бассейн тут нашли рядом с домом, 4500 в месяц",
        [Value("user", "price:swimming", "4000", "set")])
    assert ("user", "price:gym", "3000", "set") in values("Абонемент в зал 3000 в месяц")


def test_a_child_given_the_old_phone_is_not_gone() -> None:
    held = [Value("user", "child", "Тима", "add"), Value("user", "device", "iPhone 11", "set")]
    found = values("взяла iPhone 15 в рассрочку. старый одиннадцатый отдала Тиме играть", held)
    assert ("user", "child", "Тима", "remove") not in found
    assert ("user", "child", "Тима", "remove") in values("Тимы больше нет с нами", held)


TOCHKA = Value("user", "employer", "Точка Банк", "set")


def test_the_last_day_at_the_held_employer_ends_the_job() -> None:
    """Written for this test (seven months' authors write a job's end so): the held employer named
    right after "последний день в/на", "last day at", "ostatni dzień w" ends."""
    ended = ("user", "employer", "Точка Банк", "remove")
    assert ended in values("последний день в Точке. торт, шарики, все обнимаются", [TOCHKA])
    assert ("user", "employer", "Tochka", "remove") in values(
        "last day at Tochka, they signed a card for me", [Value("user", "employer", "Tochka", "set")])


def test_a_last_day_of_a_month_or_in_a_city_ends_no_job() -> None:
    assert not any(v[1] == "employer" for v in values("последний день ноября, ну и месяц", [TOCHKA]))
    samara = Value("user", "employer", "Самарский завод", "set")
    assert not any(v[1] == "employer" for v in values("последний день в Самаре. грустно", [samara]))


def test_a_job_offered_is_not_yet_the_job_nor_its_city_the_home() -> None:
    """Written for this test (eight months' authors tell of an offer before the first day; month
    12's "предложили работу в Казани, в Ак Барс Банке" replaced the job and the city it was in)."""
    for said in ("Мне предложили работу в Самаре, в «Волга Софт». Ведущий аналитик",
                 "пришёл оффер из Волга Софт, ведущий аналитик, переезд в Самару"):
        assert not any(v[0] == "user" and v[1] in ("employer", "role", "city")
                       for v in values(said, [TOCHKA])), said
    assert ("user", "employer", "Волга Софт", "set") in values(
        "Работаю аналитиком в «Волга Софт»")
