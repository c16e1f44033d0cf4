"""Where plain e5 ranks the LoCoMo evidence turns that none of Wave's voices gathered (issue 31,
h/recall27): each conversation's turns embedded as the bench stores them, each question's
evidence turns absent from its kept candidates (``--features``) placed in plain e5's order
over the whole conversation; by question category. Tells whether asking deeper could gather
them.

    PYTHONPATH=. python scripts/locomo_e5_depth.py --features F.jsonl --data DIR --only conv-41 [...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def run(args: argparse.Namespace) -> None:
    from archive.embedder import Embedder
    from wave_agent.bench.locomo import record_text
    from wave_agent.bench.locomo_data import load_conversations
    from wave_agent.recall import adapter

    feats = {}
    for path in args.features:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("set") == "locomo" and q["group"] in args.only:
                feats[q["id"]] = q
    e = Embedder(adapter.READS)
    await e.load()
    ranks: dict[int, list[int]] = defaultdict(list)
    sizes = []
    for c in load_conversations(args.data):
        if c.name not in args.only:
            continue
        tv = np.asarray(await e.embed([record_text(t) for t in c.turns]), dtype=np.float32)
        ids = [t.dia_id for t in c.turns]
        sizes.append(len(ids))
        for n, q in enumerate(c.questions, 1):
            f = feats.get(f"{c.name}:{n}")
            if f is None:
                continue
            got = {k for ks in f["keys"] for k in ks}
            qv = np.asarray((await e.embed_query([q.text]))[0], dtype=np.float32)
            pos = {ids[i]: r + 1 for r, i in enumerate(np.argsort(-(tv @ qv)))}
            for t in q.evidence:
                if t not in got and t in pos:
                    ranks[q.category].append(pos[t])
    print(f"conversations {args.only}, {sizes} turns")
    for cat, got_ranks in sorted(ranks.items()):
        r = np.array(got_ranks)
        print(f"category {cat}: {len(r)} turns no voice gathered; plain e5 rank median "
              f"{np.median(r):.0f}, within 100 {100 * np.mean(r <= 100):.0f}%, "
              f"within 200 {100 * np.mean(r <= 200):.0f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--only", nargs="+", required=True)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
