"""``wave bench attributes``: how well statements are read as attribute values, against hand
labels (``bench/data/attributes/*.json``).

A set is ``{"name", "items": [{"id", "lang", "text", "sets": [{"entity", "attribute", "value",
"op"}], "held": [...]}]}``: ``sets`` in the format of ``bench/data/month/HOW_WRITTEN.md``
(entity "user" or a name, attribute city / employer / ... / price:<what>, op set / add / remove
/ negate); ``held`` (optional) the values the person already holds, which an ending ("Рыжика
больше нет") needs to name its attribute. Each text is read as the writer reads it
(``write.attributes``: the world reader, then ``read_values``) and compared per language:

- attribute precision / recall: a found value counts when a label has its entity (a name, or
  a kin role: "мама" for ``role:mother``), attribute and value (same value: case, inflection,
  digits);
- op accuracy: of the values found and labelled, the share with the labelled op.

Pure CPU (natasha, pymorphy3), no store: runs in seconds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph import kin
from wave_agent.world.attributes import Value, as_said, read_values, same_value
from wave_agent.world.reader import read_batch
from wave_agent.world.reading import ROLE_PREFIX


@dataclass
class _Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    op_right: int = 0
    n: int = 0

    def row(self) -> dict[str, Any]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return {"P": round(100 * p, 1), "R": round(100 * r, 1),
                "op": round(100 * self.op_right / self.tp, 1) if self.tp else 0.0,
                "tp": self.tp, "fp": self.fp, "fn": self.fn, "n": self.n}


@dataclass
class Summary:
    name: str
    by_language: dict[str, _Tally] = field(default_factory=dict)
    misses: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        rows = {lang: t.row() for lang, t in sorted(self.by_language.items())}
        whole = _Tally()
        for t in self.by_language.values():
            whole.tp, whole.fp, whole.fn = whole.tp + t.tp, whole.fp + t.fp, whole.fn + t.fn
            whole.op_right, whole.n = whole.op_right + t.op_right, whole.n + t.n
        rows["all"] = whole.row()
        return {"set": self.name, "languages": rows, "misses": self.misses}


def _entity_matches(found: str, labelled: str) -> bool:
    if found.startswith(ROLE_PREFIX):
        return kin.role_of(labelled) == found[len(ROLE_PREFIX):]
    return found == labelled or same_value(found, labelled)


def _matches(found: Value, label: dict[str, str]) -> bool:
    return (_entity_matches(found.entity, label["entity"])
            and found.attribute == label["attribute"]
            and same_value(found.value, label["value"]))


def score(items: Sequence[dict[str, Any]], name: str = "set") -> Summary:
    """Read every item's text and compare the values with its labels."""
    readings = read_batch([as_said(item["text"]) for item in items])
    summary = Summary(name)
    for item, reading in zip(items, readings, strict=True):
        held = [Value(h["entity"], h["attribute"], h["value"], h["op"])
                for h in item.get("held", ())]
        found = list(read_values(item["text"], reading, held))
        labels = list(item.get("sets", ()))
        tally = summary.by_language.setdefault(item.get("lang", "?"), _Tally())
        tally.n += 1
        unmatched = list(labels)
        wrong: list[str] = []
        extra: list[str] = []
        for value in found:
            label = next((lb for lb in unmatched if _matches(value, lb)), None)
            if label is None:
                tally.fp += 1
                extra.append(value.encode())
                continue
            unmatched.remove(label)
            tally.tp += 1
            if value.op == label["op"]:
                tally.op_right += 1
            else:
                wrong.append(f"{value.encode()} (labelled {label['op']})")
        tally.fn += len(unmatched)
        if unmatched or extra or wrong:
            summary.misses.append({"id": item.get("id"), "text": item["text"],
                                   "missed": ["|".join(lb.values()) for lb in unmatched],
                                   "extra": extra, "wrong_op": wrong})
    return summary


def parts(data: Path) -> list[Path]:
    """The set files of a directory, tuning first (a kept-aside part, when there is one, is
    scored but its misses are never listed)."""
    files = sorted(data.glob("*.json"), key=lambda p: (p.stem != "tuning", p.stem))
    return files


def run_file(path: Path) -> dict[str, Any]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    items = raw.get("items") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        from wave_agent.errors import WaveError

        raise WaveError(f"{path} has no 'items' list",
                        next_step="write the set as {\"name\": ..., \"items\": [{\"text\": ..., "
                                  "\"sets\": [...]}]} (see wave_agent/bench/attributes.py)")
    out = score(items, str(raw.get("name", path.stem))).as_json()
    out["part"] = path.stem
    return out


__all__ = ["parts", "run_file", "score"]
