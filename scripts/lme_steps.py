"""Which of Wave's ordering steps moves LongMemEval's evidence turns below plain e5's order,
replayed over the candidates the engine kept (issue 31, h/recall22).

Input: the ``--features`` and ``--details`` files of one ``wave bench longmemeval`` run (with
``--also-config`` variants asked over the same records, if any). For each question the
candidates' feature rows are ordered several ways, each order traced back to turn ids (first
occurrence, the first ten distinct turns, as the bench does) and scored with the bench's own
metrics:

- ``cosine``: the record's own e5 cosine with the question (Wave's pieces, not whole turns);
- ``context_cosine``: the cosine of the record in its context window;
- ``fused``: the hand-set fusion's score before the factors; ``hand_final``: after them;
- ``model``: the shipped trees' probability alone;
- ``after_model``: the trees spaced by the fusion's scores, decayed (the engine's order
  before MMR and the steps after it); ``after_model_nodecay``: the same with decay 1;
- and from the details file: ``wave`` (the engine's final order), ``dense`` and ``bm25``
  (plain baselines over whole turns) and every ``wave-<variant>``.

    PYTHONPATH=. python scripts/lme_steps.py --features F.jsonl [F2.jsonl] \
        --details D.json [D2.json] [--by type]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wave_agent.bench.longmemeval import KS, first_unique, ndcg, sessions_of  # noqa: E402
from wave_agent.recall import learned  # noqa: E402

SHOWN = ("turn_any@5", "turn_all@10", "NDCG@10", "R@1", "MRR", "session_any@5")


def metrics(ranked: list[str], evidence: set[str], sessions: set[str]) -> dict[str, float]:
    """The bench's own metrics (``longmemeval.scores_of``) from ranked turn ids."""
    out: dict[str, float] = {}
    for k in KS:
        top = set(ranked[:k])
        out[f"turn_any@{k}"] = float(bool(top & evidence))
        out[f"turn_all@{k}"] = float(evidence <= top)
        found = set(sessions_of(ranked[:k]))
        out[f"session_any@{k}"] = float(bool(found & sessions))
    out["NDCG@10"] = ndcg(ranked, evidence, 10)
    first = next((i for i, t in enumerate(ranked) if t in evidence), None)
    out["R@1"] = float(first == 0)
    out["MRR"] = 1.0 / (first + 1) if first is not None else 0.0
    return out


def turns_in_order(keys: list[list[str]], score: np.ndarray) -> list[str]:
    order = np.argsort(-np.asarray(score, dtype=np.float64), kind="stable")
    return first_unique([t for i in order for t in keys[i]])[:max(KS)]


def orders(q: dict[str, Any], ranker: learned.LearnedRanker) -> dict[str, np.ndarray]:
    """Each replayed order's scores over the question's candidates."""
    x = np.asarray(q["x"], dtype=np.float32)
    col = {n: q["features"].index(n) for n in q["features"]}
    p = ranker.score(x)
    common = (x[:, col["someone_else"]], ranker.weight_for(q.get("language", "en")),
              learned.OTHERS_FACTOR, x[:, col["rr_asked"]], ranker.asked, ranker.confidence)
    out = {name: x[:, col[name]] for name in ("cosine", "context_cosine", "fused", "hand_final")}
    out["model"] = p
    out["after_model"] = learned.after_model(p, x[:, col["fused"]], x[:, col["decay"]], *common)
    out["after_model_nodecay"] = learned.after_model(p, x[:, col["fused"]],
                                                     np.ones(len(x)), *common)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--details", type=Path, nargs="*", default=[])
    parser.add_argument("--by", choices=("none", "type"), default="none")
    args = parser.parse_args()
    ranker = learned.load()
    rows: dict[tuple[str, str], list[dict[str, float]]] = defaultdict(list)
    for path in args.features:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("set") != "longmemeval" or not q["x"]:
                continue
            evidence, sessions = set(q["answers"]), set(q["answer_sessions"])
            group = q["group"] if args.by == "type" else "all"
            for name, score in orders(q, ranker).items():
                rows[(group, name)].append(metrics(turns_in_order(q["keys"], score), evidence,
                                                   sessions))
    for path in args.details:
        for d in json.loads(path.read_text(encoding="utf-8"))["questions_detail"]:
            evidence = set(d["evidence"])
            sessions = {t.rsplit(":", 1)[0] for t in evidence}
            group = d["type"] if args.by == "type" else "all"
            for name, ranked in d.items():
                if name in ("wave", "dense", "bm25") or name.startswith("wave-"):
                    rows[(group, name)].append(metrics(ranked, evidence, sessions))
    print(f"{'group':28} {'order':22} " + " ".join(f"{m:>13}" for m in SHOWN) + "    n")
    for (group, name), got in sorted(rows.items()):
        means = [100 * float(np.mean([r[m] for r in got])) for m in SHOWN]
        print(f"{group:28} {name:22} " + " ".join(f"{v:13.1f}" for v in means)
              + f" {len(got):4d}")


if __name__ == "__main__":
    main()
