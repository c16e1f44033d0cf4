"""Where LoCoMo's evidence turns stand in the engine's order before MMR, by question category,
from a ``--features`` file alone (issue 31, h/recall27): not gathered by any voice, or the
replayed order's (``lme_steps.orders``' ``after_model``) 1-10, 11-30, 31st or lower. "Points"
is each band's share of R@10 (LoCoMo's R@k: the share of a question's evidence turns within k,
averaged over questions); it needs no details file, so it can read a run still going.

    PYTHONPATH=. python scripts/locomo_bands.py --features F.jsonl --data DIR [--split tune]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lme_steps import orders  # noqa: E402

from wave_agent.bench.locomo_data import load_conversations  # noqa: E402
from wave_agent.bench.longmemeval import first_unique  # noqa: E402
from wave_agent.recall import learned  # noqa: E402

BANDS = ("1-10", "11-30", "31+", "not gathered")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--split", default="tune", help="tune, held or all")
    args = parser.parse_args()
    category = {f"{c.name}:{n}": q.category for c in load_conversations(args.data)
                for n, q in enumerate(c.questions, 1)}
    ranker = learned.load()
    points: dict[tuple[str, str], float] = defaultdict(float)
    questions: dict[str, int] = defaultdict(int)
    for path in args.features:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("set") != "locomo" or not q["answers"]:
                continue
            if args.split != "all" and q.get("split") != args.split:
                continue
            cat = f"category {category[q['id']]}"
            questions[cat] += 1
            questions["all"] += 1
            ranked: list[str] = []
            if q["x"]:
                s = orders(q, ranker)["after_model"]
                ranked = first_unique([t for i in np.argsort(-s, kind="stable")
                                       for t in q["keys"][i]])
            for t in q["answers"]:
                r = ranked.index(t) + 1 if t in ranked else None
                b = BANDS[3] if r is None else BANDS[0] if r <= 10 else \
                    BANDS[1] if r <= 30 else BANDS[2]
                for g in (cat, "all"):
                    points[(g, b)] += 1.0 / len(q["answers"])
    n_all = max(questions["all"], 1)
    print(f"{'':14} {'questions':>9} " + " ".join(f"{b:>13}" for b in BANDS)
          + "   (R@10 points of all questions)")
    for g in sorted(questions):
        print(f"{g:14} {questions[g]:9d} " + " ".join(
            f"{100 * points[(g, b)] / n_all:13.1f}" for b in BANDS))


if __name__ == "__main__":
    main()
