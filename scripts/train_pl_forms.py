"""Learn the endings that bring a Polish name said in a case ("w Krakowie", "z Olą", "do
Wieliczki", "w Niemczech") back to the nominative, from the hand-labelled entity sets, and save
them as ``wave_agent/world/pl_forms.json`` (read by ``world.latin.nominative_pl``).

    PYTHONPATH=$PWD python scripts/train_pl_forms.py [--data bench/data/entities]

Every capitalised word of a Polish statement that shares its beginning with a word of a
labelled name (three letters or more, the name's last two at most differing, four letters
at most cut from the word) is a pair: the word as said, the word as labelled. A pair is a rule
(the ending cut, the ending added) seen under each of the said word's last one to five
letters; an ending keeps the rule seen there at least twice and in 60% of its pairs. A word is
brought back by its longest ending that has a rule; one with none falls to the hand rules.
Only the honest parts are read (``HONEST`` of ``train_relations.py``), never a kept-aside one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from train_relations import HONEST

from wave_agent.world import latin

_WORD = re.compile(r"[A-ZĄĆĘŁŃÓŚŹŻ][\wąćęłńóśźżĄĆĘŁŃÓŚŹŻ-]*")


def pairs(paths: list[Path]) -> list[tuple[str, str]]:
    """(said, labelled) word pairs of the Polish statements in ``paths``."""
    out = []
    for path in paths:
        for person in json.loads(path.read_text(encoding="utf-8"))["people"]:
            if person["lang"] != "pl":
                continue
            for statement in person["statements"]:
                said = _WORD.findall(statement["text"])
                for entity in statement["entities"]:
                    for name in entity["name"].split():
                        if not name[:1].isupper() or len(name) < 3:
                            continue
                        for word in said:
                            k = _common(word, name)
                            if k >= 3 and k >= len(name) - 2 and len(word) - k <= 4:
                                out.append((word, name))
    return out


def _common(a: str, b: str) -> int:
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    return k


def learn(found: list[tuple[str, str]], min_count: int = 2,
          agree: float = 0.6) -> dict[str, list[Any]]:
    """Each ending's rule: [cut, added, pairs seen]."""
    seen: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for word, name in found:
        k = _common(word, name)
        rule = (word[k:], name[k:])
        for n in range(max(1, len(word) - k), min(latin._LONGEST, len(word) - 2) + 1):
            seen[word[-n:].lower()][rule] += 1
    out: dict[str, list[Any]] = {}
    for ending, rules in sorted(seen.items()):
        (rule, n), = rules.most_common(1)
        if n >= min_count and n / sum(rules.values()) >= agree:
            out[ending] = [rule[0], rule[1], n]
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    args = parser.parse_args()
    paths = [p for part in HONEST if (p := Path(args.data) / f"{part}.json").exists()]
    table = learn(pairs(paths))
    latin._FORMS_PATH.write_text(json.dumps(table, ensure_ascii=False, indent=0,
                                            sort_keys=True) + "\n", encoding="utf-8")
    print(f"saved {latin._FORMS_PATH} ({len(table)} endings from {len(paths)} parts)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
