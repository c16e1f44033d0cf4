"""The LongMemEval evidence turns the engine's final order loses that the order it starts from
holds (issue 31, h/recall23): per question, each evidence turn's place in the replayed order
(the trees spaced and decayed, ``lme_steps.orders``' ``after_model``) and in the engine's final
one, and for a question that loses one, the engine's first records with every voice's rank.

    PYTHONPATH=. python scripts/lme_lost.py --features F.jsonl [F2.jsonl] \
        --details D.json [D2.json] [--system wave] [--order after_model]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lme_steps import orders, turns_in_order  # noqa: E402

from wave_agent.recall import learned  # noqa: E402


def place(ranked: list[str], turn: str) -> int | None:
    return ranked.index(turn) + 1 if turn in ranked else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--details", type=Path, nargs="+", required=True)
    parser.add_argument("--system", default="wave")
    parser.add_argument("--order", default="after_model",
                        help="the replayed order the system starts from (lme_steps.orders)")
    args = parser.parse_args()
    ranker = learned.load()
    feats = {}
    for path in args.features:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("set") == "longmemeval" and q["x"]:
                feats[q["id"]] = q
    for path in args.details:
        for d in json.loads(path.read_text(encoding="utf-8"))["questions_detail"]:
            q = feats.get(d["id"])
            if q is None:
                continue
            evidence = sorted(d["evidence"])
            replayed = turns_in_order(q["keys"], orders(q, ranker)[args.order])
            final = d[args.system]
            lost = [t for t in evidence if t in replayed[:10] and t not in final[:10]]
            print(f"{d['id']} {d['type']:26} replayed {[place(replayed, t) for t in evidence]}"
                  f" final {[place(final, t) for t in evidence]}{'  LOST ' + str(lost) if lost else ''}")
            if lost and args.system == "wave":
                for v in d["voices"][:12]:
                    print(f"    {'E' if v['evidence'] else ' '} {','.join(v['turns'][:2]):32} "
                          f"{v['ranks']} {v['text'][:60]!r}")


if __name__ == "__main__":
    main()
