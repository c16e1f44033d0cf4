"""Where LoCoMo's misses at ten are (issue 31, h/recall23): for each evidence turn of a question
Wave does not hold within its first ten, whether any voice gathered it at all, where the order
the engine starts from puts it (the trees spaced and decayed, replayed over the kept
candidates: ``lme_steps.orders``' ``after_model``), and which voices found it.

Input: the ``--features`` and ``--details`` files of one ``wave bench locomo`` run.

    PYTHONPATH=. python scripts/locomo_misses.py --features F.jsonl --details D.json \
        [--system wave]

The counts are of evidence turns (LoCoMo's R@k is the share of a question's evidence turns
within k), and of questions with at least one such turn; "points" is what R@10 would gain
if every missed turn in that row came within ten.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lme_steps import orders  # noqa: E402

from wave_agent.recall import learned  # noqa: E402

VOICES = ("lexical", "semantic", "temporal", "graph", "dated", "context_lexical",
          "context_semantic", "rest", "asked")


def band(rank: int | None) -> str:
    if rank is None:
        return "not gathered"
    if rank <= 10:
        return "gathered, replayed 1-10"
    if rank <= 30:
        return "gathered, replayed 11-30"
    return "gathered, replayed 31+"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--details", type=Path, nargs="+", required=True)
    parser.add_argument("--system", default="wave", help="the details' system to read misses of")
    parser.add_argument("--data", type=Path, default=None,
                        help="LoCoMo's directory: print --examples not-gathered turns' texts")
    parser.add_argument("--examples", type=int, default=0)
    args = parser.parse_args()
    ranker = learned.load()
    cands: dict[str, dict] = {}
    for path in args.features:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("set") == "locomo":
                cands[q["id"]] = q
    questions = 0
    total_share = 0.0
    turns: Counter[str] = Counter()
    share: dict[str, float] = defaultdict(float)
    asked_questions: dict[str, set[str]] = defaultdict(set)
    voices: Counter[str] = Counter()
    first_voice: Counter[str] = Counter()
    any_top10: Counter[str] = Counter()  # band -> turns some voice ranks within 10
    voice_ranks: dict[str, list[int]] = defaultdict(list)  # "band: voice" -> the turn's ranks
    by_category: dict[str, float] = defaultdict(float)  # "band: category" -> R@10 share
    not_gathered: list[tuple[str, str, str]] = []  # question id, its text, the turn
    for path in args.details:
        for d in json.loads(path.read_text(encoding="utf-8"))["questions_detail"]:
            questions += 1
            row = d[args.system]
            total_share += row["R@10"]
            if row["R@10"] >= 1.0:
                continue
            q = cands.get(d["id"])
            evidence = list(d["evidence"])
            if q is None or not q["x"]:
                for _ in evidence:
                    turns["no candidates kept"] += 1
                continue
            x = np.asarray(q["x"], dtype=np.float32)
            col = {n: i for i, n in enumerate(q["features"])}
            score = orders(q, ranker)["after_model"]
            order = np.argsort(-score, kind="stable")
            ranked: list[str] = []
            where: dict[str, int] = {}  # turn -> the best candidate row holding it
            for i in order:
                for t in q["keys"][i]:
                    if t not in where:
                        where[t] = int(i)
                        ranked.append(t)
            # the engine's own first ten (``within_10``); a run before h/recall23 lacks it, and
            # a question it found part of is then read by the replay's first ten
            within = set(row.get("within_10", ranked[:10] if row["R@10"] > 0 else []))
            for t in evidence:
                if t in within:
                    continue  # this one is found; another of the question's turns is not
                rank = ranked.index(t) + 1 if t in where else None
                b = band(rank)
                turns[b] += 1
                share[b] += 1.0 / len(evidence)
                by_category[f"{b}: category {d.get('category')}"] += 1.0 / len(evidence)
                if rank is None:
                    not_gathered.append((d["id"], d.get("text", ""), t))
                asked_questions[b].add(d["id"])
                if rank is not None:
                    i = where[t]
                    found = [v for v in VOICES if f"rr_{v}" in col and x[i, col[f"rr_{v}"]] > 0]
                    for v in found:
                        voices[f"{b}: {v}"] += 1
                        voice_ranks[f"{b}: {v}"].append(round(1.0 / x[i, col[f"rr_{v}"]]))
                    best = max(found, key=lambda v: x[i, col[f"rr_{v}"]], default="none")
                    if best != "none" and x[i, col[f"rr_{best}"]] >= 0.1:
                        any_top10[b] += 1
                    first_voice[f"{b}: best rank in {best}"] += 1
    print(f"{questions} questions, {args.system} R@10 {100 * total_share / questions:.1f}")
    print(f"{'evidence turns missed at ten':40} {'turns':>6} {'questions':>9} {'R@10 points':>11}")
    for b, n in sorted(turns.items(), key=lambda kv: -kv[1]):
        print(f"{b:40} {n:6d} {len(asked_questions[b]):9d} "
              f"{100 * share[b] / questions:11.1f}")
    print("\nvoices that gathered the missed turns (a turn counts once per voice):")
    for key, n in sorted(voices.items(), key=lambda kv: (kv[0].split(':')[0], -kv[1])):
        print(f"  {key:55} {n:5d}")
    print("\nR@10 points missed, by LoCoMo's question category:")
    for key, v in sorted(by_category.items()):
        print(f"  {key:55} {100 * v / questions:5.1f}")
    if args.data and args.examples:
        from wave_agent.bench.locomo_data import load_conversations

        texts = {f"{c.name}:{t.dia_id}": f"{t.speaker}: {t.text}"
                 for c in load_conversations(args.data) for t in c.turns}
        print(f"\n{args.examples} turns no voice gathered (every {len(not_gathered) // args.examples}th):")
        for qid, text, turn in not_gathered[:: max(len(not_gathered) // args.examples, 1)]:
            conv = qid.split(":")[0]
            print(f"  {qid}: {text}\n      {turn} {texts.get(f'{conv}:{turn}', '?')[:160]}")
    print("\nthe missed turn's rank in each voice that gathered it (median; share within 10):")
    for key, got in sorted(voice_ranks.items(), key=lambda kv: (kv[0].split(':')[0], -len(kv[1]))):
        within = sum(1 for r in got if r <= 10) / len(got)
        print(f"  {key:55} {float(np.median(got)):5.0f} {100 * within:5.0f}%")
    for b, n in sorted(any_top10.items()):
        print(f"  {b}: within 10 in at least one voice {n} of {turns[b]} turns")
    print("\nthe voice that ranked each gathered missed turn best:")
    for key, n in sorted(first_voice.items(), key=lambda kv: (kv[0].split(':')[0], -kv[1])):
        print(f"  {key:55} {n:5d}")


if __name__ == "__main__":
    main()
