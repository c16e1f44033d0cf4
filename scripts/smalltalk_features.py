"""The small-talk judge's lines (``train_smalltalk.lines()``, the same order) with what the
write path reads in each beside the e5 vector, cached for the experiments of round thirty-one
(``scripts/smalltalk_values.py``): the extractor's verdicts of ``train_smalltalk.extracted``,
how many facts it kept and how many of them its patterns normalised ("Пользователь живёт в
...") rather than kept as said, and how many attribute values the world reader reads in the
message's sentences (any entity; the person's own).

    SMALLTALK_CACHE=/tmp/st.npz FEATURES=/tmp/st-features.npz HF_HUB_OFFLINE=1 PYTHONPATH=. \\
        .venv/bin/python scripts/smalltalk_features.py
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_smalltalk as T

from wave_agent.llm.offline_extract import extract_heuristic
from wave_agent.postprocess.extract import fact_budget, sentences, with_stated_attributes

TEMPLATED = ("Пользовател", "The user", "Użytkownik")


async def read(texts: list[str]) -> np.ndarray:
    from wave_agent.world import read_many
    from wave_agent.world.attributes import as_said, read_values

    out = []
    for n, text in enumerate(texts):
        budget = fact_budget(text, "")
        facts = extract_heuristic(text, max_facts=budget) if budget else []
        if budget:
            facts = await with_stated_attributes(text, facts, max_facts=budget)
        said = [s for s in sentences(text) if not s.endswith("?")]
        readings = await read_many([as_said(s) for s in said]) if said else []
        values = [v for s, r in zip(said, readings, strict=True) for v in read_values(s, r)]
        out.append((len(facts), sum(f.text.startswith(TEMPLATED) for f in facts), len(values),
                    sum(v.entity == "user" for v in values)))
        if n % 500 == 0:
            print(n, flush=True)
    return np.asarray(out, dtype=np.int32)


def main() -> None:
    groups, texts, y = T.labelled()
    x, extra, ext, stated, promise = T.features(texts)
    counts = asyncio.run(read(texts))
    np.savez(os.environ["FEATURES"], groups=groups, y=y, x=x, extra=extra, ext=ext,
             stated=stated, promise=promise, counts=counts,
             langs=T.month_langs(groups).astype(str))


if __name__ == "__main__":
    main()
