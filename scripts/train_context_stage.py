"""Fit the context stage (``wave_agent/recall/context.py``) on LoCoMo's five tuning conversations
and write ``wave_agent/recall/context.json`` (``learned.Tree``'s format, no pickle).

The rows are ``scripts/locomo_context_rerank.py``'s (a saved LoCoMo run's features, the
shipped order replayed); only the tuning conversations' rows are fitted, the kept-aside pair
(conv-26, conv-30) is not read. Gradient-boosted trees (depth 3, 60 rounds, rate 0.1, 40 rows a
leaf, no early stopping: the same trees on every run).

    PYTHONPATH=. python scripts/train_context_stage.py --features F.jsonl --data DIR \
        [--cache rows.pkl] [--write]

``--engine-rows F.context.jsonl`` fits instead on the rows the engine itself computed over a
LoCoMo run of the tuning conversations (``wave bench locomo --features F.jsonl`` keeps them
beside ``F.jsonl``): the turns around each candidate are the ones the search read, not the
whole conversation's. ``--adjacency`` counts, per candidate, whether the engine's turn before
and after are the conversation's adjacent turns, missing, or a turn further away. ``--out``
writes the trees elsewhere (a benchmark asks them with ``context_model=PATH``).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from locomo_context_rerank import read  # noqa: E402

from wave_agent.recall import context, learned  # noqa: E402


def fit(tune: list[dict[str, Any]], rounds: int = 60) -> dict[str, Any]:
    from sklearn.ensemble import HistGradientBoostingClassifier

    names = context.NAMES
    items = [d for d in tune if d["feat"] is not None and d["label"].any()]
    x = np.vstack([np.stack([d["feat"][n] for n in names], axis=1) for d in items])
    y = np.concatenate([d["label"] for d in items])
    model = HistGradientBoostingClassifier(max_depth=3, max_iter=rounds, learning_rate=0.1,
                                           min_samples_leaf=40, early_stopping=False,
                                           random_state=0).fit(x, y)
    trees = learned.exported_trees(model)
    stage = {"features": list(names),
             "intercept": float(np.ravel(model._baseline_prediction)[0]), "trees": trees,
             "rounds": rounds, "depth": 3,
             "trained_on": {"conversations": sorted({d["group"] for d in items}),
                            "questions": len(items), "candidates": len(y),
                            "positives": int(y.sum())}}
    # the exported trees must score as sklearn does
    check = context.Stage.from_json(stage).score({n: x[:, i] for i, n in enumerate(names)})
    assert np.allclose(check, model.decision_function(x), atol=1e-4), "export differs"
    return stage


def engine_rows(path: Path) -> list[dict[str, Any]]:
    """Rows from ``FeatureLog``'s context file: one per question, labels from the evidence."""
    data: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            q = json.loads(line)
            answers = set(q["answers"])
            label = np.array([1.0 if answers & set(k) else 0.0 for k in q["keys"]])
            feat = {n: np.asarray(q["features"][n], dtype=np.float64) for n in context.NAMES}
            data.append({"group": q["group"], "split": q["split"], "feat": feat,
                         "label": label, "keys": q["keys"], "prev": q["prev"],
                         "next": q["next"], "answers": q["answers"]})
    return data


def _turn(key: str) -> tuple[str, int] | None:
    """LoCoMo's dialogue id ("D3:12") as (session, turn)."""
    session, sep, n = key.partition(":")
    return (session, int(n)) if sep and n.isdigit() else None


def adjacency(data: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """How the engine's turn before / after each candidate stands to the conversation's:
    ``adjacent`` (the next or previous dialogue id), ``missing`` (none read in the session),
    ``gap`` (a turn further away), ``first`` / ``last`` (none exists; counted only when
    missing: a session's length is not in the rows), apart for evidence candidates."""
    out: dict[str, dict[str, int]] = {}
    for d in data:
        for i, keys in enumerate(d["keys"]):
            own = next((t for t in map(_turn, keys) if t), None)
            if own is None:
                continue
            for side, step in (("prev", -1), ("next", 1)):
                other = next((t for t in map(_turn, d[side][i]) if t), None)
                if other is None:
                    kind = "first" if side == "prev" and own[1] == 1 else "missing"
                elif other == (own[0], own[1] + step):
                    kind = "adjacent"
                else:
                    kind = "gap"
                for who in ("all", "evidence" if d["label"][i] else "other"):
                    tally = out.setdefault(f"{d['split']}:{who}:{side}", {})
                    tally[kind] = tally.get(kind, 0) + 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, help="a LoCoMo run's --features (replayed)")
    parser.add_argument("--data", type=Path, help="LoCoMo's directory (with --features)")
    parser.add_argument("--cache", type=Path, help="locomo_context_rerank.py's rows (pickle)")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--engine-rows", type=Path,
                        help="fit on the engine's own rows (a --features run's .context.jsonl)")
    parser.add_argument("--adjacency", action="store_true",
                        help="with --engine-rows: count the engine's neighbours, do not fit")
    parser.add_argument("--out", type=Path, help="write the trees here instead")
    args = parser.parse_args()
    if args.engine_rows:
        data = engine_rows(args.engine_rows)
        if args.adjacency:
            print(json.dumps(adjacency(data), indent=1, sort_keys=True))
            return
    elif args.cache and args.cache.exists():
        data = pickle.loads(args.cache.read_bytes())
    else:
        if args.features is None or args.data is None:
            parser.error("--features and --data, or --engine-rows")
        data = read(args.features, args.data)
    tune = [d for d in data if d["split"] == "tune"]
    stage = fit(tune)
    print(json.dumps(stage["trained_on"]))
    if args.engine_rows:
        stage["trained_on"]["rows"] = "engine"
    if args.write or args.out:
        target = args.out or context.MODEL
        target.write_text(json.dumps(stage), encoding="utf-8")
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
