"""Whether MMR's copy rule took a LongMemEval evidence turn out (issue 31, h/recall23): for the
turns named, each one's speaker, time and length, and its cosine with the others on MMR's
scale (``calibration.rescale``; the rule makes a candidate at least ``mmr_duplicate`` alike to
one already picked, said the same day, a copy that comes only once nothing else is left).

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/lme_copy_pairs.py \
        --data /work/shared/data/longmemeval/longmemeval_s_dev60.json \
        --pair 3b6f954b answer_94030872:8 answer_94030872:9 [--pair QID TURN TURN ...]

The first turn of each ``--pair`` is compared with the rest. Whole turns are embedded (a long
turn is stored in pieces, so the engine's cosine may differ a little).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archive.embedder import Embedder  # noqa: E402
from wave_agent.bench.longmemeval import load  # noqa: E402
from wave_agent.policy import calibration  # noqa: E402
from wave_agent.settings import DEFAULT_EMBEDDING_MODEL  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--pair", nargs="+", action="append", required=True,
                        metavar="QID TURN", help="a question id, then two or more turn ids")
    args = parser.parse_args()
    items = {i.id: i for i in load(args.data)}
    embedder = Embedder(DEFAULT_EMBEDDING_MODEL)
    cal = calibration.of(embedder)
    print(f"MMR's copy threshold {cal.mmr_duplicate} (rescaled, floor {cal.floor})")
    for qid, *tids in args.pair:
        turns = {t.id: t for t in items[qid].turns}
        for tid in tids:
            t = turns[tid]
            print(f"{qid} {tid} {t.role:9} {t.at:%Y-%m-%d %H:%M} {len(t.text):5d} chars "
                  f"{t.text[:90]!r}")
        vectors = np.asarray(await embedder.embed([turns[t].text for t in tids]))
        for j in range(1, len(tids)):
            alike = cal.rescale(float(vectors[0] @ vectors[j]))
            print(f"  {tids[0]} ~ {tids[j]}: {alike:.3f}"
                  f"{'  (a copy the same day)' if alike >= cal.mmr_duplicate else ''}")


if __name__ == "__main__":
    asyncio.run(main())
