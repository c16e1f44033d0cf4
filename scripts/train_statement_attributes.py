"""Train the head that says which of the person's own attributes a statement sets
(``statement_attributes_head.py`` beside this script: tried in round twenty-five as a gate and
as a fill, neither shipped) and write it as an ``.npz`` (no pickle).

Data: every statement of the honest months (``bench/data/month/tuning_2`` .. ``tuning_24``,
one author each; ``tuning.json`` was written with Wave's code, kept-aside months are never
read). Features: the e5 passage vector of the message (multilingual-e5-small, as the writer
embeds it). Labels: for each attribute of ``HEAD``, whether the message's ``sets`` hold a ``set``
or ``add`` of it for ``user``. One logistic regression per attribute.

Everything is measured leaving one month (one author) out: each month's statements are scored
by heads trained on the other months. ``--oof FILE`` writes those out-of-fold probabilities
(for ``scripts/attribute_reader_eval.py --learned FILE``, the reader's figures held out by
author); ``--without tuning_23,tuning_24`` trains the written file without those months (the model
a month bench replayed them with, to measure them held out: round twenty-five copied the tree at
f644132 (the gate) or d691cbb (the fill) and wrote it to that copy's
``wave_agent/world/statement_attributes.npz``).

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/train_statement_attributes.py [--oof FILE]
        [--without tuning_23,tuning_24] --out PATH [--write-only]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archive.embedder import Embedder  # noqa: E402
from wave_agent.bench.month import load  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
import statement_attributes_head as SA  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"
HONEST = [f"tuning_{i}" for i in range(2, 25)]
CACHE = Path("/tmp/wave-statement-vectors.npz")
C = 1.0


def statements() -> tuple[list[str], list[str], list[str], np.ndarray]:
    months, ids, texts, labels = [], [], [], []
    for name in HONEST:
        for m in load(MONTHS / f"{name}.json").messages:
            if m.kind != "statement":
                continue
            said = {s.attribute.split(":")[0] for s in m.sets
                    if s.entity == "user" and s.op in ("set", "add")}
            months.append(name)
            ids.append(m.id)
            texts.append(m.text)
            labels.append([a in said for a in SA.HEAD])
    return months, ids, texts, np.asarray(labels, dtype=np.int8)


def vectors(texts: list[str]) -> np.ndarray:
    """The texts' e5 vectors, cached by the texts' hash (embedding them all takes minutes)."""
    key = hashlib.sha256("\n".join(texts).encode()).hexdigest()
    if CACHE.exists():
        cached = np.load(CACHE)
        if str(cached["key"]) == key:
            return np.asarray(cached["x"])
    x = Embedder(SA.READS).embed_sync(texts)
    np.savez(CACHE, key=key, x=x)
    return np.asarray(x)


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    weights, bias = [], []
    for j in range(y.shape[1]):
        model = LogisticRegression(C=C, max_iter=3000, class_weight="balanced").fit(x, y[:, j])
        weights.append(model.coef_[0])
        bias.append(model.intercept_[0])
    return np.asarray(weights, dtype=np.float32), np.asarray(bias, dtype=np.float32)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--oof", type=Path, help="write the out-of-fold probabilities here")
    ap.add_argument("--without", default="", help="months left out of the shipped file")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--write-only", action="store_true", help="skip the held-out figures")
    args = ap.parse_args()
    months, ids, texts, y = statements()
    x = vectors(texts)
    group = np.asarray(months)
    oof = np.zeros(y.shape, dtype=np.float32)
    for name in [] if args.write_only else HONEST:
        test = group == name
        w, b = fit(x[~test], y[~test])
        oof[test] = 1 / (1 + np.exp(-(x[test] @ w.T + b)))
    print(f"{len(texts)} statements of {len(HONEST)} months; leave one month out:")
    print("| attribute | positives | AUC | precision at 0.5 | recall at 0.5 | "
          "precision at 0.8 | recall at 0.8 |")
    print("|---|---|---|---|---|---|---|")
    for j, attribute in enumerate([] if args.write_only else SA.HEAD):
        pos = int(y[:, j].sum())
        row = [attribute, str(pos), f"{roc_auc_score(y[:, j], oof[:, j]):.3f}"]
        for t in (0.5, 0.8):
            said = oof[:, j] >= t
            hit = int((said & (y[:, j] == 1)).sum())
            row += [f"{hit}/{int(said.sum())}", f"{hit}/{pos}"]
        print("| " + " | ".join(row) + " |")
    if args.oof:
        np.savez(args.oof, months=group, ids=np.asarray(ids), p=oof,
                 attributes=np.asarray(list(SA.HEAD)))
    keep = ~np.isin(group, [m for m in args.without.split(",") if m])
    w, b = fit(x[keep], y[keep])
    SA.save(args.out, w, b)
    print(f"wrote {args.out} ({int(keep.sum())} statements)")


if __name__ == "__main__":
    main()
