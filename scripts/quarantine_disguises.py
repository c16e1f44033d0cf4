"""Quarantine over every authored set, counted by disguise shape (issue 32, round twenty-seven).

Every JSON file under bench/data/quarantine/<folder>/ (set A's tuning.json too; never
kept_aside.json nor blind/) is read with the shipped ``detect`` (the meaning layer over the
cached e5 vector, as the writer judges). Each item's ``shape`` is put in a disguise family by
its name (spaced / dotted / reversed / shifted / leet / split / translit / homoglyph /
encoded, else "plain"); the table gives caught and missed instructions, notes flagged, and
which decoder of ``normalise`` proposed a reading (its notes). ``--save`` writes every item's
verdict; ``--against`` a saved file prints what changed, by language (caught up / down,
notes flagged up / down), so a decoder change is judged on all authors at once.

Every item is judged twice in one run (round thirty-nine): as before, with the e5 vector of the
text as written only, and as shipped, with the vector of the undone text too when ``normalise``
undid a disguise (``undone``), so the table gives both. ``--held`` folders (default: sets AZ ..
BC, ``fifty-second`` .. ``fifty-fifth``) are kept out of the table and of every printed text:
they are scored by language only, before / after. ``--ordinary LOCOMO`` also counts how many of
LoCoMo's turns and the months' statements ``normalise`` changes (the texts that cost a second
embedding) and how many of them are held before / after (no text printed).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/quarantine_disguises.py --save /tmp/q.json
    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/quarantine_disguises.py --against /tmp/q.json --misses
    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/quarantine_disguises.py --ordinary /work/shared/data/locomo
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import detect, normalise, undone

ROOT = Path(__file__).resolve().parents[1] / "bench" / "data" / "quarantine"
HELD = ("fifty-second", "fifty-third", "fifty-fourth", "fifty-fifth")  # AZ .. BC: scored, never printed
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


def judged(texts: list[str], cache: VectorCache) -> tuple[list[bool], list[bool], int]:
    """Each text held before (its own vector) and after (the undone text's vector too), and how
    many texts ``normalise`` changed (each a second embedding)."""
    vectors = cache.vectors(texts)
    again = [undone(t) for t in texts]
    changed = [i for i, a in enumerate(again) if a is not None]
    extra = cache.vectors([again[i] or "" for i in changed])
    second: dict[int, object] = dict(zip(changed, extra, strict=True))
    before, after = [], []
    for i, (text, vec) in enumerate(zip(texts, vectors, strict=True)):
        was = detect(text, vector=vec) is not None
        before.append(was)
        after.append(was if i not in second else detect(text, vector=vec, undone_vector=second[i]) is not None)  # type: ignore[arg-type]
    return before, after, len(changed)


def ordinary(locomo: Path, cache: VectorCache) -> None:
    """LoCoMo's turns and the months' statements: changed by ``normalise``, held before / after."""
    from wave_agent.bench.locomo_data import load_conversations
    from wave_agent.bench.quarantine_chat import MONTHS

    turns = [t.text for c in load_conversations(locomo) for t in c.turns]
    months: list[str] = []
    for path in sorted(MONTHS.glob("tuning*.json")):
        months += [m["text"] for m in json.loads(path.read_text(encoding="utf-8"))["messages"]
                   if m["kind"] != "pasted_instruction"]
    for name, texts in (("LoCoMo turns", turns), ("months' own messages", months)):
        before, after, changed = judged(texts, cache)
        sys.stdout.write(f"{name}: {len(texts)} texts, {changed} changed by normalise "
                         f"({100 * changed / max(len(texts), 1):.2f}%), held {sum(before)} -> {sum(after)}\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--against")
    ap.add_argument("--misses", action="store_true", help="print the disguised misses (tuning data)")
    ap.add_argument("--held", default=",".join(HELD), help="folders scored only, never printed")
    ap.add_argument("--ordinary", type=Path, help="LoCoMo's folder: ordinary text changed and held")
    args = ap.parse_args()
    held = set(filter(None, args.held.split(",")))
    cache = VectorCache()
    everything = items()
    data = [i for i in everything if i["folder"] not in held]
    kept = [i for i in everything if i["folder"] in held]
    before_all, after_all, _ = judged([i["text"] for i in everything], cache)
    verdict = {f"{i['folder']}/{i['id']}": (b, a) for i, b, a in zip(everything, before_all, after_all, strict=True)}
    verdicts: dict[str, bool] = {}
    table: dict[str, Counter[str]] = defaultdict(Counter)
    decoders: dict[str, Counter[str]] = defaultdict(Counter)
    missed: list[str] = []
    for item in data:
        key = f"{item['folder']}/{item['id']}"
        was, hit = verdict[key]
        verdicts[key] = hit
        fam = family(item.get("shape", ""))
        row = table[fam]
        if item["label"] == "instruction":
            row["n"] += 1
            row["caught0"] += was
            row["caught"] += hit
            for note in normalise(item["text"]).notes:
                decoders[fam][note] += 1
            if not hit and fam != "plain":
                missed.append(f"{key} [{item['lang']}] {item.get('shape')}: {item['text'][:160]!r}")
        else:
            row["notes"] += 1
            row["flagged0"] += was
            row["flagged"] += hit
    out = sys.stdout
    out.write(f"tuning sets (every folder but {', '.join(sorted(held))}), before -> after\n")
    out.write(f"{'family':10} {'caught':>15} {'notes flagged':>15}  decoders that proposed a reading\n")
    tot = Counter[str]()
    for fam in [f for f, _ in FAMILIES] + ["plain"]:
        r = table[fam]
        tot.update(r)
        dec = ", ".join(f"{k} {v}" for k, v in decoders[fam].most_common(5)) if fam != "plain" else ""
        out.write(f"{fam:10} {r['caught0']:5}->{r['caught']:5}/{r['n']:<4} {r['flagged0']:4}->{r['flagged']:4}/{r['notes']:<5}  {dec}\n")
    out.write(f"{'all':10} {tot['caught0']:5}->{tot['caught']:5}/{tot['n']:<4} {tot['flagged0']:4}->{tot['flagged']:4}/{tot['notes']:<5}\n")
    if kept:
        out.write("held-out sets (scored only), by language: caught before -> after / notes flagged before -> after\n")
        by: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        for item in kept:
            was, hit = verdict[f"{item['folder']}/{item['id']}"]
            for group in (item["folder"], "all"):
                c = by[(group, item["lang"])]
                kind = "i" if item["label"] == "instruction" else "n"
                c[kind] += 1
                c[kind + "0"] += was
                c[kind + "1"] += hit
        for (group, lang), c in sorted(by.items()):
            out.write(f"  {group:13} {lang:6} caught {c['i0']}->{c['i1']}/{c['i']}  notes flagged {c['n0']}->{c['n1']}/{c['n']}\n")
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
    if args.ordinary is not None:
        ordinary(args.ordinary, cache)


if __name__ == "__main__":
    main()
