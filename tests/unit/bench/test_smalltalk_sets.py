"""The small-talk bench reads a labelled set written as conversations (``bench/data/smalltalk/
tuning_3.json``, author K) message by message, as it reads a list of lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_agent.bench.smalltalk import load
from wave_agent.errors import WaveError


def test_a_set_of_conversations_is_read_message_by_message(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"name": "chat", "conversations": [
        {"id": "ru-1", "lang": "ru", "messages": [
            {"id": "ru-1-m1", "lang": "ru", "text": "доброе утро", "kind": "small_talk"},
            {"id": "ru-1-m2", "lang": "ru", "text": "я бухгалтер в Екатеринбурге", "kind": "statement"}]},
        {"id": "en-1", "lang": "en", "messages": [
            {"id": "en-1-m1", "lang": "en", "text": "whats a good lure for pike?", "kind": "question"}]},
    ]}, ensure_ascii=False), encoding="utf-8")
    items = load(path)
    assert [i["id"] for i in items] == ["ru-1-m1", "ru-1-m2", "en-1-m1"]
    assert [i["kind"] for i in items] == ["small_talk", "statement", "question"]


def test_a_message_with_no_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"conversations": [{"messages": [{"text": "hi"}]}]}),
                    encoding="utf-8")
    with pytest.raises(WaveError):
        load(path)


def test_the_chat_set_in_the_repository_loads() -> None:
    items = load(Path(__file__).resolve().parents[3] / "bench/data/smalltalk/tuning_3.json")
    assert len(items) == 252
    assert {i["kind"] for i in items} == {"statement", "small_talk", "question"}
