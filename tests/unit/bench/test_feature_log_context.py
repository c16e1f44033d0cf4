"""``--features``: beside the ranker's rows, the context stage's rows as the engine computed them
(the turn before and after each candidate as the search read them), for the stage's refit."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from tests.unit.recall.test_context_stage import CHAT
from wave_agent.bench.features import FeatureLog
from wave_agent.recall import context


def test_the_engines_context_rows_are_kept_beside_the_features(tmp_path: Path) -> None:
    log = FeatureLog(tmp_path / "run.features.jsonl")
    assert log.context_path == tmp_path / "run.features.context.jsonl"
    facts = {f.id: f for f in CHAT}
    keys = {"a": ("D1:1",), "b": ("D1:2",), "c": ("D1:3",), "d": ("D1:4",)}
    order = ["b", "d", "a"]
    links: dict[str, tuple[str | None, str | None]] = {}
    feats = context.features(order, {"a": -2.0, "b": 1.0, "d": -3.0}, facts, links)
    c = SimpleNamespace(facts=facts)
    observer = log.context_observer
    assert observer is not None
    observer(c, order, feats, links)  # type: ignore[arg-type]
    assert not log.context_path.exists(), "a warm-up search (no question asked) is not kept"
    log.ask(lambda f: keys[f.id], set="locomo", id="conv-x:1", split="tune", group="conv-x",
            metric="share", answers=["D1:2"])
    observer(c, order, feats, links)  # type: ignore[arg-type]
    observer(c, order, feats, links)  # type: ignore[arg-type]
    lines = log.context_path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1, "only the question's own search"
    row = json.loads(lines[0])
    assert row["keys"] == [["D1:2"], ["D1:4"], ["D1:1"]]
    assert row["prev"] == [["D1:1"], ["D1:3"], []] and row["next"] == [["D1:3"], [], ["D1:2"]]
    assert np.allclose(row["features"]["prev_q"], feats["prev_q"])
    assert FeatureLog(None).context_observer is None
