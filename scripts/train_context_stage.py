"""Fit the context stage (``wave_agent/recall/context.py``) on LoCoMo's five tuning conversations
and write ``wave_agent/recall/context.json`` (``learned.Tree``'s format, no pickle).

The rows are ``scripts/locomo_context_rerank.py``'s (a saved LoCoMo run's features, the
shipped order replayed); only the tuning conversations' rows are fitted, the kept-aside pair
(conv-26, conv-30) is not read. Gradient-boosted trees (depth 3, 60 rounds, rate 0.1, 40 rows a
leaf, no early stopping: the same trees on every run).

    PYTHONPATH=. python scripts/train_context_stage.py --features F.jsonl --data DIR \
        [--cache rows.pkl] [--write]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--cache", type=Path, help="locomo_context_rerank.py's rows (pickle)")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.cache and args.cache.exists():
        data = pickle.loads(args.cache.read_bytes())
    else:
        data = read(args.features, args.data)
    tune = [d for d in data if d["split"] == "tune"]
    stage = fit(tune)
    print(json.dumps(stage["trained_on"]))
    if args.write:
        context.MODEL.write_text(json.dumps(stage), encoding="utf-8")
        print(f"wrote {context.MODEL}")


if __name__ == "__main__":
    main()
