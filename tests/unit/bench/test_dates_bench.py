"""The date bench runs the parts it finds: a part listed but not yet written is skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_agent.bench import dates as bench_dates


def test_a_listed_part_whose_file_is_missing_is_skipped(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    item = {"id": "ru-001", "lang": "ru", "text": "в пятницу позвонить маме",
            "written_at": "2026-12-02T14:30", "tz": "Europe/Moscow",
            "due": "2026-12-04T10:00", "ambiguous": False}
    (tmp_path / "tuning.json").write_text(json.dumps([item]), encoding="utf-8")
    monkeypatch.setattr(bench_dates, "PARTS", ("tuning", "kept_aside_8", "kept_aside_9"))
    results = bench_dates.bench(tmp_path)
    assert list(results) == ["tuning"]
    assert results["tuning"]["all"].due_right == 1
    assert "kept_aside_8" not in bench_dates.render(results)
