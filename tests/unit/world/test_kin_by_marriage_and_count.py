"""Kin said without the kin noun beside the name, and an allergy named with what it is to
(round thirty-five, issue 29): "женат на Насте" / "замужем за Пашей" make a spouse of whom the
clause is about (``russian._Builder._married``); "Детей двое: Полина и Матвей" and "двое детей.
Тимур 14 лет, Амина 8" make the named children the owner's, no more of them than the count
(``_children``); "аллергия на кошек" is the illness, not "аллергия" (``_what_to``)."""

from __future__ import annotations

from wave_agent.world.reader import read, rule_readings
from wave_agent.world.reading import Link


def _read(text: str):  # type: ignore[no-untyped-def]
    return rule_readings([text], learned_nouns=False)[0]


def test_a_son_married_to_someone_has_her_for_a_wife() -> None:
    reading = _read("Сын наш Дмитрий живёт в Санкт-Петербурге, он программист. Женат на Насте,"
                    " у них дочка Варенька.")
    assert Link("Дмитрий", "kin:wife", "Настя") in reading.links
    assert Link("user", "kin:wife", "Настя") not in reading.links


def test_a_sister_married_to_someone_has_him_for_a_husband() -> None:
    reading = _read("Дочь Ольга живёт в Хабаровске, замужем за Сергеем Лаптевым, он машинист.")
    assert Link("Ольга", "kin:husband", "Сергей Лаптев") in reading.links


def test_the_speaker_married_to_someone() -> None:
    reading = _read("Я замужем за Игорем.")
    assert Link("user", "kin:husband", "Игорь") in reading.links
    assert "муж" in (reading.mention("Игорь").aliases if reading.mention("Игорь") else ())


def test_married_without_a_spouse_named_links_no_one() -> None:
    reading = _read("Олег женат, детей пока нет.")
    assert not any(link.type.startswith("kin:") for link in reading.links)


def test_children_counted_then_named_are_the_speakers() -> None:
    reading = _read("Детей двое: Полина, ей 9, и Матвей, ему 5.")
    assert Link("user", "kin:daughter", "Полина") in reading.links
    assert Link("user", "kin:son", "Матвей") in reading.links


def test_children_named_in_the_next_sentence_after_a_count() -> None:
    reading = _read("Детей у нас двое. Тимофей, Тёма, ему 9, и Варвара, Варюша, ей 4 года.")
    assert Link("user", "kin:son", "Тимофей") in reading.links
    assert Link("user", "kin:daughter", "Варвара") in reading.links


def test_no_more_children_than_counted_and_not_a_wife_said_as_the_place_of_marriage() -> None:
    reading = _read("У нас двое детей. Старший, Андрей, живёт в Москве, женат на Оксане, у них"
                    " дочка Полинка.")
    assert Link("user", "kin:son", "Андрей") in reading.links
    assert Link("Андрей", "kin:wife", "Оксана") in reading.links
    assert Link("user", "kin:daughter", "Оксана") not in reading.links


def test_boys_counted_are_sons_and_boys_uncounted_are_friends() -> None:
    reading = _read("жена Гульнара, двое пацанов Тимур и Айдар.")
    assert Link("user", "kin:son", "Тимур") in reading.links
    assert Link("user", "kin:son", "Айдар") in reading.links
    assert Link("Тимур", "kin:son", "Айдар") not in reading.links
    friends = _read("по выходным гоняю в доту с пацанами, серега и макс")
    assert not any(link.type.startswith("kin:") for link in friends.links)


def test_an_allergy_is_named_with_what_it_is_to() -> None:
    reading = read("У Тёмы аллергия на пыльцу берёзы, каждую весну мучаемся.")
    assert Link("Тёма", "has_condition", "аллергия на пыльцу берёзы") in reading.links
    mine = read("у меня аллергия на кошек прикинь, и при этом живу с котом.")
    assert Link("user", "has_condition", "аллергия на кошек") in mine.links
    at_work = _read("у меня аллергия на работе началась")
    assert Link("user", "has_condition", "аллергия") in at_work.links
