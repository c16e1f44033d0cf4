"""Issue 30, round forty (h/promo40): a change against a record the reader worded another way,
and two changes in one message.

- "Работаю SMM-менеджером в агентстве" (or the offline extractor's "Пользователь работает
  SMM-менеджером") was read as the employer "SMM-менеджером": the job in the instrumental the
  parse ties to "работаю" as where one works. The promotion "теперь я старший SMM-менеджер"
  then met no role to replace and both stayed in force. The job is the role now.
- "Оля переехала в Казань и устроилась в «Яндекс»": the clause after "и" has no subject of its
  own, so its employer went to the speaker; it shares Оля, so both of her changes are hers.

Sentences of our own (pure: natasha, pymorphy3, navec)."""

from __future__ import annotations

import pytest

from tests.support.held_attributes import after_one
from wave_agent.world import read
from wave_agent.world.attributes import Value, as_said, read_values


def values(text: str, held: list[Value] | None = None) -> set[str]:
    return {v.encode() for v in read_values(text, read(as_said(text)), held or [])}


@pytest.mark.parametrize(("text", "role"), [
    ("Пользователь работает SMM-менеджером", "SMM-менеджер"),
    ("Работаю UX-дизайнером в студии «Кубик»", "UX-дизайнер"),
    ("Работаю QA-инженером в «Луч-Софте», шестой год уже там сижу", "QA-инженер"),
])
def test_a_job_said_after_work_is_the_role_not_the_employer(text: str, role: str) -> None:
    read_ = values(text)
    assert f"user|role|{role}|set" in read_
    assert not any(v.startswith("user|employer|") and role.split("-")[-1][:5] in v for v in read_)


def test_a_firm_said_after_work_stays_the_employer() -> None:
    assert "user|employer|Контур|set" in values("Работаю дизайнером в «Контуре».")


_after = after_one


@pytest.mark.parametrize(("old", "new"), [
    ("Пользователь работает SMM-менеджером", "теперь я старший SMM-менеджер"),
    ("Работаю UX-дизайнером в студии «Кубик»", "Я теперь ведущий продуктовый дизайнер, звучит солидно"),
    ("Работаю QA-инженером в «Луч-Софте»", "Меня назначили тимлидом тестирования вместо Светы!!"),
])
def test_a_promotion_replaces_the_role_said_after_work(old: str, new: str) -> None:
    assert _after(old, new) == (["f1"], [])


def test_the_same_role_said_again_replaces_nothing() -> None:
    assert _after("Пользователь работает SMM-менеджером", "я SMM-менеджер, если что") == ([], [])


@pytest.mark.parametrize(("text", "expected"), [
    ("Оля переехала в Казань и устроилась в «Яндекс»",
     {"Оля|city|Казань|set", "Оля|employer|Яндекс|set"}),
    ("сестра переехала в Казань и устроилась в Сбер",
     {"role:sister|city|Казань|set", "role:sister|employer|Сбер|set"}),
])
def test_two_changes_of_someone_in_one_message_are_both_theirs(text: str, expected: set[str]) -> None:
    assert expected <= values(text)


def test_the_speakers_two_changes_stay_the_speakers() -> None:
    read_ = values("переехала в Казань и устроилась в «Яндекс»")
    assert {"user|city|Казань|set", "user|employer|Яндекс|set"} <= read_
    assert {"user|employer|Яндекс|set"} <= values("Оля звонила, а я устроилась в «Яндекс»")
