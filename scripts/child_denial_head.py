"""Offline check of an idea not built (h/contra27): "детей у меня нет" raises nothing when the
son was never held as the person's child ("Лёву отвела в школу. первоклашка мой": no kin word).
Could the learned statement head (``train_statement_attributes.py``: e5 vector -> which of the
person's attributes a statement sets, one logistic regression each) find the earlier statement
when a class denial of a child or a sibling is read and no such value is held?

For each month of ``train_statement_attributes.HONEST`` (scored by heads fitted without it,
leaving one month out): every labelled contradiction whose later message denies the person's
child or sibling; the head's probability for that attribute on the earlier message (found at a
threshold when at or above it), and how many other statements of the month said before the
denial, labelled with no value of that attribute, score so too (each would be a false alarm if
the step looked at every earlier record; an upper bound: the writer looks only at the nearest).

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/child_denial_head.py

Uses ``train_statement_attributes``'s vector cache (/tmp/wave-statement-vectors.npz) when its
texts match.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import statement_attributes_head as SA  # noqa: E402
import train_statement_attributes as T  # noqa: E402

from wave_agent.bench.month import load  # noqa: E402

THRESHOLDS = (0.5, 0.7, 0.8, 0.9)
DENIED = ("child", "sibling")


def main() -> None:
    months, ids, texts, y = T.statements()
    x = T.vectors(texts)
    group = np.asarray(months)
    at = {(g, i): n for n, (g, i) in enumerate(zip(months, ids, strict=True))}
    found = {t: 0 for t in THRESHOLDS}
    others = {t: 0 for t in THRESHOLDS}
    cases: list[dict[str, object]] = []
    for name in T.HONEST:
        test = group == name
        w, b = T.fit(x[~test], y[~test])
        month = load(T.MONTHS / f"{name}.json")
        order = [m.id for m in month.messages]
        for m in month.messages:
            denied = [s.attribute for s in m.sets if s.entity == "user" and s.op == "negate"
                      and s.attribute in DENIED]
            if not m.contradicts or not denied or (name, m.contradicts) not in at:
                continue
            j = list(SA.HEAD).index(denied[0])
            p = float(1 / (1 + np.exp(-(x[at[(name, m.contradicts)]] @ w[j] + b[j]))))
            before = [i for i in order[:order.index(m.id)] if (name, i) in at
                      and i != m.contradicts and not y[at[(name, i)], j]]
            ps = [float(1 / (1 + np.exp(-(x[at[(name, i)]] @ w[j] + b[j])))) for i in before]
            for t in THRESHOLDS:
                found[t] += p >= t
                others[t] += sum(q >= t for q in ps)
            cases.append({"month": name, "message": m.id, "earlier": m.contradicts,
                          "attribute": denied[0], "p_earlier": round(p, 3),
                          "others_at_0.7": sum(q >= 0.7 for q in ps)})
    print(json.dumps({"cases": len(cases), "found": found, "other earlier statements as sure":
                      others, "each": cases}, indent=1))


if __name__ == "__main__":
    main()
