"""Number changes inside an import, by words alone (``policy.batch_changes``): what
``Writer.remember_many`` proposes instead of writing a second active value."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.models import Fact, FactType, Status, Tier, Veracity, new_id
from wave_agent.policy.batch_changes import number_changes


def fact(text: str, month: int, status: Status = Status.ACTIVE) -> Fact:
    when = datetime(2026, month, 1, tzinfo=UTC)
    return Fact(id=new_id("f"), user_id="u", text=text, type=FactType.EVENT,
                tier=Tier.OBSERVATION, status=status, veracity=Veracity.IMPORTED,
                confidence=0.6, created_at=when, last_confirmed_at=when)


def test_later_rents_in_one_import_change_the_first_in_date_order() -> None:
    rents = [fact("Аренда квартиры 55 тыс. рублей в месяц", 7),
             fact("Аренда квартиры 45 000 рублей в месяц", 1),
             fact("Аренда квартиры 50 000 рублей в месяц", 4)]
    changes = number_changes([], rents)
    assert [(c.new.text, c.old.text) for c in changes] == [
        ("Аренда квартиры 50 000 рублей в месяц", "Аренда квартиры 45 000 рублей в месяц"),
        ("Аренда квартиры 55 тыс. рублей в месяц", "Аренда квартиры 45 000 рублей в месяц")]
    assert changes[0].detail == "45 000 -> 50 000"


def test_a_record_in_force_is_the_target_and_the_same_value_is_no_change() -> None:
    old = fact("Пилотный проект стоит 150 тысяч рублей", 1)
    same = fact("Пилотный проект стоит 150 000 рублей", 2)
    changed = fact("Стоимость пилотного проекта 200 тысяч рублей", 3)
    assert [c.old.id for c in number_changes([old], [changed])] == [old.id]
    assert number_changes([old], [same]) == []
    # of two records as close, the latest is the one in force
    assert [c.old.id for c in number_changes([old], [same, changed])] == [same.id]


def test_other_people_dates_and_inactive_records_are_not_changes() -> None:
    assert number_changes([fact("Игорь платит 100 тысяч за аренду", 1)],
                          [fact("Анна платит 200 тысяч за аренду", 2)]) == []
    assert number_changes([fact("Был у стоматолога 5 мая", 5)],
                          [fact("Был у стоматолога 20 мая", 6)]) == []
    gone = fact("Czynsz za mieszkanie wynosi 3000 zł", 1, status=Status.SUPERSEDED)
    assert number_changes([gone], [fact("Czynsz za mieszkanie wynosi 3500 zł", 2)]) == []
    assert len(number_changes([fact("Czynsz za mieszkanie wynosi 3000 zł", 1)],
                              [fact("Czynsz za mieszkanie wynosi 3500 zł", 2)])) == 1
