"""scripts/paired_ranks.py sets two recall runs side by side question by question: which
questions one run finds within k and the other does not, and whether that many is more than
chance (round twenty's 2.7-point LoCoMo loss was six questions, and no one could say which)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from tests.support.scripts import load_script


def _paired() -> ModuleType:
    return load_script("paired_ranks")


def _memory_run(path: Path, wave: list[int | None], dense: list[int | None]) -> str:
    ranks = [{"id": f"q{n}", "kind": "current" if n % 2 else "paraphrase", "wave": w,
              "dense": d, "bm25": None} for n, (w, d) in enumerate(zip(wave, dense, strict=True))]
    path.write_text(json.dumps([{"set": "memory-pl-x", "ranks": ranks}]), encoding="utf-8")
    return str(path)


def test_a_question_gained_at_rank_one_and_one_lost_within_five_are_counted(
        tmp_path: Path) -> None:
    pr = _paired()
    before = pr.per_question(_memory_run(tmp_path / "a.json", [2, 3, 1], [1, 1, 1]))
    after = pr.per_question(_memory_run(tmp_path / "b.json", [1, 7, 1], [1, 1, 1]))
    result = pr.compare(before, after)
    assert (result["R@1"]["better"], result["R@1"]["worse"]) == (1, 0)
    assert (result["R@5"]["better"], result["R@5"]["worse"]) == (0, 1)
    assert result["R@1"]["n"] == 3


def test_the_same_runs_plain_e5_can_be_the_reference(tmp_path: Path) -> None:
    pr = _paired()
    run = _memory_run(tmp_path / "run.json", [1, 2, None], [2, 1, 1])
    result = pr.compare(pr.per_question(f"{run}:dense"), pr.per_question(run))
    assert (result["R@1"]["better"], result["R@1"]["worse"]) == (1, 2)
    assert result["R@10"]["worse"] == 1


def test_locomo_rows_count_the_share_of_evidence_found(tmp_path: Path) -> None:
    pr = _paired()
    rows = [{"id": "conv-1:1", "category": 1, "wave": {"first": 3, "R@1": 0.0, "R@5": 0.5,
                                                       "R@10": 1.0}}]
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps({"questions_detail": rows}), encoding="utf-8")
    assert pr.per_question(str(path))["conv-1:1"]["R@5"] == 0.5


def test_many_more_gains_than_losses_is_unlikely_by_chance() -> None:
    pr = _paired()
    assert pr.sign_test(12, 1) < 0.01
    assert pr.sign_test(3, 3) == 1.0
