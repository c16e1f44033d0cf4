"""Round thirty-six (h/small36): what the world reader names in a random sample of the design
months' lines (``train_smalltalk.lines()`` order; months 35-39 never drawn), for
``scripts/smalltalk_lasting.py --why``: each row the line's index, then persons, pets and places
named, mentions, links from the person, values read, the person's values, a Russian past-tense
verb, a Russian first-person present or future verb (pymorphy3's tag of each word). ``ROWS``
(an ``.npy`` of line indices) reads those lines instead: ``smalltalk_lasting.py --named`` reads
the lines whose verdict a drop threshold by name could change, held months' lines among them
(counts only, never a text).

    N=1500 OUT=/tmp/reader.npy HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python \\
        scripts/smalltalk_reader_counts.py
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import numpy as np
import pymorphy3

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_smalltalk as T

from wave_agent.llm.offline_extract import language
from wave_agent.postprocess.extract import sentences
from wave_agent.world import read_many
from wave_agent.world.attributes import as_said, read_values

HELD = {f"month_tuning_{n}" for n in range(35, 40)}
MORPH = pymorphy3.MorphAnalyzer()


def tense(text: str) -> tuple[int, int]:
    """(a past-tense verb, a first-person present or future verb) in a Russian text."""
    past = now = 0
    for word in re.findall(r"[а-яё]+", text.lower()):
        tag = MORPH.parse(word)[0].tag
        if tag.POS == "VERB":
            if tag.tense == "past":
                past = 1
            elif tag.tense == "futr" or (tag.tense == "pres" and tag.person == "1per"):
                now = 1
    return past, now


async def main() -> None:
    groups, texts, _ = T.labelled()
    pool = np.flatnonzero([str(g).startswith("month_") and g not in HELD for g in groups])
    idx = np.sort(np.random.default_rng(0).choice(pool, int(os.environ.get("N", "1500")),
                                                   replace=False))
    if os.environ.get("ROWS"):  # these lines instead (an .npy of indices; held months may be in)
        idx = np.load(os.environ["ROWS"])
    out = []
    for n, i in enumerate(idx):
        text = texts[i]
        said = [s for s in sentences(text) if not s.endswith("?")] or [text]
        readings = await read_many([as_said(s) for s in said])
        mentions = [m for r in readings for m in r.mentions]
        links = [link for r in readings for link in r.links]
        values = [v for s, r in zip(said, readings, strict=True) for v in read_values(s, r)]
        past, now = tense(text) if language(text) == "ru" else (0, 0)
        out.append((i, sum(m.type == "person" for m in mentions),
                    sum(m.type == "pet" for m in mentions),
                    sum(m.type == "place" for m in mentions), len(mentions),
                    sum(link.source == "user" for link in links), len(values),
                    sum(v.entity == "user" for v in values), past, now))
        if n % 250 == 0:
            print(n, flush=True)
    np.save(os.environ["OUT"], np.asarray(out, dtype=np.int64))


if __name__ == "__main__":
    asyncio.run(main())
