"""The attribute step's records weighed by a fitted weight, in place of put first, judged with
each memory author left out (round twenty-three, issue 31; docs/benchmarks.md).

The attribute step (``recall.asked``) puts the records the writer read as stating the asked
attribute first. Replayed over the kept candidates of authors the step never saw it costs rank 1
where the answering record is not one it holds (round twenty-one: nine Russian questions net on
authors 14-17). ``train_ranker.fit_asked`` fits the weight ``after_model`` adds to the trees'
log-odds times ``rr_asked`` instead (a softmax over the candidates of the questions where the
step holds records). Here that weight is fitted on every author but one and the held-out
author's questions are replayed both ways, as the engine runs them (``replay_steps.Replay``:
the trees and ``after_model``, the newer-record step at 0.90, MMR at λ 0.75; then the step's
override, or nothing more for the weighed variant), paired question by question with an exact
sign test, and beside the bench's own plain e5 rank.

    python scripts/asked_weight.py /tmp/recall21 --tag base --cache /tmp/recall21/e5.npy
    python scripts/asked_weight.py /tmp/recall21 --cache /tmp/recall21/e5.npy --fixed 0.718
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import recall_blend as rb  # noqa: E402
import replay_steps as rs  # noqa: E402
import train_ranker as tr  # noqa: E402

from wave_agent.recall.learned import FEATURES, MODEL_PATH, LearnedRanker, after_model  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", type=Path)
    parser.add_argument("--tag", default="base")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--show", action="store_true", help="print the questions that change")
    parser.add_argument("--fixed", type=float, default=None,
                        help="weigh every author with this weight instead of fitting it")
    args = parser.parse_args()
    model = json.loads(Path(MODEL_PATH).read_text(encoding="utf-8"))
    ranker = LearnedRanker.from_json(model)
    fused, decay, other, asked = (FEATURES.index(n) for n in (
        "fused", "decay", "someone_else", "rr_asked"))
    paths = sorted(p for p in args.runs.glob(f"{args.tag}-memory-*.features.jsonl")
                   if p.with_name(p.name.replace(".features.jsonl", ".details.json")).is_file())
    names = [p.name.removeprefix(f"{args.tag}-").removesuffix(".features.jsonl") for p in paths]
    vectors = rb.embed(args.data, names, args.cache)
    rows: list[dict[str, Any]] = []
    for path, name in zip(paths, names, strict=True):
        replay = rs.Replay(args.data, name, vectors[name]["facts"])
        details = json.loads(path.with_name(f"{args.tag}-{name}.details.json").read_text(
            encoding="utf-8"))[0]
        ranks = {r["id"]: r for r in details["ranks"]}
        for q in tr.load([path]):
            rows.append({"q": q, "set": name, "replay": replay, "rank": ranks[q["id"]]})

    def scored(q: dict[str, Any], weight: float | None) -> np.ndarray:
        x = q["x"]
        return np.asarray(after_model(
            ranker.score(x), x[:, fused], x[:, decay], x[:, other],
            ranker.weight_for(q["language"]), tr.OTHERS, x[:, asked], weight,
            ranker.confidence), dtype=np.float64)

    def engine(row: dict[str, Any], weight: float | None) -> int:
        q, replay = row["q"], row["replay"]
        s = replay.mmr(q, replay.newer(q, scored(q, weight), 0.90), 0.75)
        if weight is None:  # the shipped override
            s = tr.attribute_step(lambda _q, s=s: s)(q)
        return rs.first(tr.labels(q), s)

    authors = sorted({rb.author(r["set"]) for r in rows}, key=int)
    fitted: dict[str, float] = {}
    out: dict[int, tuple[int, int]] = {}
    for held in authors:
        train = [r["q"] for r in rows if rb.author(r["set"]) != held]
        fitted[held] = w = (float(tr.fit_asked(train, model)) if args.fixed is None
                            else args.fixed)
        for n, r in enumerate(rows):
            if rb.author(r["set"]) == held:
                out[n] = (engine(r, None), engine(r, w))
    print("asked weight fitted without each author:", {a: round(w, 3) for a, w in fitted.items()})
    agree = sum(out[n][0] == (r["rank"]["wave"] or 99) for n, r in enumerate(rows))
    print(f"replayed override = engine's rank on {agree} / {len(rows)}")
    groups: dict[str, list[int]] = collections.defaultdict(list)
    for n, r in enumerate(rows):
        fires = bool((r["q"]["x"][:, asked] > 0).any())
        for g in (r["q"]["language"], r["set"], f"{r['q']['language']} {r['rank'].get('kind', '')}"):
            groups[g].append(n)
            if fires:
                groups[f"{g} [step fires]"].append(n)
    for g, ns in sorted(groups.items()):
        parts = [f"{g} ({len(ns)})"]
        for k in (1, 5):
            dense = [(rows[n]["rank"]["dense"] or 99) <= k for n in ns]
            a = [out[n][0] <= k for n in ns]
            b = [out[n][1] <= k for n in ns]
            up = sum(y and not x for x, y in zip(a, b, strict=True))
            down = sum(x and not y for x, y in zip(a, b, strict=True))
            parts.append(f"R@{k} e5 {100 * np.mean(dense):.1f} override {100 * np.mean(a):.1f} "
                         f"weighed {100 * np.mean(b):.1f} (+{up}/-{down} p {rb.sign_p(up, down):.2f})")
        print(" | ".join(parts))
    if args.show:
        from wave_agent.bench.memory import load_set
        for n, r in enumerate(rows):
            a, b = out[n]
            if min(a, 6) != min(b, 6):
                data = load_set(args.data / r["set"])
                text = next(q.text for q in data.questions if q.id == r["q"]["id"])
                print(f"{r['set']} {r['q']['id']} override {a} weighed {b} "
                      f"e5 {r['rank']['dense']}: {text}")


if __name__ == "__main__":
    main()
