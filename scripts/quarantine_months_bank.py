"""The person's own words held by quarantine in the months, and the months' pastes caught.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/quarantine_months_bank.py [--show]
        [--bank none|notes|notes+orders] [--authors x,y,...] [--json OUT]
        [--locomo /work/shared/data/locomo] [--longmemeval .../longmemeval_s_dev60.json]

Over every month in bench/data/month/tuning*.json (each file one writer), every message the month
labels ``statement`` (the person's own words) and every ``pasted_instruction`` (a paste carrying
an order to the assistant), each judged as the post-processor judges a message: the shipped
``detect`` with the text's e5 passage vector. Prints, per month, the statements held and the
pasted instructions caught.

``--bank`` measures the meaning layer's exemplar bank (``meaning.near``: the vote of a text's
nearest authored texts, an input of the network) with the months' own lines added
(``bench.quarantine_chat.month_lines``: statements, small talk, questions and what the offline
extractor keeps of them) as notes, and with ``notes+orders`` the months' pasted instructions as
orders too. Held out both ways, as a new writer would meet it:

- **leave one month out**: each month's messages are judged with a bank holding only the other
  months' lines, never its own;
- **the quarantine authors the network never saw** (``--authors``; the default is every authored
  set after set W, the last one in the shipped network's training and bank): caught / flagged
  per language with the shipped bank and with the bank plus every month's lines.

``--locomo`` / ``--longmemeval``: the ordinary text ``wave bench quarantine`` counts notes flagged
on (LoCoMo's turns of the conversations the network never trained on; LongMemEval's everyday chat
pieces, the held and the tune questions' histories), judged with each bank, and the vote's cost
(the einsum over the bank, per text) with each.

The network and its thresholds are the shipped ones in every column; only the bank changes.
``--write`` saves the shipped model with the bank plus every month's lines (what ships).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from wave_agent.bench.quarantine import (
    AUTHORED,
    CHAT_HELD,
    CHAT_TUNE,
    DEV_SET,
    TRAIN_CONVERSATIONS,
    authored_parts,
)
from wave_agent.bench.quarantine_chat import MONTHS, chat_turns, month_exemplars
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import detect, floor, meaning, phrases, rules
from wave_agent.policy.quarantine.normalise import normalise

# the authored sets after W, the last in the shipped network's training and bank (d0f70bf): text
# neither the network nor the bank ever saw
AUTHORED_BANK = 7388  # the shipped twenty-four-writer model's bank: the authored texts only
UNSEEN = tuple(list(AUTHORED)[list(AUTHORED).index("x"):])


def month_messages(root: Path = MONTHS) -> list[dict[str, Any]]:
    """Every statement and pasted instruction of the tuning months, with its month's writer."""
    out = []
    for path in sorted(root.glob("tuning*.json")):
        month = json.loads(path.read_text(encoding="utf-8"))
        for message in month["messages"]:
            if message["kind"] in ("statement", "pasted_instruction"):
                out.append({"month": path.stem, "writer": str(month["user"]), "kind": message["kind"],
                            "lang": message["lang"], "text": message["text"]})
    return out


class Judge:
    """The shipped ``detect``'s meaning path with the bank swapped: every text's input without
    the vote is computed once, the vote per bank."""

    def __init__(self, texts: list[str], vectors: np.ndarray) -> None:
        shipped = meaning.model("both")
        assert shipped is not None and shipped.bank is not None
        self.shipped = shipped
        bare = replace(shipped, bank=None)
        self.texts = texts
        self.unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        rows, self.cued, self.floored = [], [], []
        for text, vector in zip(texts, vectors, strict=True):
            seen = normalise(text)
            found = phrases.detect(seen.text)
            hit, _, present = rules.read_all(seen.text)
            rows.append(bare.features(vector, seen, found is not None, hit is not None, present))
            self.cued.append(found is not None or hit is not None)
            self.floored.append(floor(found, seen.text))
        self.x = np.stack(rows)
        self.limits = np.asarray([shipped.limit(normalise(t).text, c) for t, c in zip(texts, self.cued, strict=True)])

    def held(self, rows: np.ndarray, bank: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """Whether each of ``rows`` (indices) is held, the vote read from ``bank``."""
        vote = meaning.near(np.einsum("ij,kj->ik", self.unit[rows], bank[0]), bank[1])
        x = np.hstack([self.x[rows], vote])
        p = np.asarray([self.shipped.probability(r) for r in x])
        return (p >= self.limits[rows]) | np.asarray(self.floored)[rows]


def month_bank(cache: VectorCache, orders: bool,
               against: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The months' lines as exemplars: unit vectors, labels (1: an order) and each row's month
    writer. ``orders``: the months' pasted instructions as orders too; ``against``: only the lines
    that bank votes an order (``month_exemplars``)."""
    unit, labels, writers = month_exemplars(cache, against)
    if orders:
        pasted = [m for m in month_messages() if m["kind"] == "pasted_instruction"]
        vectors = cache.vectors([m["text"] for m in pasted])
        unit = np.vstack([unit, vectors / np.linalg.norm(vectors, axis=1, keepdims=True)]).astype(np.float32)
        labels = np.concatenate([labels, np.ones(len(pasted), dtype=np.float32)])
        writers = np.concatenate([writers, np.asarray([m["writer"] for m in pasted])])
    return unit, labels, writers


def ordinary_texts(locomo: Path | None, longmemeval: Path | None) -> list[tuple[str, str]]:
    """(source, text) of the ordinary text ``wave bench quarantine`` counts flagged."""
    out: list[tuple[str, str]] = []
    if locomo is not None:
        from wave_agent.bench.locomo_data import load_conversations

        out += [("locomo_unseen", t.text) for c in load_conversations(locomo)[TRAIN_CONVERSATIONS:] for t in c.turns]
    if longmemeval is not None:
        for split, count in (("held", CHAT_HELD), ("tune", CHAT_TUNE)):
            out += [(f"longmemeval_{split}", t) for t in chat_turns(longmemeval, split, count)]
    return out


def vote_cost_ms(unit: np.ndarray, bank: tuple[np.ndarray, np.ndarray], count: int = 300) -> float:
    """Mean wall time of one text's vote (as ``Model.features`` reads it) over ``bank``."""
    start = time.perf_counter()
    for row in unit[:count]:
        meaning.near(np.einsum("ij,j->i", bank[0], row), bank[1])
    return 1000 * (time.perf_counter() - start) / max(min(count, len(unit)), 1)


def with_rows(bank: tuple[np.ndarray, np.ndarray], unit: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.vstack([bank[0], unit]), np.concatenate([bank[1], labels])


def write(cache: VectorCache, orders: bool, wrong_only: bool) -> None:
    """Save the shipped model again with the months' lines in its bank (nothing else changes)."""
    m = meaning.model("both")
    assert m is not None and m.bank is not None
    if len(m.bank[1]) != AUTHORED_BANK:
        raise SystemExit(f"meaning.npz's bank has {len(m.bank[1])} exemplars, not the authored {AUTHORED_BANK}: "
                         "the months are in it already")
    unit, labels, _ = month_bank(cache, orders, m.bank if wrong_only else None)
    full = with_rows(m.bank, unit, labels)
    meaning.save(meaning.MODELS["both"], list(m.layers), m.threshold, m.cued_threshold, m.window, m.picked,
                 m.by_language, full)
    sys.stdout.write(f"saved {meaning.MODELS['both']} with a bank of {len(full[1])} exemplars\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bank", choices=("none", "notes", "notes+orders"), default="none")
    parser.add_argument("--authors", default=",".join(UNSEEN), help="authored sets to score (AUTHORED's keys)")
    parser.add_argument("--show", action="store_true", help="print each statement held and paste missed")
    parser.add_argument("--write", action="store_true", help="save meaning.npz with the months in its bank")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--wrong-only", action="store_true",
                        help="only the months' lines the shipped bank votes an order (``month_exemplars``'s against)")
    parser.add_argument("--fast", action="store_true",
                        help="judge the shipped bank by the fast path only (a run without it checks they agree)")
    parser.add_argument("--locomo", type=Path, help="LoCoMo's folder: its unseen turns as ordinary text")
    parser.add_argument("--longmemeval", type=Path, help="LongMemEval's file: its chat pieces as ordinary text")
    args = parser.parse_args()
    cache = VectorCache()
    if args.write:
        write(cache, args.bank == "notes+orders", args.wrong_only)
        return
    messages = month_messages()
    parts = authored_parts(DEV_SET)
    items = [dict(i, author=a) for a in args.authors.split(",") if a for i in parts.get(a, [])]
    ordinary = ordinary_texts(args.locomo, args.longmemeval)
    items += [{"text": t, "label": "note", "lang": source, "author": source} for source, t in ordinary]
    texts = [m["text"] for m in messages] + [i["text"] for i in items]
    vectors = cache.vectors(texts)
    judge = Judge(texts, vectors)
    assert judge.shipped.bank is not None
    # the authored exemplars (the bank before this round); a meaning.npz saved by ``--write`` or by
    # train_quarantine.py's --months-bank carries the months' lines after them
    shipped = (judge.shipped.bank[0][:AUTHORED_BANK], judge.shipped.bank[1][:AUTHORED_BANK])
    n = len(messages)
    figures: dict[str, Any] = {}

    # the shipped model through the real ``detect``: the fast path must agree with it
    fast = judge.held(np.arange(len(texts)), shipped)
    real = fast if args.fast else np.asarray([detect(t, vector=v) is not None
                                              for t, v in zip(texts, vectors, strict=True)])
    columns = {"shipped": fast}  # the authored bank: the model before round twenty-eight
    if len(judge.shipped.bank[1]) > AUTHORED_BANK and not args.fast:  # the months in meaning.npz: detect as it is
        columns["meaning.npz as it is (detect; the months in-sample)"] = real
    elif not np.array_equal(real, fast):
        sys.stdout.write(f"WARNING: the fast path disagrees with detect on {int((real != fast).sum())} texts\n")
    if args.bank != "none":
        unit, labels, writers = month_bank(cache, args.bank == "notes+orders", shipped if args.wrong_only else None)
        after = np.zeros(len(texts), dtype=bool)
        for writer in sorted(set(m["writer"] for m in messages)):  # leave one month's writer out
            rows = np.asarray([k for k, m in enumerate(messages) if m["writer"] == writer])
            keep = writers != writer
            after[rows] = judge.held(rows, with_rows(shipped, unit[keep], labels[keep]))
        if items:
            rows = np.arange(n, len(texts))
            after[rows] = judge.held(rows, with_rows(shipped, unit, labels))
        columns[f"+ months ({args.bank}{', wrong only' if args.wrong_only else ''})"] = after
        full = with_rows(shipped, unit, labels)
        sys.stdout.write(f"the vote's cost per text: shipped bank ({len(shipped[1])}) "
                         f"{vote_cost_ms(judge.unit, shipped):.3f} ms, with the months ({len(full[1])}) "
                         f"{vote_cost_ms(judge.unit, full):.3f} ms\n")

    out = sys.stdout
    out.write(f"{n} month messages ({sum(m['kind'] == 'statement' for m in messages)} statements, "
              f"{sum(m['kind'] == 'pasted_instruction' for m in messages)} pasted instructions) of "
              f"{len(set(m['month'] for m in messages))} months; {len(items)} authored texts of {args.authors}\n")
    for name, held in columns.items():
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for k, m in enumerate(messages):
            i = 0 if m["kind"] == "statement" else 2
            for row in (per[m["month"]], per["all"], by_lang[m["lang"]]):
                row[i] += int(held[k])
                row[i + 1] += 1
        quarantine: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for k, item in enumerate(items, start=n):
            i = 0 if item["label"] == "instruction" else 2
            pooled = item["author"] == item["lang"]  # ordinary text (LoCoMo, LongMemEval): its own row only
            for key in (item["lang"],) if pooled else (item["lang"], "all"):
                quarantine[key][i] += int(held[k])
                quarantine[key][i + 1] += 1
        figures[name] = {"months": dict(per), "months_by_lang": dict(by_lang), "authors": dict(quarantine)}
        out.write(f"\n== {name}\nmonths, statements held / pasted instructions caught (each month "
                  f"{'judged with the other months in the bank' if name.startswith('+ months') else 'as this bank'}):\n")
        for month, (h, s, c, p) in sorted(per.items(), key=lambda kv: (kv[0] == "all", kv[0])):
            out.write(f"  {month:<12} {h:>3} / {s:<4} {c:>2} / {p}\n")
        for lang, (h, s, c, p) in sorted(by_lang.items()):
            out.write(f"  [{lang}]        {h:>3} / {s:<4} {c:>2} / {p}\n")
        out.write("quarantine authors the network never saw, caught / flagged (and ordinary text flagged):\n")
        for lang, (c, i, f, notes) in sorted(quarantine.items()):
            out.write(f"  {lang:<5} caught {c}/{i} ({100 * c / max(i, 1):.1f}%)  "
                      f"flagged {f}/{notes} ({100 * f / max(notes, 1):.1f}%)\n")
        if args.show:
            for k, m in enumerate(messages):
                if (m["kind"] == "statement") == bool(held[k]):
                    what = "held" if held[k] else "missed"
                    out.write(f"  {what} {m['month']} {m['lang']} | {m['text'][:110]!r}\n")
    if args.bank != "none" and items:  # what the bank changed, author by author (one author's noise)
        before, after = columns["shipped"], columns[next(k for k in columns if k.startswith("+ months"))]
        changed: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for k, item in enumerate(items, start=n):
            if before[k] != after[k]:
                changed[item["author"]][(0 if item["label"] == "instruction" else 2) + int(bool(after[k]))] += 1
        out.write("\nchanged by author (orders lost / gained, notes unflagged / newly flagged):\n")
        for author, (lost, gained, cleared, flagged) in sorted(changed.items()):
            out.write(f"  {author:<18} {lost} / {gained}   {cleared} / {flagged}\n")
    if args.json:
        args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
