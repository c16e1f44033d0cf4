"""``wave bench dates``: how well the date reader (``policy.dates``) sets due times.

The set is a folder of JSON lists, one file per part (``tuning.json``, written beside the code;
``kept_aside.json``, written by someone who has not read it). Each item is a message about
something to do, the local moment it was written, the zone, and the due time a careful human
would set (``null`` when no date is named) or ``ambiguous: true`` when they would ask.

Figures per part and language:
- **due right**: of the items with a due time, the share read to the minute;
- **ambiguous asked**: of the ambiguous items, the share the reader asked about;
- **invented**: items with no due time (ambiguous or none named) that got one anyway;
- **exact**: the share of all items where due time and "ask" both match the label.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from wave_agent.policy.dates import REMINDER_HOUR, local_text, read_due

DEFAULT_DATA = Path("bench/data/dates")
# Each kept-aside part was written by another author who had not read the reader.
PARTS = ("tuning", "kept_aside", "kept_aside_2", "kept_aside_3", "kept_aside_4",
         "kept_aside_5", "kept_aside_6", "kept_aside_7", "kept_aside_8", "kept_aside_9",
         "kept_aside_10", "kept_aside_11")


@dataclass(frozen=True)
class Item:
    id: str
    lang: str
    text: str
    written_at: str
    tz: str
    due: str | None
    ambiguous: bool


@dataclass
class Score:
    items: int = 0
    with_due: int = 0
    due_right: int = 0
    ambiguous: int = 0
    asked: int = 0
    invented: int = 0
    exact: int = 0
    misses: list[dict[str, object]] = field(default_factory=list)

    def add(self, item: Item, due: str | None, asked: bool) -> None:
        self.items += 1
        right = due == item.due and asked == item.ambiguous
        self.exact += right
        if item.due is not None:
            self.with_due += 1
            self.due_right += due == item.due
        else:
            self.invented += due is not None
        if item.ambiguous:
            self.ambiguous += 1
            self.asked += asked
        if not right:
            self.misses.append({"id": item.id, "text": item.text, "written_at": item.written_at,
                                "want": "ask" if item.ambiguous else item.due,
                                "got": "ask" if asked else due})

    def figures(self) -> dict[str, object]:
        def share(part: int, whole: int) -> float | None:
            return round(100.0 * part / whole, 1) if whole else None

        return {"items": self.items, "due_right_pct": share(self.due_right, self.with_due),
                "with_due": self.with_due, "ambiguous_asked_pct": share(self.asked, self.ambiguous),
                "ambiguous": self.ambiguous, "invented": self.invented,
                "exact_pct": share(self.exact, self.items)}


def load(path: Path) -> list[Item]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [Item(**{k: entry[k] for k in Item.__dataclass_fields__}) for entry in raw]


def score(items: list[Item], reminder_hour: int = REMINDER_HOUR) -> dict[str, Score]:
    """Scores by language and ``all``."""
    scores: dict[str, Score] = {}
    for item in items:
        written = datetime.fromisoformat(item.written_at).replace(tzinfo=ZoneInfo(item.tz))
        reading = read_due(item.text, written, reminder_hour)
        due = local_text(reading.due) if reading.due is not None else None
        for key in (item.lang, "all"):
            scores.setdefault(key, Score()).add(item, due, reading.ambiguous)
    return scores


def bench(folder: Path) -> dict[str, dict[str, Score]]:
    """Every part found in ``folder``: ``{part: {language or "all": Score}}``."""
    return {part: score(load(folder / f"{part}.json"))
            for part in PARTS if (folder / f"{part}.json").exists()}


def render(results: dict[str, dict[str, Score]], misses: bool = False) -> str:
    lines = [f"{'part':<11} {'lang':<4} {'items':>5} {'due right':>14} {'asked':>12} "
             f"{'invented':>8} {'exact':>6}"]
    for part, by_lang in results.items():
        for lang in sorted(by_lang, key=lambda k: ("ru", "pl", "en", "all").index(k)
                           if k in ("ru", "pl", "en", "all") else 9):
            s = by_lang[lang]
            f = s.figures()
            lines.append(
                f"{part:<11} {lang:<4} {s.items:>5} "
                f"{_pct(f['due_right_pct']):>6} {s.due_right:>3}/{s.with_due:<3} "
                f"{_pct(f['ambiguous_asked_pct']):>6} {s.asked:>2}/{s.ambiguous:<2} "
                f"{s.invented:>8} {_pct(f['exact_pct']):>6}")
    if misses:
        for part, by_lang in results.items():
            for miss in by_lang["all"].misses if "all" in by_lang else []:
                lines.append(f"  {part} {miss['id']}: {miss['text']!r} written {miss['written_at']}"
                             f" want {miss['want']} got {miss['got']}")
    return "\n".join(lines)


def as_json(results: dict[str, dict[str, Score]]) -> dict[str, object]:
    return {part: {lang: {**s.figures(), "misses": s.misses} for lang, s in by_lang.items()}
            for part, by_lang in results.items()}


def _pct(value: object) -> str:
    return "-" if value is None else f"{value:.1f}%"


__all__ = ["DEFAULT_DATA", "Item", "Score", "as_json", "asdict", "bench", "load", "render", "score"]
