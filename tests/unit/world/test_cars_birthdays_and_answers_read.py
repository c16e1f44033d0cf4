"""Readings the months' authors wrote and the reader missed (round seventeen): a car named by
its make or model as one's own or as just taken, a birthday said by its month, someone's job
said as what they are "у нас", a question about allergies answered "никаких", a habit held by
someone else and denied by the speaker, a subscription's price by the service's name. And the
decision on a birthday: it does not move, so another one is a contradiction."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world import read
from wave_agent.world.attributes import ANY, Value, as_said, read_values
from wave_agent.write.attributes import decide, held_values


def values(text: str, held: list[Value] | None = None) -> set[tuple[str, str, str, str]]:
    return {(v.entity, v.attribute, v.value, v.op)
            for v in read_values(text, read(as_said(text)), held or [])}


@pytest.mark.parametrize(("text", "expected"), [
    ("Моя Киа Рио еле завелась на морозе, аккумулятор пора менять", "Киа Рио"),
    ("гранта моя опять не завелась, аккумулятор сдох на морозе", "Гранта"),
    ("едем к маме на моей старенькой Kia Rio, три часа за рулём", "Kia Rio"),
    ("взяла Шкоду Фабию 2019 года, с пробегом, белая", "Шкода Фабия"),
    ("Забрала из салона Haval Jolion, серый. в кредит, конечно", "Haval Jolion"),
    ("Киа моя опять что-то стучит. Рио 2015 года, пора прощаться", "Киа Рио"),
])
def test_a_car_named_as_one_s_own_or_just_taken_is_the_vehicle(text: str, expected: str) -> None:
    assert ("user", "vehicle", expected, "set") in values(text)


def test_a_car_sold_ends_the_held_one_and_one_wished_for_is_not_held() -> None:
    held = [Value("user", "vehicle", "Киа Рио", "set")]
    assert ("user", "vehicle", "Киа Рио", "remove") in values("Продала Киа! Ушла за два дня.", held)
    assert not {v for v in values("хочу себе когда-нибудь Шкоду Октавию") if v[1] == "vehicle"}
    assert not {v for v in values("у Вовы Киа Рио, он нас и отвезёт") if v[1] == "vehicle"}


@pytest.mark.parametrize(("text", "expected"), [
    ("день рождения у меня в марте, так что до подарков ещё далеко", "март"),
    ("день рождения у меня в начале марта, прямо перед восьмым", "начало марта"),
    ("Даша спрашивает, а у меня день рождения в апреле, 9-го, так что ждать", "9 апреля"),
    ("когда у меня день рождения? в марте, говорю, 14-го", "14 марта"),
])
def test_a_birthday_said_by_its_month(text: str, expected: str) -> None:
    assert ("user", "birthday", expected, "set") in values(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("Костя у нас стоматолог, обещал мне зуб посмотреть", ("Костя", "role", "стоматолог", "set")),
    ("Лёша же у нас врач, спрошу у него", ("Лёша", "role", "врач", "set")),
    ("написала Лене, она же у нас учительница, у неё каникулы",
     ("Лена", "role", "учительница", "set")),
])
def test_someone_s_job_said_as_what_they_are_among_us(
    text: str, expected: tuple[str, str, str, str]
) -> None:
    assert expected in values(text)


@pytest.mark.parametrize("text", [
    "в аптеке спросили про аллергии — сказала, что никаких, слава богу, никогда не было",
    "графа «аллергии» — прочерк. у меня их никогда не было",
    "в аптеке спросили про аллергию — говорю, аллергий у меня никаких, всё можно",
])
def test_a_question_about_allergies_answered_none_denies_them(text: str) -> None:
    found = values(text)
    assert ("user", "allergy", ANY, "negate") in found
    assert ("user", "allergy", ANY, "add") not in found


def test_a_habit_someone_else_has_and_the_speaker_denies_is_denied() -> None:
    found = values("коллега позвала курить, а я ей: я в жизни ни одной сигареты не выкурила")
    assert found & {("user", "habit", "курение", "negate")}
    assert ("user", "habit", "курение", "add") not in found
    # a quitting said with the pack thrown away stays an ending
    assert ("user", "habit", "курение", "remove") in values("выкинула сигареты. всё, я не курю")


@pytest.mark.parametrize(("text", "amount"), [
    ("из подписок — Яндекс Плюс за 399, в основном ради музыки", "399"),
    ("Плюс теперь 449 в месяц списывает, наглость", "449"),
    ("Плюс опять списал 299. надо бы от половины подписок отписаться", "299"),
])
def test_a_subscription_s_price_is_the_service_s(text: str, amount: str) -> None:
    assert ("user", "price:плюс", amount, "set") in values(text)


NOW = datetime(2026, 11, 1, tzinfo=UTC)


def fact(fid: str, *said: str) -> Fact:
    return Fact(id=fid, user_id="u", text=fid, type=FactType.IDENTITY, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=NOW, last_confirmed_at=NOW, attributes=said)


def test_another_birthday_is_a_contradiction_and_its_month_alone_is_the_same() -> None:
    held = fact("f1", "user|birthday|14 ноября|set")
    other = decide([Value("user", "birthday", "9 апреля", "set")], held_values([held]), "new")
    assert [f.id for f, _ in other.contradicts] == ["f1"] and not other.replaces
    march = fact("f2", "user|birthday|14 марта|set")
    same = decide([Value("user", "birthday", "март", "set")], held_values([march]), "new")
    assert not same.contradicts and not same.replaces


def test_a_pronoun_after_the_one_person_named_is_that_person_s() -> None:
    found = values("с Димой мы вместе уже четыре года, он инженер на ГАЗе")
    assert ("Дима", "role", "инженер", "set") in found
    assert not {v for v in values("Сыну 12, он не ест мясо") if v[1] == "diet"}


def test_a_denied_value_found_out_later_is_news_not_a_contradiction() -> None:
    from wave_agent.write.attributes import finds_out

    none = fact("f1", "user|allergy|*|negate")
    peanuts = [Value("user", "allergy", "арахис", "add")]
    said = "Короче, у меня аллергия на арахис, выяснилось."
    found = decide(peanuts, [], "new", held_values([none], ops=("negate",)),
                   found_out=finds_out(said))
    assert finds_out(said) and not found.contradicts
    assert decide(peanuts, [], "new", held_values([none], ops=("negate",))).contradicts


def test_a_birthday_said_of_her_in_a_message_that_says_u_menya_is_not_the_person_s() -> None:
    found = values("мама у меня Галина Петровна, живёт в Балахне. день рождения у неё 3 мая")
    assert not {v for v in found if v[0] == "user" and v[1] == "birthday"}
    assert ("user", "birthday", "17 ноября", "set") in values("у меня днюха 17 ноября, кстати")


def test_a_service_s_price_is_one_price_in_either_alphabet_and_after_a_capitalised_verb() -> None:
    """Month 15 (tuning_16): "Продлила Яндекс Плюс, 399 в месяц" (the extractor's piece, its verb
    capitalised) was the price of "яндекс", and "Yandex Plus went up again, they just charged me
    449" the price of "плус" letter by letter: two prices, so 449 replaced nothing."""
    old = values("Продлила Яндекс Плюс, 399 в месяц, вроде терпимо")
    assert ("user", "price:плюс", "399", "set") in old
    held = [Value(*v) for v in old]
    new = values("Yandex Plus went up again, they just charged me 449.", held)
    assert ("user", "price:плюс", "449", "set") in new
    # with no such price held, the Latin name stays its own
    assert ("user", "price:плус", "449", "set") in values("Yandex Plus went up again, they just charged me 449.")


def test_a_price_paid_with_oplatit_is_read() -> None:
    """Month 15 (tuning_16): "Оплатила зал ещё на месяц, 3200." read no price ("оплатить" was no
    paying verb), so the gym in Kazan at 4500 replaced nothing."""
    assert ("user", "price:gym", "3200", "set") in values("Оплатила зал ещё на месяц, 3200.")
