"""``wave bench locomo --details`` keeps each question's ranks, so two runs can be compared
question by question (round twenty could only compare means over 231 questions)."""

from __future__ import annotations

from wave_agent.bench.locomo import Tally


def test_each_question_keeps_every_systems_first_rank_and_share_found() -> None:
    tally = Tally()
    row = tally.question(
        "conv-1:7", 2, ["D1:3", "D2:5"],
        {"wave": [("D9:1",), ("D2:5",), ("D1:3", "D1:4")],
         "dense": [("D9:1",), ("D8:2",)]},
        "When did Caroline go to the support group?")
    assert row["wave"]["first"] == 2
    assert row["wave"]["R@1"] == 0.0
    assert row["wave"]["R@5"] == 1.0
    assert row["dense"]["first"] is None
    assert row["dense"]["R@10"] == 0.0
    assert tally.questions == [row]
    assert row["category"] == 2 and row["id"] == "conv-1:7"


def test_a_record_holding_half_the_evidence_counts_half() -> None:
    row = Tally().question("conv-1:1", 1, ["D1:1", "D1:2"], {"wave": [("D1:1",)]})
    assert row["wave"] == {"first": 1, "R@1": 0.5, "R@5": 0.5, "R@10": 0.5,
                           "within_10": ["D1:1"]}


def test_a_miss_at_ten_can_be_read_turn_by_turn() -> None:
    """``scripts/locomo_misses.py`` asks which of a question's evidence turns Wave missed: the
    row names the ones within ten, the eleventh record's turn not among them."""
    ranked = [(f"D9:{n}",) for n in range(10)] + [("D1:2",)]
    row = Tally().question("conv-1:2", 1, ["D1:1", "D9:3", "D1:2"], {"wave": ranked})
    assert row["wave"]["within_10"] == ["D9:3"]
