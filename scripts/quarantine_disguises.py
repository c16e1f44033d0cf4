"""Quarantine over every authored set, counted by disguise shape (issue 32, round twenty-seven).

Every JSON file under bench/data/quarantine/<folder>/ (set A's tuning.json too; never
kept_aside.json nor blind/) is read with the shipped ``detect`` (the meaning layer over the
cached e5 vector, as the writer judges). Each item's ``shape`` is put in a disguise family by
its name (spaced / dotted / reversed / shifted / leet / split / translit / homoglyph /
encoded, else "plain"); the table gives caught and missed instructions, notes flagged, and
which decoder of ``normalise`` proposed a reading (its notes). ``--save`` writes every item's
verdict; ``--against`` a saved file prints what changed, by language (caught up / down,
notes flagged up / down), so a decoder change is judged on all authors at once.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/quarantine_disguises.py --save /tmp/q.json
    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/quarantine_disguises.py --against /tmp/q.json --misses
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import detect, normalise

ROOT = Path(__file__).resolve().parents[1] / "bench" / "data" / "quarantine"
FAMILIES = (("encoded", r"base64|hex|encod"), ("shifted", r"caesar|rot13|rot_|shift|cipher"),
            ("reversed", r"revers"), ("leet", r"leet"), ("dotted", r"dot|dash|hyphen|underscore"),
            ("spaced", r"spac"), ("split", r"split|vertical|column"), ("translit", r"translit"),
            ("homoglyph", r"homoglyph|unicode|zero"))


def family(shape: str) -> str:
    for name, pattern in FAMILIES:
        if re.search(pattern, shape or "", re.IGNORECASE):
            return name
    return "plain"


def items() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    paths = [ROOT / "tuning.json", *sorted(p for p in ROOT.glob("*/*.json")
                                           if p.parent.name not in ("blind", "src"))]
    for path in paths:
        for item in json.loads(path.read_text(encoding="utf-8")):
            if item.get("label") in ("instruction", "note"):
                out.append({**item, "folder": path.parent.name if path.parent != ROOT else "a"})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--against")
    ap.add_argument("--misses", action="store_true", help="print the disguised misses (tuning data)")
    args = ap.parse_args()
    data = items()
    vectors = VectorCache().vectors([i["text"] for i in data])
    verdicts: dict[str, bool] = {}
    table: dict[str, Counter[str]] = defaultdict(Counter)
    decoders: dict[str, Counter[str]] = defaultdict(Counter)
    missed: list[str] = []
    for item, vec in zip(data, vectors, strict=True):
        key = f"{item['folder']}/{item['id']}"
        hit = detect(item["text"], vector=vec) is not None
        verdicts[key] = hit
        fam = family(item.get("shape", ""))
        row = table[fam]
        if item["label"] == "instruction":
            row["n"] += 1
            row["caught"] += hit
            for note in normalise(item["text"]).notes:
                decoders[fam][note] += 1
            if not hit and fam != "plain":
                missed.append(f"{key} [{item['lang']}] {item.get('shape')}: {item['text'][:160]!r}")
        else:
            row["notes"] += 1
            row["flagged"] += hit
    out = sys.stdout
    out.write(f"{'family':10} {'caught':>9} {'missed':>6} {'notes fl.':>10}  decoders that proposed a reading\n")
    for fam in [f for f, _ in FAMILIES] + ["plain"]:
        r = table[fam]
        dec = ", ".join(f"{k} {v}" for k, v in decoders[fam].most_common(5)) if fam != "plain" else ""
        out.write(f"{fam:10} {r['caught']:4}/{r['n']:<4} {r['n'] - r['caught']:6} {r['flagged']:4}/{r['notes']:<5}  {dec}\n")
    tot = Counter[str]()
    for r in table.values():
        tot.update(r)
    out.write(f"{'all':10} {tot['caught']:4}/{tot['n']:<4} {tot['n'] - tot['caught']:6} {tot['flagged']:4}/{tot['notes']:<5}\n")
    if args.misses:
        out.write("\n".join(missed) + "\n")
    if args.save:
        Path(args.save).write_text(json.dumps(verdicts), encoding="utf-8")
    if args.against:
        before = json.loads(Path(args.against).read_text(encoding="utf-8"))
        change: dict[str, Counter[str]] = defaultdict(Counter)
        for item in data:
            key = f"{item['folder']}/{item['id']}"
            was, now = before.get(key), verdicts[key]
            if was is None or was == now:
                continue
            kind = ("caught" if item["label"] == "instruction" else "flagged") + (" up" if now else " down")
            change[item["lang"]][kind] += 1
            out.write(f"  {kind}: {key} [{item['lang']}] {item.get('shape')}: {item['text'][:120]!r}\n")
        for lang, c in sorted(change.items()):
            out.write(f"{lang}: {dict(c)}\n")


if __name__ == "__main__":
    main()
