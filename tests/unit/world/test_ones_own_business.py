"""One's own business as a workplace (round thirty-nine, issue 29): a business said to be
one's own ("свой автосервис «X»", "у неё своя парикмахерская «Y»", "держит свой шиномонтаж
«Z»"), named in the same sentence, is where its owner works (``russian._own_business``); a
thing of one's own named by its make, one sold or one only wished for is no workplace."""

from __future__ import annotations

from wave_agent.world.reader import read


def _works_at(text: str) -> set[tuple[str, str]]:
    return {(link.source, link.target) for link in read(text).links if link.type == "works_at"}


def test_the_speakers_own_garage_said_without_a_verb() -> None:
    assert ("user", "Мотор-Сервис") in _works_at(
        "Руслан, 41 год, Казань. Свой автосервис «Мотор-Сервис», 6 человек в штате")


def test_a_mother_who_has_her_own_salon_works_there() -> None:
    assert ("role:mother", "Локон") in _works_at(
        "мама звонит из Северска каждый вечер. у неё там своя парикмахерская, «Локон»")


def test_someone_who_keeps_his_own_tyre_shop_works_there() -> None:
    assert ("Вадим", "Колесо") in _works_at(
        "Кум Вадим держит свой шиномонтаж «Колесо» на трассе, летом там очередь")


def test_a_car_of_ones_own_sold_or_a_shop_only_wished_for_is_no_workplace() -> None:
    assert not _works_at("Продала свою Kia и купила Haval Jolion.")
    assert not _works_at("Продал свою «семёрку», 1998 года выпуска.")
    assert not _works_at("мама продала свой салон «Локон», говорит спокойнее стало")
    assert not _works_at("Лена хочет открыть свою кофейню «Зерно» на Покровке.")
