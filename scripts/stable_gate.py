"""Gate the attribute step by what the question is: a question about now, or a fact that never
changed? Measured, leaving one author out (issue 31, round twenty-eight, h/recall25).

A logistic regression over the question's e5 vector (what recall embeds), labelled from the
sets' own kinds: memory sets ``current`` 1, ``paraphrase`` 0 (``two`` left out); the month sets
``current`` 1, ``stable`` 0 (``history`` left out). One author is ``N`` of ``memory-ru-N``,
``memory-pl-N`` and ``month/tuning_N.json`` together; each is scored by a model fitted on the
others. Prints the held-out accuracy per source and kind, and, for each ``--details`` file of
``scripts/paraphrase_steps.sh`` in DIR, what the engine would rank if the attribute step ran
only on questions read as about now: Wave's rank where it does, the ``wave-noattr`` side's
where it does not (the step is the last step but the history one, so that side is exactly the
engine without it, asked in the same run).

    python scripts/stable_gate.py /tmp/r25

``--save PATH`` fits the gate on every author (or all but ``--leave-out N,M,...``) and writes
it as the shipped head (``wave_agent/recall/now_gate.npz``, read by ``asked.p_now``; round
thirty-one, h/gate31):

    python scripts/stable_gate.py --save wave_agent/recall/now_gate.npz
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "bench" / "data"


def author_of(name: str) -> str:
    m = re.search(r"(\d+)$", name)
    return m.group(1) if m else "1"


def examples() -> list[tuple[str, int, str, str, str]]:
    """(text, label, author, source, kind)."""
    out = []
    for d in sorted(DATA.glob("memory-*")):
        if not (d / "questions.jsonl").exists():
            continue
        for line in (d / "questions.jsonl").read_text().splitlines():
            q = json.loads(line)
            if q["kind"] in ("current", "paraphrase"):
                out.append((q["text"], int(q["kind"] == "current"), author_of(d.name),
                            d.name, q["kind"]))
    for f in sorted((DATA / "month").glob("tuning*.json")):
        data = json.loads(f.read_text())
        for cp in data["checkpoints"]:
            for q in cp["questions"]:
                if q["kind"] in ("current", "stable"):
                    out.append((q["text"], int(q["kind"] == "current"), author_of(f.stem),
                                "month", q["kind"]))
    return out


def within(rank: Any, k: int) -> bool:
    return rank is not None and rank <= k


def main() -> None:
    from sklearn.linear_model import LogisticRegression

    from archive.embedder import Embedder
    from wave_agent.recall import asked

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory", type=Path, nargs="?")
    ap.add_argument("--save", type=Path, help="fit on every author and write the gate here")
    ap.add_argument("--leave-out", default="",
                    help="with --save: these authors (N of memory-ru-N, month tuning_N) not fitted")
    ap.add_argument("--c", type=float, default=1.0)
    ap.add_argument("--threshold", type=float, default=0.5,
                    help="the step runs where P(about now) is at least this")
    args = ap.parse_args()
    rows = examples()
    texts = sorted({r[0] for r in rows})
    vectors = dict(zip(texts, Embedder(asked.READS).embed_query_sync(texts), strict=True))
    x = np.stack([vectors[r[0]] for r in rows])
    y = np.array([r[1] for r in rows])
    authors = np.array([r[2] for r in rows])
    if args.save is not None:
        keep = ~np.isin(authors, [a for a in args.leave_out.split(",") if a])
        fit = LogisticRegression(C=args.c, max_iter=2000).fit(x[keep], y[keep])
        asked.save_now_gate(fit.coef_[0], float(fit.intercept_[0]), args.save)
        print(f"{args.save}: fitted on {int(keep.sum())} questions of"
              f" {len(set(authors[keep]))} authors (left out: {args.leave_out or 'none'})")
        return
    if args.directory is None:
        ap.error("a directory of --details files, or --save")
    held: dict[tuple[str, str], float] = {}  # (source, text) -> P(about now), author left out
    for a in sorted(set(authors)):
        fit = LogisticRegression(C=args.c, max_iter=2000).fit(x[authors != a], y[authors != a])
        p = fit.predict_proba(x[authors == a])[:, 1]
        for r, pr in zip([r for r in rows if r[2] == a], p, strict=True):
            held[(r[3], r[0])] = float(pr)
    acc: dict[tuple[str, str], Counter[bool]] = defaultdict(Counter)
    for text, label, _a, source, kind in rows:
        src = "month" if source == "month" else source.split("-")[1]
        acc[(src, kind)][(held[(source, text)] >= args.threshold) == bool(label)] += 1
    print("held-out author, read right / all:")
    for key, c in sorted(acc.items()):
        print(f"  {key[0]:6s} {key[1]:10s} {c[True]:5d} / {sum(c.values()):5d}"
              f"  ({100 * c[True] / sum(c.values()):.1f}%)")
    totals: dict[str, list[Any]] = defaultdict(list)  # kind -> (wave, gated) over every set
    for path in sorted(args.directory.glob("*.details.json")):
        name = path.name.removesuffix(".details.json")
        texts_by_id = {json.loads(line)["id"]: json.loads(line)["text"]
                       for line in (DATA / name / "questions.jsonl").read_text().splitlines()}
        ranks = json.loads(path.read_text())[0]["ranks"]
        if not ranks or "wave-noattr" not in ranks[0]:
            continue
        fitted = None
        print(f"\n{name}: R@1 / R@5, wave -> gated (paired at 1 and 5), noattr, e5")
        for kind in ("current", "paraphrase", "two", "all"):
            rs = [r for r in ranks if kind in ("all", r["kind"])]
            if not rs:
                continue
            gated = []
            for r in rs:
                p = held.get((name, texts_by_id[r["id"]]))
                if p is None:  # a "two" question: not in the training rows; read it the same way
                    if fitted is None:
                        fitted = LogisticRegression(C=args.c, max_iter=2000).fit(
                            x[authors != author_of(name)], y[authors != author_of(name)])
                    v = Embedder(asked.READS).embed_query_sync([texts_by_id[r["id"]]])
                    p = float(fitted.predict_proba(np.asarray(v))[0, 1])
                gated.append(r["wave"] if p >= args.threshold else r["wave-noattr"])
            n = len(rs)
            totals[kind] += list(zip([r["wave"] for r in rs], gated, strict=True))

            def fig(side: list[Any], k: int, n: int = n) -> str:
                return f"{100 * sum(within(v, k) for v in side) / n:5.1f}"

            wave = [r["wave"] for r in rs]
            up = [sum(within(g, k) and not within(w, k) for g, w in zip(gated, wave, strict=True))
                  for k in (1, 5)]
            dn = [sum(within(w, k) and not within(g, k) for g, w in zip(gated, wave, strict=True))
                  for k in (1, 5)]
            print(f"  {kind:10s} ({n:3d}) {fig(wave, 1)} / {fig(wave, 5)} -> {fig(gated, 1)} /"
                  f" {fig(gated, 5)} (@1 +{up[0]}/-{dn[0]}, @5 +{up[1]}/-{dn[1]});"
                  f" noattr {fig([r['wave-noattr'] for r in rs], 1)} /"
                  f" {fig([r['wave-noattr'] for r in rs], 5)}; e5 {fig([r['dense'] for r in rs], 1)}"
                  f" / {fig([r['dense'] for r in rs], 5)}")
    print("\nevery set:")
    for kind, pairs in totals.items():
        n = len(pairs)
        line = f"  {kind:10s} ({n:4d})"
        for k in (1, 5):
            w = sum(within(a, k) for a, _ in pairs)
            g = sum(within(b, k) for _, b in pairs)
            up = sum(within(b, k) and not within(a, k) for a, b in pairs)
            dn = sum(within(a, k) and not within(b, k) for a, b in pairs)
            line += f"  R@{k} {100 * w / n:5.1f} -> {100 * g / n:5.1f} (+{up}/-{dn})"
        print(line)


if __name__ == "__main__":
    main()
