"""One holder per illness (round thirty-eight, issue 29's has_condition): an illness a named
pet or person holds is not also the speaker's ("Граф заболел: ветеринар говорит, отит";
``pairs._one_holder``), while the speaker's own illness, said of no one else, stays theirs."""

from __future__ import annotations

from wave_agent.world.reader import read
from wave_agent.world.reading import USER, Link


def test_a_pets_illness_is_not_the_speakers() -> None:
    reading = read("Наш пёс Шарик захромал на переднюю лапу. Ветеринар нашёл артрит, колем уколы.")
    held = [link for link in reading.links if link.type == "has_condition"]
    assert Link(USER, "has_condition", "артрит") not in held
    assert held == [Link("Шарик", "has_condition", "артрит")]


def test_a_relatives_illness_is_not_the_speakers() -> None:
    reading = read("Зинаиду Павловну положили в больницу с пневмонией, Оля поехала к ней.")
    assert Link("Зинаида Павловна", "has_condition", "пневмония") in reading.links
    assert Link(USER, "has_condition", "пневмония") not in reading.links


def test_the_speakers_own_illness_stays_theirs() -> None:
    reading = read("У меня гипертония, таблетки пью каждый день.")
    assert Link(USER, "has_condition", "гипертония") in reading.links


def test_the_doctor_who_found_it_does_not_hold_it() -> None:
    reading = read("Была у терапевта в поликлинике, врач Иванова Мария Петровна. Давление "
                   "скачет, поставили гипертонию.")
    assert not any(link.type == "has_condition" and link.source == "Иванова Мария Петровна"
                   for link in reading.links)
    assert Link(USER, "has_condition", "гипертония") in reading.links
