"""Learn which English and Polish words people write with a capital (names of people, places
and firms) and which in lower case (every other word), from the cased English and Polish
statements of the hand-labelled entity sets, and save the counts as
``wave_agent/world/capitals.json`` (read by ``world.capitals``, which gives a statement
written all in lower case its capitals back).

    PYTHONPATH=$PWD python scripts/train_capitals.py [--data bench/data/entities] [--no-save]

A word counts as written in lower case each time it is, and as written with a capital each
time it is past a sentence's first word; every labelled name's words count as capitalised
once more. Only the parts up to ``tuning_37`` are read: the newest authors (``tuning_38`` ..
``tuning_42``) stay held out, lower-cased and scored only.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from wave_agent.world import capitals

READ = ("tuning", *(f"tuning_{n}" for n in range(2, 38)))
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def counts(parts: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Lower-case word -> [times written in lower case, times written with a capital]."""
    lower: Counter[str] = Counter()
    title: Counter[str] = Counter()
    for part in parts:
        for person in part["people"]:
            if person["lang"] not in ("en", "pl"):
                continue
            for s in person["statements"]:
                text = s["text"]
                if capitals.written_in_lower_case(text):
                    continue  # its writer uses no capitals: it says nothing of a word's case
                for match in _WORD.finditer(text):
                    word = match.group(0)
                    if word.islower():
                        lower[word] += 1
                    elif word[0].isupper() and word[1:].islower() and len(word) > 1 and not (
                            capitals.starts_sentence(text, match.start())):
                        title[word.lower()] += 1
                for entity in s["entities"]:
                    if entity["type"] in ("person", "place", "organization", "pet"):
                        for name in (entity["name"], *entity.get("aliases", [])):
                            for word in _WORD.findall(name):
                                if word[0].isupper() and word[1:].islower():
                                    title[word.lower()] += 1
    return {w: [lower[w], title[w]] for w in sorted(set(lower) | set(title))}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args()
    parts = [json.loads((Path(args.data) / f"{name}.json").read_text(encoding="utf-8"))
             for name in READ]
    table = counts(parts)
    named = sum(1 for lo, ti in table.values() if ti > lo)
    print(f"{len(table)} words from {len(parts)} parts; {named} written with a capital")
    if not args.no_save:
        capitals.TABLE_PATH.write_text(json.dumps(
            {"about": "word -> [written in lower case, written with a capital] in the cased "
                      "English and Polish statements of entity sets tuning .. tuning_37 "
                      "(scripts/train_capitals.py)", "words": table},
            ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


if __name__ == "__main__":
    main()
