"""A firm the NER read with its legal form or a generic noun before its quoted name, or in an
oblique case, is known by its name in the nominative (``russian._firm_name``)."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import USER, Link


def test_a_firm_after_its_legal_form_is_known_by_its_quoted_name() -> None:
    reading = rule_readings(["Работаю главным бухгалтером в ООО «Волгатрансстрой»."],
                            learned_nouns=False)[0]
    firm = reading.mention("Волгатрансстрой")
    assert firm is not None and firm.type is EntityType.ORGANISATION
    assert "ООО «Волгатрансстрой»" in firm.aliases
    assert Link(USER, "works_at", "Волгатрансстрой") in reading.links


def test_a_house_of_culture_is_named_in_the_nominative() -> None:
    reading = rule_readings(["Пою в хоре ветеранов при Доме культуры «Электроника»."],
                            learned_nouns=False)[0]
    assert reading.mention("Электроника") is not None


def test_the_generic_noun_before_the_name_is_kept_in_the_nominative_as_an_alias() -> None:
    reading = rule_readings(["По вторникам пою в хоре при Доме культуры «Заря»."],
                            learned_nouns=False)[0]
    club = reading.mention("Заря")
    assert club is not None and "Дом культуры Заря" in club.aliases
