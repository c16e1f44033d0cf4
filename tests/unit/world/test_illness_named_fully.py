"""An illness named as fully as it is said (round forty, issue 29's illness and has_condition):
an adjective the parser hung elsewhere, a name, a number and a disc's code after it stay in its
name ("межпозвоночная грыжа L4-L5", "болезнь Альцгеймера", "гипертония 3 степени"), and the
shorter names a later statement may use stay its aliases (``world.illness``)."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world.reader import read
from wave_agent.world.reading import USER, Link, Reading


def _illness(reading: Reading) -> tuple[str, tuple[str, ...]]:
    found = [m for m in reading.mentions if m.type is EntityType.ILLNESS]
    assert len(found) == 1, found
    return found[0].name, found[0].aliases


def test_a_disc_hernia_keeps_its_adjective_and_its_code() -> None:
    reading = read("Сделал снимок: межпозвоночная грыжа L4-L5. Плавать можно, бегать нельзя.")
    name, aliases = _illness(reading)
    assert name == "межпозвоночная грыжа L4-L5"
    assert {"грыжа", "межпозвоночная грыжа", "грыжа L4-L5"} <= set(aliases)
    assert Link(USER, "has_condition", name) in reading.links


def test_a_code_written_in_lower_case_is_kept_as_a_code() -> None:
    name, _ = _illness(read("поясница болит, грыжа l4-l5, делаю зарядку."))
    assert name == "грыжа L4-L5"


def test_an_illness_named_after_a_person_keeps_the_name() -> None:
    reading = read("Дедушка Коля сдал: у него болезнь Альцгеймера.")
    name, aliases = _illness(reading)
    assert name == "болезнь Альцгеймера"
    assert "болезнь" in aliases


def test_a_degree_said_with_a_digit_stays_in_the_name() -> None:
    reading = read("У меня гипертония 3 степени.")
    assert _illness(reading)[0] == "гипертония 3 степени"
    assert Link(USER, "has_condition", "гипертония 3 степени") in reading.links


def test_the_shorter_names_a_later_statement_uses_are_aliases() -> None:
    name, aliases = _illness(read("У меня хроническая болезнь почек."))
    assert name == "хроническая болезнь почек"
    assert {"болезнь", "хроническая болезнь", "болезнь почек"} <= set(aliases)


def test_an_illness_said_plainly_is_unchanged() -> None:
    reading = read("У меня астма с детства.")
    assert _illness(reading) == ("астма", ())
    assert Link(USER, "has_condition", "астма") in reading.links
