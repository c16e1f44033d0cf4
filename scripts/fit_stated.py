"""Fit the learned ranker's ``stated`` weight (``recall.stated``: the record states the asked
attribute of the person asking) on the tuning months' questions, and write it into
``ranker.json`` with ``--write``.

Data: the rows ``wave bench month`` keeps with ``WAVE_BENCH_ROWS=FILE`` (per question its
candidates' learned-ranker rows, their ``stated`` and which hold the expected value), from
tuning months only (``tuning`` .. ``tuning_34``; the held-out months are never fitted on).
The fit is ``train_ranker.fit_listwise_weight``'s, as the someone-else and attribute weights
are fitted: a softmax over each question's candidates, the shipped model's log-odds (with its
someone-else weight) an offset, the answers' share maximised, each question weighing the
same, over the questions where some candidate holds the answer and ``stated`` is read. It
prints the weight fitted on all the files, each file (month) left out in turn with the
weight fitted on the others (one month: five folds of its questions by a hash of the id), and for each the count of questions whose first record after
``learned.after_model`` (the engine's order before MMR and the steps after it) holds the
answer, per question kind, without and with the weight.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/fit_stated.py ROWS.jsonl [ROWS.jsonl ...] [--write]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_ranker import OTHERS, fit_listwise_weight  # noqa: E402

from wave_agent.recall.learned import (  # noqa: E402
    FEATURES,
    MODEL_PATH,
    LearnedRanker,
    after_model,
)

BOUNDS = (-5.0, 15.0)
FOLDS = 5
HELD_FROM = 35  # months tuning_35 and later are held out of every fit


def questions(paths: list[Path]) -> list[dict[str, Any]]:
    out = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            number = q["month"].removeprefix("tuning").lstrip("_")
            if number and int(number) >= HELD_FROM:
                raise SystemExit(f"{path}: {q['month']} is held out, never fitted on")
            q["x"] = np.asarray(q["x"], dtype=np.float32).reshape(-1, len(FEATURES))
            q["stated"] = np.asarray(q["stated"], dtype=np.float64)
            q["y"] = np.asarray(q["y"], dtype=bool)
            out.append(q)
    return out


def offset(q: dict[str, Any], ranker: LearnedRanker) -> np.ndarray:
    x = q["x"]
    p = np.clip(np.asarray(ranker.score(x), dtype=np.float64), 1e-9, 1 - 1e-9)
    other = x[:, FEATURES.index("someone_else")] > 0
    logit = np.log(p / (1 - p)) + (ranker.weight_for(q["text_language"]) or 0.0) * other
    if ranker.asked:
        logit = logit + ranker.asked * x[:, FEATURES.index("rr_asked")]
    return np.asarray(logit, dtype=np.float64)


def fit(qs: list[dict[str, Any]], ranker: LearnedRanker) -> float:
    cases = [(offset(q, ranker), q["stated"], q["y"]) for q in qs
             if q["y"].any() and q["stated"].any()]
    return fit_listwise_weight(cases, BOUNDS)


def _attribute_step(final: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The attribute step's override as ``train_ranker.attribute_step`` replays it (the
    now gate, which the rows do not keep, taken as open)."""
    asked, past = FEATURES.index("rr_asked"), FEATURES.index("asked_past")
    found = [int(i) for i in np.argsort(-x[:, asked], kind="stable") if x[i, asked] > 0]
    if not found:
        return final
    top = int(np.argmax(final))
    if top in found and not x[0, past]:
        found = [top, *(i for i in found if i != top)]
    out = np.asarray(final, dtype=np.float64) - float(np.max(final)) - 1.0
    for n, i in enumerate(found):
        out[i] = float(len(found) - n)
    return out


def firsts(qs: list[dict[str, Any]], ranker: LearnedRanker, weight: float,
           step: bool = False) -> Counter[str]:
    """Per kind, the questions whose first record (``after_model``'s order; ``step``: then
    the attribute step's override) holds the answer, and whose first five hold it."""
    out: Counter[str] = Counter()
    for q in qs:
        x = q["x"]
        if not len(x):
            continue
        p = ranker.score(x)
        final = after_model(p, x[:, FEATURES.index("fused")], x[:, FEATURES.index("decay")],
                            x[:, FEATURES.index("someone_else")],
                            ranker.weight_for(q["text_language"]), OTHERS,
                            x[:, FEATURES.index("rr_asked")], ranker.asked, ranker.confidence,
                            q["stated"], weight)
        if step:
            final = _attribute_step(final, x)
        order = np.argsort(-final, kind="stable")
        out[q["kind"]] += 1
        out[f"{q['kind']}:first"] += int(q["y"][order[0]])
        out[f"{q['kind']}:in5"] += int(q["y"][order[:5]].any())
    return out


def show(name: str, before: Counter[str], after: Counter[str]) -> None:
    parts = []
    for kind in ("current", "history", "stable"):
        if before[kind]:
            parts.append(f"{kind} first {before[kind + ':first']} -> {after[kind + ':first']}, "
                         f"in 5 {before[kind + ':in5']} -> {after[kind + ':in5']} "
                         f"of {before[kind]}")
    print(f"{name}: " + "; ".join(parts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", nargs="+", type=Path)
    ap.add_argument("--write", action="store_true", help="write the weight into ranker.json")
    args = ap.parse_args()
    model = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    ranker = LearnedRanker.from_json({k: v for k, v in model.items() if k != "stated"})
    qs = questions(args.rows)
    months = sorted({q["month"] for q in qs})
    read = sum(1 for q in qs if q["stated"].any())
    print(f"{len(qs)} questions from {', '.join(months)}; {read} about the person "
          f"(stated read), {sum(1 for q in qs if q['stated'].any() and q['y'].any())} "
          "of them with the answer among the candidates")
    weight = fit(qs, ranker)
    print(f"weight fitted on all: {weight}")
    # each month left out in turn; with one month, five folds of its questions by a hash
    folds = {month: month for month in months} if len(months) > 1 else {
        str(n): f"fold {n}" for n in range(FOLDS)}

    def fold_of(q: dict[str, Any]) -> str:
        if len(months) > 1:
            return str(q["month"])
        digest = hashlib.sha256(str(q["question"]).encode()).digest()
        return str(digest[0] % FOLDS)

    total_b: Counter[str] = Counter()
    total_a: Counter[str] = Counter()
    step_b: Counter[str] = Counter()
    step_a: Counter[str] = Counter()
    for key, name in folds.items():
        held = [q for q in qs if fold_of(q) == key]
        w = fit([q for q in qs if fold_of(q) != key], ranker)
        b, a = firsts(held, ranker, 0.0), firsts(held, ranker, w)
        show(f"{name} left out (weight {w})", b, a)
        total_b.update(b)
        total_a.update(a)
        step_b.update(firsts(held, ranker, 0.0, True))
        step_a.update(firsts(held, ranker, w, True))
    show("each fold left out, summed", total_b, total_a)
    show("the same with the attribute step after it", step_b, step_a)
    show("all, the weight fitted on all (in-sample)", firsts(qs, ranker, 0.0),
         firsts(qs, ranker, weight))
    if args.write:
        model["stated"] = weight
        model["stated_note"] = (
            "h/rank36: fitted by scripts/fit_stated.py on the tuning months "
            + ", ".join(months) + " (a softmax over each question's candidates, the model's "
            "log-odds an offset)")
        MODEL_PATH.write_text(json.dumps(model, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote stated={weight} to {MODEL_PATH}")


if __name__ == "__main__":
    main()
