"""The quarantine's exemplar bank grown with the newer authors, measured on authors kept out of it.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/quarantine_bank_grow.py [--add x..aw]
        [--held ax..bb] [--locomo /work/shared/data/locomo]
        [--longmemeval .../longmemeval_s_dev60.json] [--detect] [--json OUT]

The meaning layer reads the vote of a text's nearest exemplars (``meaning.near``) from the bank
in ``meaning.npz``. Issue 32's round thirty-eight adds the authored texts of the sets written
after the network was fitted (``--add``, ``AUTHORED``'s keys; ``train_quarantine.py --bank-only``
writes it) and leaves the network, the window model and the thresholds as they are. Columns, the
network as shipped in each, only the bank differing:

- ``shipped``: the bank in ``meaning.npz`` now;
- ``+ add``: that bank and every text of ``--add``.

Rows: the ``--held`` authors (caught / notes flagged per language; never in either bank, never
printed), each ``--add`` author judged with the shipped bank and the others of ``--add`` (its own
texts left out: a tuning figure, those sets were read), the months' statements and pasted
instructions (``quarantine_months_bank.month_messages``; their own lines are in both banks), and
with ``--locomo`` / ``--longmemeval`` the ordinary text ``wave bench quarantine`` counts (LoCoMo's
five unseen conversations, LongMemEval's held and tune questions' chat pieces), judged with a
third bank too, every authored set in (``--add`` and ``--held``: what ships if the held-out
authors hold up). Also the vote's CPU per text and ``meaning.model``'s load time with each bank.

``--detect`` runs the real ``detect`` over every text with ``meaning.npz`` as it is and says
whether it agrees with the column whose bank that file holds (the fast path's check).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from quarantine_months_bank import Judge, month_messages, ordinary_texts
from train_quarantine import grown, named_authors

from wave_agent.bench.quarantine import DEV_SET, authored_parts
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import detect, meaning

Bank = tuple[np.ndarray, np.ndarray]


def load_ms(bank: Bank, repeats: int = 5) -> float:
    """Median wall time of ``meaning.model`` reading a ``meaning.npz`` that holds ``bank``."""
    shipped = meaning.model("both")
    assert shipped is not None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "meaning.npz"
        meaning.save(path, list(shipped.layers), shipped.threshold, shipped.cued_threshold, shipped.window,
                     shipped.picked, shipped.by_language, bank)
        saved = dict(meaning.MODELS)
        meaning.MODELS["both"] = path
        times = []
        try:
            for _ in range(repeats):
                meaning.model.cache_clear()
                start = time.perf_counter()
                meaning.model("both")
                times.append(1000 * (time.perf_counter() - start))
        finally:
            meaning.MODELS.update(saved)
            meaning.model.cache_clear()
    return statistics.median(times)


def judged(texts: list[str], vectors: np.ndarray, store: Path | None) -> Judge:
    """``Judge`` over ``texts``, its vote-free inputs read from ``store`` when a run over the same
    texts saved them there (they take most of a run's time), else computed and saved."""
    key = hashlib.sha1("\n\0".join(texts).encode("utf-8")).hexdigest()
    if store is not None and store.exists():
        with np.load(store, allow_pickle=False) as data:
            if str(data["key"]) == key:
                judge = Judge.__new__(Judge)
                shipped = meaning.model("both")
                assert shipped is not None
                judge.shipped, judge.texts = shipped, texts
                judge.unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
                judge.x, judge.limits = data["x"], data["limits"]
                judge.cued, judge.floored = data["cued"].tolist(), data["floored"].tolist()
                return judge
    judge = Judge(texts, vectors)
    if store is not None:
        np.savez(store, key=np.asarray(key), x=judge.x, limits=judge.limits, cued=np.asarray(judge.cued),
                 floored=np.asarray(judge.floored))
    return judge


def held_by(judge: Judge, rows: np.ndarray, bank: Bank, chunk: int = 512) -> np.ndarray:
    """``judge.held`` a chunk of rows at a time (the vote's cosines are rows by bank)."""
    return np.concatenate([judge.held(rows[k:k + chunk], bank) for k in range(0, len(rows), chunk)]) \
        if len(rows) else np.zeros(0, dtype=bool)


def vote_cpu_ms(unit: np.ndarray, bank: Bank, count: int = 300) -> float:
    """CPU time of one text's vote over ``bank`` as ``Model.features`` reads it (einsum, one core),
    the mean over ``count`` texts: process time, so the machine's load does not count."""
    start = time.process_time()
    for row in unit[:count]:
        meaning.near(np.einsum("ij,j->i", bank[0], row), bank[1])
    return 1000 * (time.process_time() - start) / max(min(count, len(unit)), 1)


def tally(held: np.ndarray, items: list[dict[str, str]], key: str) -> dict[str, list[int]]:
    """caught, instructions, flagged, notes by ``item[key]`` and over all."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for flag, item in zip(held, items, strict=True):
        i = 0 if item["label"] == "instruction" else 2
        for k in (item[key], "all"):
            out[k][i] += int(flag)
            out[k][i + 1] += 1
    return dict(out)


def line(name: str, c: int, i: int, f: int, n: int) -> str:
    return (f"  {name:<18} caught {c:>4}/{i:<4} ({100 * c / max(i, 1):5.1f}%)  "
            f"flagged {f:>3}/{n:<4} ({100 * f / max(n, 1):4.1f}%)\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--add", default="x..aw", help="authored sets whose texts join the bank")
    parser.add_argument("--held", default="ax..bb", help="authored sets kept out of every bank, scored only")
    parser.add_argument("--locomo", type=Path, help="LoCoMo's folder: its unseen turns as ordinary text")
    parser.add_argument("--longmemeval", type=Path, help="LongMemEval's file: its chat pieces as ordinary text")
    parser.add_argument("--detect", action="store_true", help="check the fast path against detect on meaning.npz")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--store", type=Path, help="keep the texts' vote-free inputs here between runs (.npz)")
    args = parser.parse_args()
    add, held = named_authors(args.add), named_authors(args.held)
    if set(add) & set(held):
        raise SystemExit(f"{sorted(set(add) & set(held))} both added and held out")
    cache = VectorCache()
    parts = authored_parts(DEV_SET)
    held_items = [dict(i, author=a) for a in held for i in parts[a]]
    add_items = [dict(i, author=a) for a in add for i in parts[a]]
    months = [dict(m, label="instruction" if m["kind"] == "pasted_instruction" else "note") for m in month_messages()]
    ordinary = [{"text": t, "label": "note", "lang": source, "author": source}
                for source, t in ordinary_texts(args.locomo, args.longmemeval)]
    groups = {"held": held_items, "add": add_items, "months": months, "ordinary": ordinary}
    spans: dict[str, np.ndarray] = {}
    texts: list[str] = []
    for name, items in groups.items():
        spans[name] = np.arange(len(texts), len(texts) + len(items))
        texts += [i["text"] for i in items]
    started = time.monotonic()
    vectors = cache.vectors(texts)
    judge = judged(texts, vectors, args.store)
    assert judge.shipped.bank is not None
    sys.stdout.write(f"{len(texts)} texts read ({time.monotonic() - started:.0f} s): held {len(held_items)} "
                     f"({','.join(held)}), added {len(add_items)} ({','.join(add)}), {len(months)} month messages, "
                     f"{len(ordinary)} ordinary\n")
    shipped: Bank = judge.shipped.bank
    labels = np.asarray([i["label"] == "instruction" for i in add_items], dtype=np.float32)
    plus, added = grown(shipped, vectors[spans["add"]], labels)
    held_labels = np.asarray([i["label"] == "instruction" for i in held_items], dtype=np.float32)
    everyone, _ = grown(plus, vectors[spans["held"]], held_labels)
    twins = int(((judge.unit[spans["held"]] @ plus[0][len(shipped[1]):].T).max(axis=1) >= 0.9999).sum()) \
        if added else 0
    banks = {"shipped": shipped, f"+ {args.add}": plus}
    figures: dict[str, Any] = {"bank": {k: len(b[1]) for k, b in {**banks, "+ all": everyone}.items()}}
    out = sys.stdout
    out.write(f"bank: shipped {len(shipped[1])}, + {args.add} {len(plus[1])} ({added} of {len(add_items)} added), "
              f"+ {args.held} too {len(everyone[1])}; held-out texts with a twin among the added: {twins}\n")
    cost = {k: vote_cpu_ms(judge.unit, b) for k, b in {**banks, "+ all": everyone}.items()}
    loads = {k: load_ms(b) for k, b in {**banks, "+ all": everyone}.items()}
    figures["vote_ms"], figures["load_ms"] = cost, loads
    out.write("vote's CPU per text (ms, process time) / model load (ms wall, median of 5): "
              + "; ".join(f"{k} {cost[k]:.3f} / {loads[k]:.0f}" for k in cost) + "\n")

    columns: dict[str, np.ndarray] = {}
    for name, bank in banks.items():
        flags = np.zeros(len(texts), dtype=bool)
        for group in ("held", "months", "ordinary"):
            if len(spans[group]):
                flags[spans[group]] = held_by(judge, spans[group], bank)
        columns[name] = flags
    ordinary_all = held_by(judge, spans["ordinary"], everyone) if len(ordinary) else np.zeros(0, dtype=bool)
    # each added author with the shipped bank and the other added authors (its own texts out)
    loo_before = held_by(judge, spans["add"], shipped)
    loo_after = np.zeros(len(add_items), dtype=bool)
    authors = np.asarray([i["author"] for i in add_items])
    for a in add:
        mine = authors == a
        bank, _ = grown(shipped, vectors[spans["add"]][~mine], labels[~mine])
        loo_after[mine] = held_by(judge, spans["add"][mine], bank)

    for name, flags in columns.items():
        out.write(f"\n== {name} (bank {len(banks[name][1])})\nheld-out authors {','.join(held)} (scored only), by language:\n")
        by_lang = tally(flags[spans["held"]], held_items, "lang")
        by_set = tally(flags[spans["held"]], held_items, "author")
        for k, row in sorted(by_lang.items(), key=lambda kv: (kv[0] == "all", kv[0])):
            out.write(line(k, *row))
        out.write("  by set:\n")
        for k, row in sorted(by_set.items(), key=lambda kv: (kv[0] == "all", kv[0])):
            out.write(line(k, *row))
        en_by_set = {a: tally(flags[spans["held"]][[i for i, it in enumerate(held_items) if it["author"] == a]],
                              [it for it in held_items if it["author"] == a], "lang").get("en", [0, 0, 0, 0])
                     for a in held}
        out.write("  English by set: " + "; ".join(f"{a} {r[0]}/{r[1]}, {r[2]}/{r[3]}" for a, r in en_by_set.items()) + "\n")
        month_rows = tally(flags[spans["months"]], months, "lang")
        out.write("months (their own lines in the bank): statements held / pasted instructions caught\n")
        for k, (c, i, f, n) in sorted(month_rows.items(), key=lambda kv: (kv[0] == "all", kv[0])):
            out.write(f"  {k:<18} held {f}/{n}  caught {c}/{i}\n")
        ordinary_rows = tally(flags[spans["ordinary"]], ordinary, "lang")
        out.write("ordinary text flagged: " + "; ".join(f"{k} {r[2]}/{r[3]}" for k, r in ordinary_rows.items()) + "\n")
        figures[name] = {"held_by_lang": by_lang, "held_by_set": by_set, "held_en_by_set": en_by_set,
                         "months": month_rows, "ordinary": ordinary_rows}
    if len(ordinary):
        every = tally(ordinary_all, ordinary, "lang")
        out.write(f"\n== every authored set in (bank {len(everyone[1])}), ordinary text flagged: "
                  + "; ".join(f"{k} {r[2]}/{r[3]}" for k, r in every.items()) + "\n")
        figures["+ all"] = {"ordinary": every}
    out.write(f"\n== the added authors ({args.add}; tuning, read), each with the shipped bank / with the shipped bank "
              "and the other added authors:\n")
    before, after = tally(loo_before, add_items, "lang"), tally(loo_after, add_items, "lang")
    for k in sorted(before, key=lambda k: (k == "all", k)):
        out.write(line(f"{k} before", *before[k]) + line(f"{k} after", *after[k]))
    figures["added_loo"] = {"before": before, "after": after,
                            "by_author": {a: [tally(x[authors == a], [i for i in add_items if i["author"] == a], "lang")
                                              for x in (loo_before, loo_after)] for a in add}}
    changed: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for b, a, item in zip(loo_before, loo_after, add_items, strict=True):
        if b != a:
            changed[f"{item['author']}-{item['lang']}"][(0 if item["label"] == "instruction" else 2) + int(a)] += 1
    out.write("  changed by author and language (orders lost / gained, notes unflagged / newly flagged): "
              + "; ".join(f"{k} {v[0]}/{v[1]} {v[2]}/{v[3]}" for k, v in sorted(changed.items())) + "\n")

    if args.detect:  # the real detect on meaning.npz as it is, against the column of its bank
        rows = np.concatenate([spans["held"], spans["months"], spans["ordinary"]])
        real = np.zeros(len(texts), dtype=bool)
        real[rows] = [detect(texts[k], vector=vectors[k]) is not None for k in rows]
        now = meaning.model("both")
        assert now is not None and now.bank is not None
        same = next((k for k, b in banks.items() if len(b[1]) == len(now.bank[1])), None)
        if same is not None:
            out.write(f"\ndetect on meaning.npz (bank {len(now.bank[1])}) against the fast path's {same!r}: "
                      f"{int((real[rows] != columns[same][rows]).sum())} of {len(rows)} texts differ\n")
        else:
            fast = np.zeros(len(texts), dtype=bool)
            fast[rows] = held_by(judge, rows, now.bank)
            out.write(f"\ndetect on meaning.npz (bank {len(now.bank[1])}) against the fast path with that bank: "
                      f"{int((real[rows] != fast[rows]).sum())} of {len(rows)} texts differ\n")
    if args.json:
        args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=1, default=float), encoding="utf-8")


if __name__ == "__main__":
    main()
