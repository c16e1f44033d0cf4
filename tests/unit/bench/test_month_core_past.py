"""A core block's line that names the old value only as past, beside the new one, is no stale
fact; a line that still states the old value is."""

from __future__ import annotations

from wave_agent.bench.month import names_old_as_past


def test_a_new_price_beside_the_old_one_marked_as_past_is_not_stale() -> None:
    assert names_old_as_past("Подписка на Яндекс Плюс: 449 ₽ вместо 399", "449", "price")
    assert names_old_as_past("Живёт в Казани (раньше жила в Самаре)", "Казань", "city")
    assert names_old_as_past("Abonament: 120 zł zamiast 99 zł", "120 zł", "price")
    assert names_old_as_past("Works at Revolut, previously at Monzo", "Revolut", "employer")


def test_a_line_that_still_states_the_old_value_is_stale() -> None:
    # the new value is not on the line: the old one stands as current
    assert not names_old_as_past("Подписка на Яндекс Плюс: 399 ₽", "449", "price")
    # both values with no word that makes one of them past
    assert not names_old_as_past("Живёт в Самаре, работает в Казани", "Казань", "city")


def test_a_new_role_that_contains_the_old_one_is_not_stale() -> None:
    # "старший SMM-менеджер" names "SMM-менеджер" only as part of the new role
    assert names_old_as_past("Работает старшим SMM-менеджером в Билайне",
                             "старший SMM-менеджер", "role", "SMM-менеджер")
    # the old role alone on the line is still stale
    assert not names_old_as_past("Работает SMM-менеджером в Билайне",
                                 "старший SMM-менеджер", "role", "SMM-менеджер")
