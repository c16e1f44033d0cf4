"""What a quarantine model holds of a person's own words in issue 30's tuning months.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python scripts/quarantine_months.py [MODEL.npz ...]

For each meaning model given (default: the shipped ``meaning.npz``), every message of every
``bench/data/month/tuning*.json`` is judged as the chat door judges it: the whole message, then
each statement the offline extractor keeps of it; a message is held when any of them is held
(issue 32's "whole messages"). Printed per model: statements, small talk and questions held, the
pasted instructions caught, and the person's own phone lines (a message that sets the user's
``phone``) held, month by month. The kept-aside month is never read.

A model trained with ``--months`` saw these months: its figures here are in-sample (the
held-out ones are ``train_quarantine.py``'s "the tuning months' own lines"); the figure a person
notices, their own new number held, is worth reading either way.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from wave_agent.bench.quarantine_chat import MONTHS
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.llm.offline_extract import extract_heuristic
from wave_agent.policy.quarantine import detect, meaning

PASTED = "pasted_instruction"


def held(texts: list[str], cache: VectorCache) -> bool:
    vectors = cache.vectors(texts)
    return any(detect(t, vector=v) is not None for t, v in zip(texts, vectors, strict=True))


def judge(path: Path, cache: VectorCache) -> None:
    meaning.MODELS["both"] = path
    meaning.model.cache_clear()
    counts: dict[str, list[int]] = {}
    phones: list[str] = []
    for month_path in sorted(MONTHS.glob("tuning*.json")):
        month = json.loads(month_path.read_text(encoding="utf-8"))
        for message in month["messages"]:
            text = message["text"]
            said = [text] if message["kind"] == PASTED else [text, *(f.text for f in extract_heuristic(text, max_facts=8))]
            hit = held(said, cache)
            seen = counts.setdefault(message["kind"], [0, 0])
            seen[0] += hit
            seen[1] += 1
            own_phone = any(s.get("entity") == "user" and s.get("attribute") == "phone" for s in message.get("sets", []))
            if own_phone and hit:
                phones.append(f"{month_path.stem}: {text[:70]}")
    total_phone = sum(1 for p in sorted(MONTHS.glob("tuning*.json"))
                      for m in json.loads(p.read_text(encoding="utf-8"))["messages"]
                      if any(s.get("entity") == "user" and s.get("attribute") == "phone" for s in m.get("sets", [])))
    sys.stdout.write(f"{path}: " + ", ".join(f"{k} {n}/{of}" for k, (n, of) in sorted(counts.items()))
                     + f"; own phone lines held {len(phones)}/{total_phone}\n")
    for line in phones:
        sys.stdout.write(f"    held: {line}\n")


def main() -> None:
    cache = VectorCache()
    for name in sys.argv[1:] or [str(meaning.MODELS["both"])]:
        judge(Path(name), cache)


if __name__ == "__main__":
    main()
