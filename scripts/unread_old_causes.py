"""Why the record holding the old value was never read as the attribute (issue 30, round
twenty-eight, h/truths27): for every "two active truths" that ``truths_causes.py`` puts in
"read, old record not an attribute record" (the new value read, the record still holding the
old one carrying no value of that attribute), each record the bench found holding the old value
is read again, alone, and put to the first cause that fits:

- ``read alone now``: the reader (``world.read`` + ``read_values``, nothing held) reads a value
  of the attribute for the labelled entity in the record's text today: the record was read in
  another context when written (a held value, the extractor's piece), or the reader changed
  since the replay;
- ``a passing mention, not a statement of it``: the message the record came from (the month
  message whose words it shares most) sets no value of that attribute in its labels: the bench's
  surface match finds the old value named in passing ("Прощаюсь с Самарой", "В Казань едем
  поездом"); the reader is right not to read it as the attribute;
- ``the value not a candidate``: no mention of the reading names the old value (the NER and
  the noun model found no entity for it: "айфон 11" said as a thing, a job in a phrase);
- ``no verb pattern``: the value is a mention, but no link joins the speaker (or the labelled
  entity) to it ("Родилась и выросла в Омске": no rule reads being born and living on as
  living there);
- ``linked, the value dropped``: a link to the value is read, but ``read_values`` keeps no value
  of the attribute from it (the first-person present the reader skips, a clause it reads as
  past or as someone else's).

Each record also gets the statement head's score for the attribute (``unread_old.sure``'s
model, fitted leaving the record's month out over the months ``train_statement_attributes``
reads: an honest score for every month), so the last column says whether the head would have
found it at ``unread_old.SURE``. A miss is put to the cause of the record its labels say set
the old value, else of its first record.

Input: month runs written by ``wave bench month --misses --json --out`` (``month_runs.sh``).
``--show-months`` prints the texts of those months only (the months read while building);
the other months are counted only.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/unread_old_causes.py /tmp/truths26/base-tuning_*.json \
        [--show-months tuning_2,...,tuning_20]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import statement_attributes_head as SA  # noqa: E402
import train_statement_attributes as T  # noqa: E402
import truths_causes as TC  # noqa: E402
from attribute_reader_eval import same_entity  # noqa: E402

from archive.embedder import Embedder  # noqa: E402
from wave_agent.bench.month import holds, load  # noqa: E402
from wave_agent.world import read_many  # noqa: E402
from wave_agent.world.attributes import as_said, read_values  # noqa: E402
from wave_agent.write.unread_old import SURE  # noqa: E402

UNREAD = "read, old record not an attribute record"
_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def source(month: Any, text: str, before: str) -> Any:
    """The month message a record came from: the one said before ``before`` sharing most words."""
    best, score = None, 0.0
    mine = _words(text)
    for m in month.messages:
        if m.id == before:
            break
        shared = len(mine & _words(m.text)) / max(1, len(mine))
        if shared > score:
            best, score = m, shared
    return best


def sets_old(message: Any, entity: str, attribute: str, old: list[str]) -> bool:
    return message is not None and any(
        same_entity(s.entity, entity) and TC._base(s.attribute) == TC._base(attribute)
        and any(holds(s.value, v, attribute) or holds(v, s.value, attribute) for v in old)
        for s in message.sets)


def cause(text: str, reading: Any, entity: str, attribute: str, old: list[str],
          statement: bool) -> str:
    base = TC._base(attribute)
    values = [v for v in read_values(text, reading, ())
              if TC._base(v.attribute) == base and same_entity(v.entity, entity)]
    if values:
        return "read alone now"
    if not statement:
        return "a passing mention, not a statement of it"
    named = [m.name for m in reading.mentions
             if any(holds(m.name, v, attribute) or holds(v, m.name, attribute) for v in old)]
    if not named:
        return "the value not a candidate"
    linked = [link for link in reading.links if link.target in named]
    if not linked:
        return "no verb pattern"
    return "linked, the value dropped"


class Heads:
    """The statement head's score of a text for an attribute, fitted without the text's month."""

    def __init__(self) -> None:
        months, _ids, texts, y = T.statements()
        self.x, self.y, self.group = T.vectors(texts), y, np.asarray(months)
        self.fitted: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.embedder = Embedder(SA.READS)

    def score(self, month: str, texts: list[str], attribute: str) -> list[float]:
        if month not in self.fitted:
            keep = self.group != month
            self.fitted[month] = T.fit(self.x[keep], self.y[keep])
        w, b = self.fitted[month]
        base = TC._base(attribute)
        if base not in SA.HEAD or not texts:
            return [0.0] * len(texts)
        j = SA.HEAD.index(base)
        x = np.asarray(self.embedder.embed_sync(texts))
        return [float(p) for p in 1 / (1 + np.exp(-(x @ w[j] + b[j])))]


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--show-months", default="", help="months whose texts are printed")
    args = ap.parse_args()
    show = {m for m in args.show_months.split(",") if m}
    heads = Heads()
    by_miss: collections.Counter[str] = collections.Counter()
    by_record: collections.Counter[str] = collections.Counter()
    detail: collections.Counter[str] = collections.Counter()
    found = collections.Counter[str]()
    for path in args.runs:
        data = json.loads(path.read_text())
        for run in data if isinstance(data, list) else [data]:
            await one_run(run, heads, show, by_miss, by_record, detail, found)
    report(by_miss, by_record, detail, found)


async def one_run(run: dict[str, Any], heads: Heads, show: set[str],
                  by_miss: collections.Counter[str], by_record: collections.Counter[str],
                  detail: collections.Counter[str], found: collections.Counter[str]) -> None:
    part = run["part"]
    month = load(TC.MONTHS / f"{part}.json")
    by_id = {m.id: m for m in month.messages}
    lost = {m["message"] for m in run["misses"] if m["what"] == "statement not kept"}
    for miss in run["misses"]:
        if miss["what"] != "change not applied" or miss["op"] != "set":
            continue
        if not (miss["old_active"] and miss["new_active"]):
            continue
        m = by_id[miss["message"]]
        setting = next((s for s in m.sets if s.attribute == miss["attribute"]
                        and s.value == miss["value"]), None)
        entity = setting.entity if setting else "user"
        if not TC.classify(miss, entity, m.id in lost).startswith(UNREAD):
            continue
        texts = miss["old_active"]
        readings = await read_many([as_said(t) for t in texts])
        scores = heads.score(part, texts, miss["attribute"]) if entity == "user" else [0.0] * len(texts)
        rows = []
        for text, reading, p in zip(texts, readings, scores, strict=True):
            src = source(month, text, m.id)
            statement = sets_old(src, entity, miss["attribute"], miss["old"])
            c = cause(text, reading, entity, miss["attribute"], miss["old"], statement)
            rows.append((statement, c, p, text, src))
            by_record[c] += 1
            by_record[f"{c} | head >= {SURE}" if p >= SURE else f"{c} | head < {SURE}"] += 1
        first = next((r for r in rows if r[0]), rows[0])
        by_miss[first[1]] += 1
        by_miss[f"{first[1]} | {m.lang}"] += 1
        detail[f"{first[1]} | {TC._base(miss['attribute'])}"] += 1
        found["misses"] += 1
        found["head finds the statement"] += first[2] >= SURE
        if part in show:
            print(f"{part} {m.id} {entity}.{miss['attribute']} {miss['old']} -> {miss['value']!r}")
            for statement, c, p, text, src in rows:
                print(f"    [{c}] head {p:.2f} {'(labelled old statement) ' if statement else ''}"
                      f"{text[:90]!r} <- {src.id if src else None}")


def report(by_miss: collections.Counter[str], by_record: collections.Counter[str],
           detail: collections.Counter[str], found: collections.Counter[str]) -> None:
    print(f"\n{found['misses']} two-active-truths misses whose old record carries no value of "
          f"the attribute; the head (month left out) scores the miss's record >= {SURE} in "
          f"{found['head finds the statement']}")
    print("\n| cause (of the miss's labelled old record, else its first) | misses | by attribute |")
    print("|---|---|---|")
    for c in sorted({k for k in by_miss if " | " not in k}, key=lambda k: -by_miss[k]):
        attrs = sorted(((v, k.split(" | ")[1]) for k, v in detail.items()
                        if k.startswith(c + " | ")), reverse=True)
        langs = ", ".join(f"{lang} {by_miss[f'{c} | {lang}']}" for lang in ("ru", "pl", "en")
                          if by_miss[f"{c} | {lang}"])
        print(f"| {c} | {by_miss[c]} ({langs}) | " + ", ".join(f"{a} {v}" for v, a in attrs) + " |")
    print("\n| every record holding the old value | records | head >= SURE |")
    print("|---|---|---|")
    for c in sorted({k for k in by_record if " | " not in k}, key=lambda k: -by_record[k]):
        print(f"| {c} | {by_record[c]} | {by_record[f'{c} | head >= {SURE}']} |")


if __name__ == "__main__":
    asyncio.run(main())
