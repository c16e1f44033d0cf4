"""Whether a LoCoMo question's answer spans several sessions, read from its e5 vector alone
(issue 31, h/recall27): a logistic regression over the standardised question vectors, each
tuning conversation left out in turn (held ones scored by the fit on all five tuning ones).
Writes ``--out`` (question id -> probability), which ``session_spread.py --gate`` reads, and
prints the left-out AUC on the tuning part.

    PYTHONPATH=. python scripts/locomo_question_spans.py --data DIR --out P.json [--vectors V.npz]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def _embed(data: Path) -> dict[str, np.ndarray]:
    from archive.embedder import Embedder
    from wave_agent.bench.locomo import split_of
    from wave_agent.bench.locomo_data import load_conversations
    from wave_agent.recall import adapter

    e = Embedder(adapter.READS)
    await e.load()
    ids, split, nsess, vecs = [], [], [], []
    for conv in load_conversations(data):
        for n, q in enumerate(conv.questions, 1):
            ids.append(f"{conv.name}:{n}")
            split.append(split_of(conv.name))
            nsess.append(len({x.split(":")[0] for x in q.evidence}))
            vecs.append((await e.embed_query([q.text]))[0])
    return {"ids": np.array(ids), "split": np.array(split), "nsess": np.array(nsess),
            "v": np.stack(vecs).astype(np.float32)}


def main() -> None:
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--vectors", type=Path, default=None, help="cache of the question vectors")
    parser.add_argument("--c", type=float, default=0.01)
    args = parser.parse_args()
    if args.vectors and args.vectors.exists():
        with np.load(args.vectors) as f:
            d = {k: f[k] for k in ("ids", "split", "nsess", "v")}
    else:
        d = asyncio.run(_embed(args.data))
        if args.vectors:
            np.savez(args.vectors, **d)
    ids, split, v = d["ids"], d["split"], d["v"]
    y = (d["nsess"] > 1).astype(int)
    conv = np.array([i.split(":")[0] for i in ids])
    tune = split == "tune"
    z = (v - v[tune].mean(0)) / v[tune].std(0)
    p = np.zeros(len(y))
    for c in np.unique(conv[tune]):
        tr, te = tune & (conv != c), conv == c
        p[te] = LogisticRegression(C=args.c, max_iter=3000).fit(z[tr], y[tr]).predict_proba(
            z[te])[:, 1]
    p[~tune] = LogisticRegression(C=args.c, max_iter=3000).fit(z[tune], y[tune]).predict_proba(
        z[~tune])[:, 1]
    print(f"tuning questions {int(tune.sum())}, spanning sessions {100 * y[tune].mean():.1f}%; "
          f"left-out AUC {roc_auc_score(y[tune], p[tune]):.3f}")
    args.out.write_text(json.dumps({i: float(x) for i, x in zip(ids, p, strict=True)}))


if __name__ == "__main__":
    main()
