"""Learn the Polish letters a word written without them stands for ("zona" -> "żona",
"wroclawiu" -> "wrocławiu", "robie" -> "robię") from the Polish statements of the
hand-labelled entity sets that are written with them, and save the table as
``wave_agent/world/pl_accents.json`` (read by ``world.accents.restore``).

    PYTHONPATH=$PWD python scripts/train_pl_accents.py [--data bench/data/entities] [--no-save]
        [--held-out]

``--held-out`` prints what it gives an author it never saw: each honest part's Polish
statements read by the shipped noun and pair models without the marks given back, then with a
table learned without that part's author (reader level, scored as ``train_relations.score``
and ``train_nouns.tally``).

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


def held_out(paths: list[Path]) -> None:
    from train_nouns import f1, tally
    from train_relations import pr, score

    from wave_agent.world import pairs as model_pairs
    from wave_agent.world.reader import as_read, complete, parsed

    raw = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in paths if p.stem in HONEST}
    totals: dict[str, tuple[Counter[str], Counter[str]]] = {
        "as written": (Counter(), Counter()), "marks given back": (Counter(), Counter())}
    for held, part in raw.items():
        statements = [s for p in part["people"] if p["lang"] == "pl" for s in p["statements"]]
        if not statements:
            continue
        row = [held]
        for name, (relations, entities) in totals.items():
            accents._table = {} if name == "as written" else table(
                written([v for k, v in raw.items() if k != held]))
            readings = [complete(s["text"], r) for s, r in
                        zip(statements, parsed([s["text"] for s in statements]), strict=True)]
            readings = [model_pairs.relink(as_read(s["text"]), r)
                        for s, r in zip(statements, readings, strict=True)]
            t = score(statements, readings)
            e = tally(statements, readings)["pl|all"]
            relations.update({k: t[k] for k in ("tp", "fp", "fn")})
            entities.update(e)
            row.append(f"{name}: relations {t['tp']}/{t['fp']}/{t['fn']} entities "
                       f"{e['tp']}/{e['fp']}/{e['fn']}")
        print("; ".join(row))
    accents._table = None
    for name, (relations, entities) in totals.items():
        print(f"{name}: Polish relations P / R / F1 " + "/".join(f"{v:.1f}" for v in pr(relations))
              + ", entities " + "/".join(f"{v:.1f}" for v in f1(entities)))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument("--held-out", action="store_true",
                        help="print the figures by author held out, save nothing")
    args = parser.parse_args()
    if args.held_out:
        held_out(sorted(Path(args.data).glob("tuning*.json")))
        return 0
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
