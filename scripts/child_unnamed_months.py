"""Statements of the honest months that speak of the person's own child without a kin word,
and what the reader holds of them (round thirty, h/child30; issue 30's "детей у меня нет"
against a child never held as a child).

A statement counts when its writer labelled a value of the person's ``child`` (``sets``:
entity ``user``, attribute ``child``, op ``add``/``set``) and its text has no word for a son,
daughter or child in any form (``kin.role_of`` of each word and of its lemma, and the class
words ``W.CHILDREN``). For each: the month, the id, the text (``--ids`` prints ids only, as
for months kept unread), the ``child`` values the attribute step reads with nothing held, the
people the world reader names and its ``kin:`` links from the person.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/child_unnamed_months.py [--ids] [tuning_2 ...]

Default months: ``tuning_2`` .. ``tuning_28`` (``tuning_29`` and ``tuning_30`` were kept unread
this round: run them with ``--ids`` only).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph import kin  # noqa: E402
from wave_agent.bench.month import load  # noqa: E402
from wave_agent.world import attribute_words as W  # noqa: E402
from wave_agent.world import read_many  # noqa: E402
from wave_agent.world.morphology import lemma as ru_lemma  # noqa: E402
from wave_agent.write.attributes import read  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"
READ = [f"tuning_{i}" for i in range(2, 29)]


def _kin_word(text: str) -> bool:
    for w in re.findall(r"\w+", text.lower()):
        lem = ru_lemma(w)
        if w in W.CHILDREN or lem in W.CHILDREN:
            return True
        if kin.role_of(w) in ("son", "daughter") or kin.role_of(lem) in ("son", "daughter"):
            return True
    return False


async def main(names: list[str], ids_only: bool) -> None:
    rows: list[dict[str, object]] = []
    for name in names:
        month = load(MONTHS / f"{name}.json")
        for m in month.messages:
            if not any(s.entity == "user" and s.attribute == "child" and s.op in ("add", "set")
                       for s in m.sets) or _kin_word(m.text):
                continue
            values = await read(m.text, [])
            reading = (await read_many([m.text]))[0]
            row: dict[str, object] = {
                "month": name, "id": m.id,
                "labelled": [s.value for s in m.sets if s.attribute == "child"],
                "child read": [f"{v.op} {v.value}" for v in values
                               if v.attribute == "child" and v.entity == "user"],
                "people": [x.name for x in reading.mentions if x.type.name == "PERSON"],
                "kin links": [f"{lk.type} {lk.target}" for lk in reading.links
                              if lk.type.startswith("kin:")],
                "denied later": sum(1 for e in month.messages if e.contradicts == m.id)}
            if not ids_only:
                row["text"] = m.text
            rows.append(row)
    print(json.dumps(rows, ensure_ascii=False, indent=1))
    print(json.dumps({"statements": len(rows),
                      "child held": sum(bool(r["child read"]) for r in rows),
                      "denied later": sum(bool(r["denied later"]) for r in rows)}))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--ids"]
    asyncio.run(main(args or READ, "--ids" in sys.argv))
