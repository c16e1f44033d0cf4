"""The month bench's reader and its judge of "held" (``wave_agent/bench/month.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_agent.bench.month import holds, load
from wave_agent.errors import WaveError

TUNING = Path(__file__).resolve().parents[3] / "bench" / "data" / "month" / "tuning.json"


def test_the_tuning_month_reads_and_has_what_the_issue_asks() -> None:
    month = load(TUNING)
    days = {m.at.date() for m in month.messages}
    kinds = [m.kind for m in month.messages]
    russian = sum(m.lang == "ru" for m in month.messages) / len(month.messages)
    assert len(month.messages) >= 150 and len(days) == 30
    assert 0.6 <= russian <= 0.8
    assert {m.lang for m in month.messages} == {"ru", "en", "pl"}
    assert kinds.count("pasted_instruction") == 3
    assert kinds.count("small_talk") >= 40
    assert sum(1 for m in month.messages if m.contradicts) >= 6
    assert len(month.checkpoints) == 3
    assert sum(len(c.questions) for c in month.checkpoints) >= 90
    assert all(m.at.tzinfo is not None for m in month.messages)  # the file's tz applied


def test_a_broken_month_is_refused_naming_the_item(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"messages": [
        {"id": "m7", "at": "2026-11-01T09:00", "text": "hi", "kind": "chatter"}]}),
        encoding="utf-8")
    with pytest.raises(WaveError) as caught:
        load(bad)
    assert "m7" in str(caught.value) and "kind" in str(caught.value)
    assert "HOW_WRITTEN.md" in str(caught.value)
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(WaveError, match="not UTF-8 JSON"):
        load(bad)


@pytest.mark.parametrize(("record", "value", "attribute", "held"), [
    ("Пользователь переехал в Калининград", "Калининград", "city", True),
    ("Живу в Тюмени", "Тюмень", "city", True),
    ("Работаю в «СИБУРе»", "СИБУР", "employer", True),
    ("Езжу на Ладе Весте", "Лада Веста", "vehicle", True),
    ("Новый номер: +7 (911) 480 55 17", "+7 911 480-55-17", "phone", True),
    ("За квартиру отдал 38 000 рублей", "38 тысяч", "price:rent", True),
    ("Мне 38 лет", "38 тысяч", "price:rent", False),  # an age is not a rent
    ("Мне 39!", "39", "age", True),
    ("Мне 39!", "3", "age", False),
    ("Poznałem Martę", "Marta", "partner", True),
    ("Живу в Тюмени", "Калининград", "city", False),
])
def test_a_value_is_held_as_a_person_would_read_it(record: str, value: str, attribute: str,
                                                   held: bool) -> None:
    assert holds(record, value, attribute) is held
