"""Score the context stage over the engine's own rows (``wave bench locomo --features F.jsonl``
keeps them in ``F.context.jsonl``): R@1 / R@5 / R@10 of the learned order's first
``context.POOL`` as the engine had them, before MMR and the steps after the order, and of the
same pool reordered by a stage (the shipped one, a file, or trees fitted on the tuning
conversations' rows each left out), so the replay's figure and the engine's can be told apart.

    PYTHONPATH=. python scripts/context_engine_rows.py --rows F.context.jsonl \
        [--stage context.json ...] [--loo]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_context_stage import engine_rows, fit  # noqa: E402

from wave_agent.recall import context  # noqa: E402

KS = (1, 5, 10)


def recall_at(d: dict[str, Any], order: np.ndarray) -> list[float]:
    answers = set(d["answers"])
    out = []
    for k in KS:
        found = set().union(*(set(d["keys"][i]) for i in order[:k])) if k else set()
        out.append(len(answers & found) / len(answers))
    return out


def score(data: list[dict[str, Any]], stage: context.Stage | None) -> np.ndarray:
    rows = []
    for d in data:
        n = len(d["keys"])
        if stage is None:
            order = np.arange(n)
        else:
            order = np.argsort(-stage.score(d["feat"]), kind="stable")
        rows.append(recall_at(d, order))
    return 100 * np.asarray(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=Path, required=True)
    parser.add_argument("--stage", type=Path, action="append", default=[])
    parser.add_argument("--loo", action="store_true",
                        help="trees fitted on the other tuning conversations' rows, each left out")
    args = parser.parse_args()
    data = engine_rows(args.rows)
    groups = sorted({d["group"] for d in data})
    base = score(data, None)

    def show(name: str, got: np.ndarray) -> None:
        mean = " / ".join(f"{v:.1f}" for v in got.mean(axis=0))
        ups = "; ".join(f"+{int((got[:, j] > base[:, j] + 1e-9).sum())} / "
                        f"-{int((got[:, j] < base[:, j] - 1e-9).sum())}" for j in range(3))
        print(f"{name:<28} {mean}   up/down R@1; R@5; R@10: {ups}")

    print(f"{len(data)} questions, {', '.join(groups)}")
    show("engine order (pool)", base)
    for path in args.stage:
        show(path.name, score(data, context.load(path)))
    if args.loo:
        got = np.zeros_like(base)
        for g in groups:
            train = [d for d in data if d["group"] != g]
            stage = context.Stage.from_json(fit(train))
            idx = [i for i, d in enumerate(data) if d["group"] == g]
            got[idx] = score([data[i] for i in idx], stage)
        show("engine rows, each left out", got)


if __name__ == "__main__":
    main()
