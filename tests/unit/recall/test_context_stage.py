"""The context stage (``recall.context``): what it reads around a chat turn, where it runs at all,
and that its reorder only moves the pool's values."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.recall import context, kind

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def fact(fid: str, text: str, speaker: str | None, n: int, session: str | None = "s1") -> Fact:
    return Fact(id=fid, user_id="u", text=f"{speaker}: {text}" if speaker else text,
                type=FactType.EVENT, tier=Tier.ARCHIVE, status=Status.ACTIVE,
                veracity=Veracity.STATED, confidence=0.9, created_at=T0 + timedelta(seconds=30 * n),
                last_confirmed_at=T0, speaker=speaker,
                exchange_ids=(session,) if session else ())


CHAT = [fact("a", "How was the trip to Lisbon?", "Ann", 0),
        fact("b", "Great, we saw the tram and ate pastel de nata.", "Bob", 1),
        fact("c", "Did you go to the ocean?", "Bob", 2),
        fact("d", "Yes, on Sunday.", "Ann", 3)]


def test_an_answer_to_the_other_speakers_question_is_read_as_one() -> None:
    facts = {f.id: f for f in CHAT}
    order = ["b", "c", "a", "d"]
    logit = {"a": -2.0, "b": 1.0, "c": 0.0, "d": -3.0}
    f = context.features(order, logit, facts)
    at = {fid: i for i, fid in enumerate(order)}
    assert f["prev_q"][at["b"]] == 1.0, "Ann asked, Bob answers"
    assert f["prev_lo"][at["b"]] == -3.0, "the question's log-odds, less the best"
    assert f["is_q"][at["c"]] == 1.0 and f["is_q"][at["b"]] == 0.0
    assert f["next_lo"][at["a"]] == 0.0, "Bob's reply is the best"
    assert f["prev_q"][at["c"]] == 0.0, "the turn before is the same speaker's? no: Bob's own"
    assert f["nb_max"][at["a"]] == 0.0 and f["lo"][at["d"]] == -4.0
    assert f["lr"][at["b"]] == 0.0


def test_a_neighbour_the_search_did_not_read_counts_as_none() -> None:
    lone = fact("x", "Yes, on Sunday.", "Ann", 9, session="s2")
    f = context.features(["x"], {"x": 0.5}, {"x": lone})
    assert f["prev_q"][0] == 0.0 and f["prev_lo"][0] == context.FLOOR
    assert f["nb_max"][0] == context.FLOOR and f["nb_top"][0] == 0.0


def test_it_runs_only_over_a_chat_between_people() -> None:
    assert not context.between_people([], [])
    notes = [fact(str(i), f"note {i}", None, i, session=None) for i in range(3)]
    assert not context.between_people(notes, []), "a person's notes"
    one = [fact(str(i), f"line {i}", "Ann", i) for i in range(3)]
    assert not context.between_people(one, []), "one speaker"
    with_assistant = [fact("u", "hi", "user", 0), fact("v", "hello", "assistant", 1)]
    assert not context.between_people(with_assistant, []), "a chat with the assistant"
    assert not context.between_people(CHAT, []), "no vectors: read as notes, left alone"
    fitted = kind.weights()
    assert fitted is not None
    w, _ = fitted
    chat_like = [-w / np.linalg.norm(w)] * len(CHAT)  # away from the notes side of recall.kind
    assert context.between_people(CHAT, chat_like), "two people in sessions"
    assert not context.between_people(CHAT, [w / np.linalg.norm(w)] * len(CHAT)), \
        "read as a person's notes by recall.kind"


def test_the_reorder_moves_only_the_pools_values() -> None:
    final = {"a": 0.9, "b": 0.8, "c": 0.7, "z": 0.1}
    out = context.reorder(["a", "b", "c", "z"], final, np.array([0.0, 2.0, 1.0]))
    assert out == {"b": 0.9, "c": 0.8, "a": 0.7}, "the same values, the stage's order"


def test_the_shipped_trees_load_and_lift_an_answer_over_a_question() -> None:
    stage = context.load()
    assert stage is not None and stage.names == context.NAMES and len(stage.trees) > 10
    # two turns as likely by the learned model, side by side in its order: the one answering
    # the other speaker's question and the one that is itself a question
    base = {"lo": [-0.5, -0.5], "lr": [np.log1p(3), np.log1p(4)], "nb_max": [-1.0, -1.0],
            "nb_top": [2.0, 2.0], "prev_q": [1.0, 0.0], "prev_lo": [-1.0, -1.0],
            "is_q": [0.0, 1.0], "next_lo": [-1.0, -1.0]}
    s = stage.score({k: np.asarray(v) for k, v in base.items()})
    assert s[0] > s[1]


def test_the_turns_before_and_after_as_read_are_handed_back() -> None:
    facts = {f.id: f for f in CHAT}
    links: dict[str, tuple[str | None, str | None]] = {}
    context.features(["b", "d", "a"], {"a": -2.0, "b": 1.0, "d": -3.0}, facts, links)
    assert links["b"] == ("a", "c") and links["a"] == (None, "b")
    assert links["d"] == ("c", None), "the last turn read has none after it"
    gap = {f.id: f for f in CHAT if f.id != "c"}  # the search never read Bob's question
    links.clear()
    context.features(["d"], {"d": 0.0}, gap, links)
    assert links["d"] == ("b", None), "the turn before as read, two turns back in the chat"


def test_a_refitted_stage_is_loaded_from_its_own_file(tmp_path: Path) -> None:
    shipped = context.load()
    assert shipped is not None
    flat = {"features": list(context.NAMES), "intercept": 0.25, "trees": []}
    path = tmp_path / "refit.json"
    path.write_text(json.dumps(flat), encoding="utf-8")
    refit = context.load(path)
    assert refit is not None and refit is not shipped and not refit.trees
    assert context.load() is shipped, "the shipped stage is still the default"
    z = {n: np.zeros(3) for n in context.NAMES}
    assert refit.score(z).tolist() == [0.25, 0.25, 0.25]
