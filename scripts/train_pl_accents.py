"""Learn the Polish letters a word written without them stands for ("zona" -> "żona",
"wroclawiu" -> "wrocławiu", "robie" -> "robię") from the Polish statements of the
hand-labelled entity sets that are written with them, and save the table as
``wave_agent/world/pl_accents.json`` (read by ``world.accents.restore``).

    PYTHONPATH=$PWD python scripts/train_pl_accents.py [--data bench/data/entities] [--no-save]

Only statements with at least one Polish letter are read (their writer uses the marks, so a
bare word there is bare on purpose), with their labelled names and aliases, and the Polish
kin words of ``graph.kin``. A folded word maps to its most frequent written form when that
form has a mark and is seen more often than the word written bare. Only the honest parts
(``HONEST`` of ``train_relations.py``) are read, never a kept-aside one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from train_relations import HONEST

from graph import kin
from wave_agent.world import accents


def written(parts: list[dict[str, Any]]) -> list[str]:
    """The lower-case words of the Polish statements written with the marks, and of their
    labelled names."""
    out: list[str] = []
    for part in parts:
        for person in part["people"]:
            if person["lang"] != "pl":
                continue
            for s in person["statements"]:
                if not accents._HAS_POLISH.search(s["text"]):
                    continue
                texts = [s["text"], *(n for e in s["entities"]
                                      for n in (e["name"], *e.get("aliases", [])))]
                out += [w.lower() for t in texts for w in accents._WORD.findall(t)]
    return out


def table(words: list[str]) -> dict[str, str]:
    """Folded word -> the form with marks people wrote for it most often, where that form
    outnumbers the bare word."""
    polish_kin = [w for role in kin._ROLES for w in kin._ROLES[role][1]]
    counts = Counter([*words, *polish_kin])
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    for word, n in counts.items():
        forms[accents.fold(word)][word] += n
    out = {}
    for bare, seen in forms.items():
        form, n = seen.most_common(1)[0]
        if form != bare and n > seen[bare]:
            out[bare] = form
    return dict(sorted(out.items()))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args()
    parts = [json.loads(p.read_text(encoding="utf-8"))
             for p in sorted(Path(args.data).glob("tuning*.json")) if p.stem in HONEST]
    learned = table(written(parts))
    print(f"{len(learned)} words from {len(parts)} parts", file=sys.stderr)
    if not args.no_save:
        accents.TABLE_PATH.write_text(json.dumps(learned, ensure_ascii=False, indent=0) + "\n",
                                      encoding="utf-8")
        print(f"saved {accents.TABLE_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
