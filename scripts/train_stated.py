"""Train the stated-attribute heads of recall (``wave_agent/recall/stated.py``) and write
``stated.npz``: for each single-valued attribute of the person, a logistic regression (C=16,
balanced classes) over the e5 passage vector of a message, positive when its writer labelled it
as setting the person's value of that attribute.

Data: every message of the tuning months (``bench/data/month/tuning*.json``, one author each;
kept-aside months are never read). ``--without tuning_N [...]`` leaves those months' authors out
and writes ``--out`` instead of the package's file (the held-out runs of ``wave bench month``
copy it over ``stated.npz`` in a copy of the tree). ``--held-out`` prints, for each attribute,
leave-one-author-out recall and false positives at the threshold.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python scripts/train_stated.py
    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python scripts/train_stated.py --without tuning_21 --out /tmp/stated-21.npz
    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python scripts/train_stated.py --held-out
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from archive.embedder import Embedder
from wave_agent.recall import stated

ROOT = Path(__file__).resolve().parents[1]
MONTHS = ROOT / "bench/data/month"
THRESHOLD = 0.8  # the write-side trial's operating point (docs/benchmarks.md), not tuned here
C = 16.0


def rows() -> list[tuple[str, str, set[str]]]:
    """(month, text, the person's single-valued attributes it sets) for every message."""
    out = []
    for path in sorted(MONTHS.glob("tuning*.json")):
        for m in json.loads(path.read_text(encoding="utf-8"))["messages"]:
            sets = {s["attribute"] for s in m.get("sets", [])
                    if s["entity"] == "user" and s["op"] in ("set", "add")}
            out.append((path.stem, m["text"], sets & set(stated.ATTRIBUTES)))
    return out


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w = np.zeros((y.shape[1], x.shape[1]), dtype=np.float32)
    b = np.full(y.shape[1], -20.0, dtype=np.float32)  # no positives: never reads it
    for j in range(y.shape[1]):
        if y[:, j].sum() >= 5:
            clf = LogisticRegression(C=C, max_iter=3000, class_weight="balanced").fit(x, y[:, j])
            w[j], b[j] = clf.coef_[0], clf.intercept_[0]
    return w, b


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--without", nargs="*", default=[])
    ap.add_argument("--out", type=Path, default=stated.MODEL)
    ap.add_argument("--held-out", action="store_true")
    ap.add_argument("--each-without", nargs="*", default=[],
                    help="also write /tmp/stated-without-<month>.npz for each month named")
    ap.add_argument("--cache", type=Path, help="keep the messages' vectors in this .npy file")
    args = ap.parse_args()
    data = rows()
    if args.cache is not None and args.cache.exists():
        x = np.load(args.cache)
    else:
        x = Embedder("multilingual-e5-small").embed_sync([t for _, t, _ in data])
        if args.cache is not None:
            np.save(args.cache, x)
    y = np.array([[a in s for a in stated.ATTRIBUTES] for _, _, s in data], dtype=int)
    months = np.array([m for m, _, _ in data])
    for month in args.each_without:
        w, b = fit(x[months != month], y[months != month])
        stated.save(stated.Model(stated.ATTRIBUTES, w, b, THRESHOLD),
                    Path(f"/tmp/stated-without-{month}.npz"))
    if args.held_out:
        p = np.zeros(y.shape)
        for month in sorted(set(months)):
            test = months == month
            w, b = fit(x[~test], y[~test])
            p[test] = 1 / (1 + np.exp(-(x[test] @ w.T + b)))
        said = p >= THRESHOLD
        for j, a in enumerate(stated.ATTRIBUTES):
            pos = y[:, j] == 1
            print(f"{a:9s} labelled {pos.sum():3d}: found {said[pos, j].mean():.1%}, "
                  f"false positives {(said[:, j] & ~pos).sum()} of {(~pos).sum()}")
        return
    keep = ~np.isin(months, args.without)
    w, b = fit(x[keep], y[keep])
    stated.save(stated.Model(stated.ATTRIBUTES, w, b, THRESHOLD), args.out)
    print(f"{args.out}: {int(keep.sum())} messages of {len(set(months[keep]))} months "
          f"(left out: {', '.join(args.without) or 'none'})")


if __name__ == "__main__":
    main()
