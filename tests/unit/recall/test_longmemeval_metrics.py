"""LongMemEval's retrieval metrics as the benchmark's own evaluation defines them, its dates,
and the fixed split of the dev questions into tuning and kept-aside parts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from wave_agent.bench.longmemeval import load, parse_date, scores_of, split_of
from wave_agent.errors import WaveError


def _question(qid: str, qtype: str, evidence_turns: set[tuple[int, int]]) -> dict[str, object]:
    sessions = [[{"role": "user" if t % 2 == 0 else "assistant",
                  "content": f"session {s} turn {t}", **({"has_answer": True}
                                                         if (s, t) in evidence_turns else {})}
                 for t in range(4)] for s in range(3)]
    return {"question_id": qid, "question_type": qtype, "question": "what did I buy?",
            "question_date": "2023/05/30 (Tue) 23:40", "answer": "a bike",
            "answer_session_ids": sorted({f"s{s}" for s, _ in evidence_turns}),
            "haystack_session_ids": ["s0", "s1", "s2"],
            "haystack_dates": ["2023/05/01 (Mon) 10:00", "2023/05/10 (Wed) 09:30",
                               "2023/05/20 (Sat) 18:05"],
            "haystack_sessions": sessions}


def test_turns_are_dated_by_their_session_and_carry_their_evidence(tmp_path: Path) -> None:
    path = tmp_path / "lme.json"
    path.write_text(json.dumps([_question("q1", "multi-session", {(0, 1), (2, 0)})]))
    (item,) = load(path)
    assert item.asked_at == datetime(2023, 5, 30, 23, 40, tzinfo=UTC)
    assert item.evidence == ("s0:1", "s2:0")
    assert item.turns[4].id == "s1:0" and item.turns[4].at == datetime(2023, 5, 10, 9, 30,
                                                                       tzinfo=UTC)
    assert item.turns[5].at.second == 30 and item.turns[5].role == "assistant"
    with pytest.raises(WaveError, match="dates look like"):
        parse_date("30 May 2023")


def test_recall_any_all_sessions_and_ndcg_of_a_ranking(tmp_path: Path) -> None:
    path = tmp_path / "lme.json"
    path.write_text(json.dumps([_question("q1", "multi-session", {(0, 1), (2, 0)})]))
    (item,) = load(path)
    # one evidence turn first, the other seventh
    ranked = ["s0:1", "s1:0", "s1:1", "s1:2", "s1:3", "s0:0", "s2:0"]
    got = scores_of(ranked, item)
    assert got["R@1"] == 1.0 and got["MRR"] == 1.0
    assert got["turn_any@5"] == 1.0 and got["turn_all@5"] == 0.0
    assert got["turn_all@10"] == 1.0
    assert got["session_any@5"] == 1.0 and got["session_all@5"] == 0.0
    assert got["session_all@10"] == 1.0
    ideal = 1 + 1 / 1.5849625  # both evidence turns in the first two places
    assert got["NDCG@10"] == pytest.approx((1 + 1 / 3.0) / ideal)
    nothing = scores_of(["s1:0"], item)
    assert nothing["turn_any@10"] == nothing["MRR"] == nothing["NDCG@10"] == 0.0


def test_the_split_keeps_three_of_each_type_aside_whatever_the_file_order() -> None:
    ids = [f"q{n}" for n in range(10)] + ["q3_abs"]
    held = [q for q in ids if split_of(q, "temporal-reasoning", ids) == "held"]
    assert len(held) == 3 and "q3_abs" not in held
    shuffled = list(reversed(ids))
    assert set(held) == {q for q in shuffled
                         if split_of(q, "temporal-reasoning", shuffled) == "held"}


def test_a_step_switched_off_is_asked_by_its_recall_setting() -> None:
    """``--also-config``: a variant names RecallConfig fields and typed values; a setting
    recall does not have is refused with the fields it does have, not silently ignored."""
    from wave_agent.bench.longmemeval import parse_variant
    from wave_agent.recall import RecallConfig

    name, overrides = parse_variant("plain:newer_first=none,learned_mmr_lambda=1.0,ranker=fusion")
    assert name == "plain"
    config = RecallConfig(**overrides)
    assert config.newer_first is None
    assert config.learned_mmr_lambda == 1.0
    assert config.ranker == "fusion"
    name, overrides = parse_variant(
        "bare:entity_first=false,attribute_first=false,replaced_first=false,mmr_copies=false")
    steps = RecallConfig(**overrides)
    assert not (steps.entity_first or steps.attribute_first or steps.replaced_first
                or steps.mmr_copies)
    assert RecallConfig().entity_first and RecallConfig().mmr_copies  # today's steps by default
    with pytest.raises(WaveError, match="newest_first"):
        parse_variant("x:newest_first=none")
    with pytest.raises(WaveError):
        parse_variant("nothing-set")
