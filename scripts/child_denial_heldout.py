"""The denial step's head on months it was not fitted on (round twenty-nine, h/child29).

``wave_agent/write/statement_attributes.npz`` is fitted on ``train_statement_attributes.HONEST``
(``tuning_2`` .. ``tuning_24``); the step of db1ed5b (reverted) took its threshold, 0.8, from those months
(``scripts/child_denial_head.py``). Here, on the later months (``tuning_25`` .. ``tuning_29``, one
author each), for every labelled contradiction whose later message denies the person's child or
sibling: the shipped head's score of the earlier message, and how many other messages of the
month said before the denial (any kind: the writer may hold small talk too; labelled with no
value of that attribute) score at each threshold, and whether the reader reads the denial as one (each could be a false alarm; an upper bound,
the writer looks at the 20 records nearest the denial). Prints ids and scores, no texts.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/child_denial_heldout.py [tuning_25 ...]
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archive.embedder import Embedder  # noqa: E402
from wave_agent.bench.month import load  # noqa: E402
from wave_agent.write import unread_old  # noqa: E402
from wave_agent.write.attributes import read  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"
HELD_OUT = [f"tuning_{i}" for i in range(25, 30)]
THRESHOLDS = (0.5, 0.7, 0.8, 0.9)
DENIES = ("child", "sibling")


def main(names: list[str]) -> None:
    embedder = Embedder(unread_old.READS)
    found = {t: 0 for t in THRESHOLDS}
    others = {t: 0 for t in THRESHOLDS}
    cases: list[dict[str, object]] = []
    for name in names:
        month = load(MONTHS / f"{name}.json")
        denials = [(n, m, a) for n, m in enumerate(month.messages) for a in [next(
            (s.attribute for s in m.sets if s.entity == "user" and s.op == "negate"
             and s.attribute in DENIES), None)] if m.contradicts and a]
        if not denials:
            continue
        vectors = embedder.embed_sync([m.text for m in month.messages])
        by_id = {m.id: n for n, m in enumerate(month.messages)}
        for n, m, attribute in denials:
            if m.contradicts not in by_id:
                continue
            p = unread_old.sure(vectors[by_id[m.contradicts]], attribute)
            ps = [unread_old.sure(vectors[i], attribute) for i, e in enumerate(month.messages[:n])
                  if e.id != m.contradicts and not any(
                      s.attribute == attribute and s.entity == "user" for s in e.sets)]
            for t in THRESHOLDS:
                found[t] += p >= t
                others[t] += sum(q >= t for q in ps)
            cases.append({"month": name, "message": m.id, "earlier": m.contradicts,
                          "attribute": attribute, "p_earlier": round(p, 3),
                          "others_at_0.8": sum(q >= 0.8 for q in ps),
                          "others_at_0.7": sum(q >= 0.7 for q in ps),
                          # whether the reader reads the later message as the class denial
                          # (with nothing held: the case the step is for)
                          "read_as_denial": any(
                              v.entity == "user" and v.attribute == attribute and v.op == "negate"
                              for v in asyncio.run(read(m.text, [])))})
    print(json.dumps({"cases": len(cases), "found": found, "other earlier messages as sure":
                      others, "each": cases}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:] or HELD_OUT)
