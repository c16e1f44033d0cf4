"""A change read by meaning, measured and not shipped (h/month22): could a head over a
statement's e5 vector say which of the person's single-valued attributes it sets, where the
attribute reader reads none, well enough for the writer to replace the held record?

Data: every message of the tuning months (``bench/data/month/tuning*.json``, one author each;
the kept-aside months are never read), labelled by its writer with the values it sets. For
each attribute (city, employer, role, partner, phone, age, diet, vehicle, price, device) a
logistic regression (C=16, balanced) over the e5 passage vector of the message, trained
leave-one-month-out: each month's probabilities come from a head that never saw its author.

Printed: (1) each head's out-of-author recall and false positives by threshold; (2) a
simulation of the writer's step: a message the head reads as attribute A (p >= 0.7 / 0.8 /
0.9) that the reader does not, while the person holds A (by the labels before it), not
naming the held value, with news (``tells_news``) or, for a price, another amount: how many
are labelled changes of A (right) and how many are not (a held value wrongly replaced);
(3) for a price, whether the held price nearest in e5 (rent, lessons, a subscription ...) is
the one the message changes.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/month_meaning_head.py [--cache /tmp/m22w]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archive.embedder import Embedder  # noqa: E402
from wave_agent.bench.month import holds, load, numbers_of  # noqa: E402
from wave_agent.world import read_many  # noqa: E402
from wave_agent.world.attributes import as_said, read_values  # noqa: E402
from wave_agent.write.attributes import tells_news  # noqa: E402

ATT = ["city", "employer", "role", "partner", "phone", "age", "diet", "vehicle", "price",
       "device"]
HEAD = ["city", "employer", "role", "partner", "phone", "diet", "vehicle", "price"]
MONTHS = ["tuning"] + [f"tuning_{i}" for i in range(2, 21)]


def base(attribute: str) -> str:
    return "price" if attribute.startswith("price") else attribute


async def data(cache: Path) -> tuple[list[dict], np.ndarray, list[list[str]]]:
    if (cache / "rows.json").exists():
        rows = json.loads((cache / "rows.json").read_text())
        vectors = np.load(cache / "vec.npy")
    else:
        rows = []
        for name in MONTHS:
            for m in load(ROOT / "bench/data/month" / f"{name}.json").messages:
                rows.append({"month": name, "id": m.id, "lang": m.lang, "text": m.text,
                             "kind": m.kind, "contradicts": m.contradicts,
                             "sets": [{"entity": s.entity, "attribute": s.attribute,
                                       "value": s.value, "op": s.op} for s in m.sets]})
        vectors = np.asarray(await Embedder("multilingual-e5-small").embed(
            [r["text"] for r in rows]), dtype=np.float32)
        cache.mkdir(parents=True, exist_ok=True)
        (cache / "rows.json").write_text(json.dumps(rows, ensure_ascii=False))
        np.save(cache / "vec.npy", vectors)
    readings = await read_many([as_said(r["text"]) for r in rows])
    reads = [sorted({base(v.attribute) for v in read_values(r["text"], x) if v.entity == "user"})
             for r, x in zip(rows, readings, strict=True)]
    return rows, vectors, reads


def out_of_author(rows: list[dict], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    y = np.array([[a in {base(s["attribute"]) for s in r["sets"] if s["entity"] == "user"
                         and s["op"] in ("set", "add")} for a in ATT] for r in rows], dtype=int)
    p = np.zeros(y.shape)
    for month in MONTHS:
        test = np.array([r["month"] == month for r in rows])
        for j in range(len(ATT)):
            if y[~test, j].sum() < 5:
                continue
            clf = LogisticRegression(C=16, max_iter=2000, class_weight="balanced")
            p[test, j] = clf.fit(x[~test], y[~test, j]).predict_proba(x[test])[:, 1]
    return y, p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", type=Path, default=Path("/tmp/m22w"))
    args = ap.parse_args()
    rows, x, reads = asyncio.run(data(args.cache))
    y, p = out_of_author(rows, x)
    print("(1) head by attribute: threshold, recall of the labelled, false positives")
    for j, a in enumerate(ATT):
        pos = y[:, j] == 1
        print(f"  {a:9s} n={pos.sum():3d} " + "  ".join(
            f"{t}: {(p[:, j] >= t)[pos].mean():.2f}/{((p[:, j] >= t) & ~pos).sum()}"
            for t in (0.7, 0.8, 0.9)))
    print("(2) the writer's step simulated: right / wrong replacements")
    for t in (0.7, 0.8, 0.9):
        count: collections.Counter[str] = collections.Counter()
        truth: dict[str, list[str]] = {}
        month = None
        for i, r in enumerate(rows):
            if r["month"] != month:
                truth, month = {}, r["month"]
            said = {base(s["attribute"]): s for s in r["sets"]
                    if s["entity"] == "user" and s["op"] in ("set", "add")}
            if r["kind"] != "question" and not r["text"].rstrip().endswith("?"):
                for a in HEAD:
                    held = truth.get(a)
                    if p[i, ATT.index(a)] < t or a in reads[i] or not held or any(
                            holds(r["text"], v, a) for v in held):
                        continue
                    if a == "price":
                        amounts = numbers_of(r["text"])
                        if not amounts or all(amounts <= numbers_of(v) for v in held):
                            continue
                    elif not tells_news(r["text"]):
                        continue
                    s = said.get(a)
                    right = s and s["op"] == "set" and not any(
                        holds(v, s["value"], s["attribute"]) for v in held)
                    kind = ("contradiction" if r["contradicts"] else "right") if right else "wrong"
                    count[kind] += 1
                    count[f"{kind} {a}"] += 1
            for s in r["sets"]:
                if s["entity"] == "user" and s["op"] == "set":
                    truth[base(s["attribute"])] = [s["value"]]
        print(f"  p >= {t}: {dict(sorted(count.items()))}")
    print("(3) a price read by meaning: is the nearest held price the one it changes? (p >= 0.8)")
    count = collections.Counter()
    month = None
    for i, r in enumerate(rows):
        if r["month"] != month:
            prices, month = {}, r["month"]
        if (r["kind"] != "question" and p[i, ATT.index("price")] >= 0.8 and "price" not in reads[i]
                and prices):
            amounts = numbers_of(r["text"])
            if amounts and not any(amounts <= numbers_of(v) for v, _ in prices.values()):
                nearest = max(prices, key=lambda k: float(x[i] @ x[prices[k][1]]))
                labelled = [s["attribute"] for s in r["sets"] if s["entity"] == "user"
                            and s["attribute"].startswith("price")]
                count["right service" if nearest in labelled else
                      "another service" if labelled else "no price change"] += 1
        for s in r["sets"]:
            if s["entity"] == "user" and s["attribute"].startswith("price") and s["op"] == "set":
                prices[s["attribute"]] = (s["value"], i)
    print(f"  {dict(count)}")


if __name__ == "__main__":
    main()
