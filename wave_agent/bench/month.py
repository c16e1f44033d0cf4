"""``wave bench month``: a month of one person's chat replayed through the ``wave chat`` turn.

A month file (format: ``bench/data/month/HOW_WRITTEN.md``) holds dated messages, each labelled
(statement, small talk, pasted instruction, question) with the attribute values it sets, and
questions at checkpoints. The replay runs, for every message at its own time (the clock, ``now=``
on the turn and the post-processor's ``at``), exactly what ``wave chat`` runs: the turn and its
offline reply, then the post-processor writing every layer. After each day it reads
``wave health`` (contradictions raised that day) and approves every proposal of the day, as a
person tapping "yes". At each checkpoint it asks every question through the recall path
(``wave recall``: the preset chosen by the question's intent, so history questions open replaced
records) and a sample through the chat turn.

It runs on a fresh person in a fresh DATA_DIR (Qdrant local, blocks, outbox, logs) against the
real Neo4j the settings name (start it with ``wave services up``). Figures are printed per part
(the file's name or ``--part``) and per language.

A value is "held" by a record when, after normalising both (case, ё/е, Russian lemmas via the
project's morphology, Snowball stems for Polish and English), every word of the value is among
the record's words; phone numbers compare digits, prices their amounts.

A module of this size: the month file's reader, the judge of "held" and the replay's tallies
are one measurement, read together when a figure is questioned.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from wave_agent.errors import WaveError
from wave_agent.infra import clock

if TYPE_CHECKING:
    from graph.models import Fact
    from wave_agent.settings import Settings

KINDS = ("statement", "small_talk", "pasted_instruction", "question")
OPS = ("set", "add", "remove", "negate")
QUESTION_KINDS = ("current", "history", "stable")
CHAT_SAMPLE_EVERY = 5  # every 5th question is also asked in the chat turn
OUTAGE_WORDS = ("is not answering", "недоступна", "unavailable")


# -- reading a month file ------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    entity: str
    attribute: str
    value: str
    op: str


@dataclass(frozen=True)
class Message:
    id: str
    at: datetime
    lang: str
    text: str
    kind: str
    sets: tuple[Setting, ...]
    contradicts: str | None


@dataclass(frozen=True)
class Question:
    id: str
    lang: str
    text: str
    kind: str
    entity: str
    attribute: str
    expect: str
    stale: tuple[str, ...]


@dataclass(frozen=True)
class Checkpoint:
    at: datetime
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class Month:
    name: str
    tz: str
    messages: tuple[Message, ...]
    checkpoints: tuple[Checkpoint, ...]


def _bad(path: Path, where: str, what: str) -> WaveError:
    return WaveError(f"{path}: {where}: {what}",
                     next_step="fix the file; its format is in bench/data/month/HOW_WRITTEN.md")


def _moment(path: Path, where: str, raw: Any, tz: ZoneInfo) -> datetime:
    try:
        at = datetime.fromisoformat(str(raw))
    except ValueError:
        raise _bad(path, where, f"'at' {raw!r} is not an ISO date and time "
                                "(e.g. 2026-11-01T09:12)") from None
    return at if at.tzinfo else at.replace(tzinfo=tz)


def load(path: Path) -> Month:
    """Read and check a month file; a wrong one is refused naming the item and the field."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise WaveError(f"No month file at {path}",
                        next_step="pass --data with a month file or its folder") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _bad(path, "the file", f"not UTF-8 JSON ({exc})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("messages"), list):
        raise _bad(path, "the file", "expected an object with 'messages' and 'checkpoints'")
    try:
        tz = ZoneInfo(str(raw.get("tz") or "UTC"))
    except Exception:
        raise _bad(path, "tz", f"{raw.get('tz')!r} is not a time zone name") from None
    messages: list[Message] = []
    for n, m in enumerate(raw["messages"]):
        where = f"message {m.get('id', n) if isinstance(m, dict) else n}"
        if not isinstance(m, dict) or not str(m.get("text", "")).strip():
            raise _bad(path, where, "needs an object with a non-empty 'text'")
        if m.get("kind") not in KINDS:
            raise _bad(path, where, f"'kind' must be one of {', '.join(KINDS)}")
        sets = []
        for s in m.get("sets") or []:
            if not isinstance(s, dict) or s.get("op") not in OPS or not s.get("attribute"):
                raise _bad(path, where, f"each of 'sets' needs entity, attribute, value and "
                                        f"an op in {', '.join(OPS)}")
            sets.append(Setting(str(s.get("entity") or "user"), str(s["attribute"]),
                                str(s.get("value") or ""), str(s["op"])))
        messages.append(Message(str(m.get("id") or f"m{n:03d}"),
                                _moment(path, where, m.get("at"), tz), str(m.get("lang") or "ru"),
                                str(m["text"]), str(m["kind"]), tuple(sets),
                                m.get("contradicts") or None))
    checkpoints: list[Checkpoint] = []
    for n, c in enumerate(raw.get("checkpoints") or []):
        where = f"checkpoint {n + 1}"
        if not isinstance(c, dict) or not isinstance(c.get("questions"), list):
            raise _bad(path, where, "needs 'at' and a list of 'questions'")
        qs = []
        for q in c["questions"]:
            qwhere = f"question {q.get('id', '?') if isinstance(q, dict) else '?'}"
            if not isinstance(q, dict) or not str(q.get("text", "")).strip():
                raise _bad(path, qwhere, "needs a non-empty 'text'")
            if q.get("kind") not in QUESTION_KINDS:
                raise _bad(path, qwhere, f"'kind' must be one of {', '.join(QUESTION_KINDS)}")
            stale = q.get("stale") or []
            qs.append(Question(str(q.get("id")), str(q.get("lang") or "ru"), str(q["text"]),
                               str(q["kind"]), str(q.get("entity") or "user"),
                               str(q.get("attribute") or ""), str(q.get("expect") or ""),
                               tuple(str(s) for s in (stale if isinstance(stale, list) else [stale]))))
        checkpoints.append(Checkpoint(_moment(path, where, c.get("at"), tz), tuple(qs)))
    messages.sort(key=lambda m: m.at)
    return Month(str(raw.get("name") or path.stem), str(tz), tuple(messages),
                 tuple(sorted(checkpoints, key=lambda c: c.at)))


def month_files(data: Path) -> list[Path]:
    """The month files under ``data`` (a file, or a folder's ``*.json``)."""
    if data.is_file():
        return [data]
    found = sorted(p for p in data.glob("*.json"))
    if not found:
        raise WaveError(f"No month files (*.json) in {data}",
                        next_step="pass --data with a month file, e.g. bench/data/month/tuning.json")
    return found


# -- "held": a value as a person would see it in a record ----------------------------------------


_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_NUMBER = re.compile(
    r"(?<![\d])(\d{1,3}(?:[ \u00a0]\d{3})+|\d+(?:[.,]\d+)?)\s*"
    r"(тысяч\w*|тыс\.?|k\b|tys\w*|thousand)?", re.IGNORECASE)


def _norm_word(word: str) -> str:
    from wave_agent.world.morphology import lemma

    word = word.lower().replace("ё", "е")
    if re.search(r"[а-я]", word):
        return lemma(word).replace("ё", "е")
    return _stem(word)


def _stem(word: str, language: str | None = None) -> str:
    from graph.stemming import stem

    return stem(word.lower().replace("ё", "е"), language)


def words_of(text: str) -> set[str]:
    """The words of ``text`` as lemmas (Russian) or stems (Polish, English)."""
    return {_norm_word(w) for w in _WORD.findall(text)}


def numbers_of(text: str) -> set[float]:
    """The amounts in ``text``: "38 тысяч", "38 000" and "38000" are one amount."""
    out: set[float] = set()
    for match in _NUMBER.finditer(text):
        number = float(re.sub(r"[ \u00a0]", "", match.group(1)).replace(",", "."))
        out.add(number * 1000 if match.group(2) else number)
    return out


def holds(record: str, value: str, attribute: str = "") -> bool:
    """Does ``record`` state ``value``, as a person reading it would judge? Case and ё/е do not
    count, nor the form of a word (Russian lemmas, Snowball stems); a phone number is its
    digits; a price, or a value that is only a number, is its amounts ("38 тысяч" = 38000).
    The same value written another way counts too (``held_in_another_form``): a name in
    another alphabet ("Киа" = "Kia"), a number as a word ("двенадцать" = 12), a multi-word
    name by its distinctive word ("в Нижнем" = "Нижний Новгород", never "Великий Новгород").
    ``WAVE_BENCH_HOLDS=surface`` turns that off (the scorer before round twenty-two)."""
    if holds_surface(record, value, attribute):
        return True
    if os.environ.get("WAVE_BENCH_HOLDS", "").strip().lower() == "surface":
        return False
    return held_in_another_form(record, value, attribute)


# "449 вместо 399", "Казань (раньше Самара)", "zamiast 399", "instead of 399"
_AS_PAST = re.compile(
    r"(?<!\w)(?:вместо|раньше|прежн\w*|бывш\w*|был[аои]?|до этого|ранее|zamiast|wcześniej|"
    r"dawniej|przedtem|kiedyś|był[aoy]?|instead\s+of|previously|formerly|used\s+to|was|were)(?!\w)",
    re.IGNORECASE)


def names_old_as_past(line: str, new_value: str, attribute: str = "", old_value: str = "") -> bool:
    """Does a core block's line that names an old value state the new one as current and mark the
    old as past ("Подписка: 449 вместо 399"), or name the old only inside the new ("старший
    SMM-менеджер" after "SMM-менеджер")? Such a line is no stale fact: the same rule as the change
    check, which does not count a record that states the new value as holding the old."""
    if not holds(line, new_value, attribute):
        return False
    return bool(_AS_PAST.search(line)) or (bool(old_value) and holds(new_value, old_value, attribute))


def holds_surface(record: str, value: str, attribute: str = "") -> bool:
    """``holds`` as it was before round twenty-two: the same words, lemmas, digits or amounts."""
    if not value.strip():
        return False
    if attribute == "phone":
        digits = re.sub(r"\D", "", value)
        return bool(digits) and digits in re.sub(r"\D", "", record)
    if attribute.startswith("price") or not re.sub(r"[\d\s.,+\-()]", "", value):
        amounts = numbers_of(value)
        if amounts:
            return amounts <= numbers_of(record)
    wanted = words_of(value)
    if wanted and wanted <= words_of(record):
        return True
    from graph.stemming import language_of

    # a name pymorphy does not know, or a Latin word stemmed in the record's language
    language = language_of(record)
    stems = {_stem(w, language) for w in _WORD.findall(value)}
    return bool(stems) and stems <= {_stem(w, language) for w in _WORD.findall(record)}


# -- the same value written another way ----------------------------------------------------------

# Cyrillic -> Latin, as brands and names are spelt in shop windows and passports ("Киа" = "Kia",
# "Айфон" = "iPhone"); both sides are then folded to one spelling (``_fold``), so the table
# works both ways.
_TRANSLIT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh",
    "щ": "sch", "ъ": "", "ы": "i", "ь": "", "э": "e", "ю": "iu", "я": "ia",
}
_LATIN_FOLD = (("ph", "f"), ("ck", "k"), ("qu", "kv"), ("kh", "h"), ("x", "ks"), ("w", "v"),
               ("c", "k"), ("y", "i"), ("j", "i"))

# cardinal words of the three languages (lemmas for Russian; Polish and English numerals as
# written, lower case); English "one" is left out: it is a pronoun far more often than 1
_UNITS = {
    "ноль": 0, "один": 1, "два": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7,
    "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11, "двенадцать": 12,
    "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15, "шестнадцать": 16,
    "семнадцать": 17, "восемнадцать": 18, "девятнадцать": 19, "двадцать": 20, "тридцать": 30,
    "сорок": 40, "пятьдесят": 50, "шестьдесят": 60, "семьдесят": 70, "восемьдесят": 80,
    "девяносто": 90, "сто": 100, "двое": 2, "трое": 3, "четверо": 4, "пятеро": 5,
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "jeden": 1, "jedna": 1, "dwa": 2, "dwie": 2, "trzy": 3, "cztery": 4, "pięć": 5,
    "sześć": 6, "siedem": 7, "osiem": 8, "dziewięć": 9, "dziesięć": 10, "jedenaście": 11,
    "dwanaście": 12, "trzynaście": 13, "czternaście": 14, "piętnaście": 15, "szesnaście": 16,
    "siedemnaście": 17, "osiemnaście": 18, "dziewiętnaście": 19, "dwadzieścia": 20,
    "trzydzieści": 30, "czterdzieści": 40, "pięćdziesiąt": 50,
}
_LIST = re.compile(r"[,;/&+]|\s(?:и|and|i|oraz)\s", re.IGNORECASE)
_THOUSAND = {"тысяча", "thousand", "tysiąc", "tysiące", "tysięcy"}


def _fold(word: str) -> str:
    """One Latin spelling of a word in either alphabet, vowels after the first letter kept,
    doubled letters and a final mute "e" dropped ("iPhone" and "Айфон" -> "ifon")."""
    w = "".join(_TRANSLIT.get(ch, ch) for ch in word.lower())
    for a, b in _LATIN_FOLD:
        w = w.replace(a, b)
    w = re.sub(r"(.)\1+", r"\1", w)
    w = re.sub(r"^[aeiou]+(?=i)", "", w)  # "ai-fon" and "i-fon": the diphthong Russian writes
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def _cyrillic(word: str) -> bool:
    return bool(re.search(r"[а-яё]", word.lower()))


def _forms(word: str) -> set[str]:
    """A record's word as it may match a label's: its lemma and its folded spellings."""
    out = {_norm_word(word)}
    if _cyrillic(word):  # only across alphabets: "мыла" is not "Мила"
        out.add("~cyr:" + _fold(word))
        out.add("~cyr:" + _fold(_norm_word(word)))
    else:
        out.add("~lat:" + _fold(word))
    return out


def number_words_of(text: str) -> set[float]:
    """Amounts written as words: "двенадцать" = 12, "двадцать пять" = 25, "пять тысяч" = 5000,
    "twelve" = 12, "dwanaście" = 12."""
    out: set[float] = set()
    total: float | None = None
    for raw in [*_WORD.findall(text), ""]:
        w = raw.lower()
        value = _UNITS.get(w)
        if value is None and _cyrillic(w):
            value = _UNITS.get(_norm_word(w))
        if value is not None:
            if total is not None and total >= 20 and total % 10 == 0 and value < 10:
                total += value
            else:
                if total is not None:
                    out.add(total)
                total = float(value)
            continue
        lem = _norm_word(w) if _cyrillic(w) else w
        if total is not None and (w in _THOUSAND or lem in _THOUSAND):
            total *= 1000
            out.add(total)
            total = None
            continue
        if total is not None:
            out.add(total)
            total = None
    return out


def _numbers_any(text: str) -> set[float]:
    return numbers_of(text) | number_words_of(text)


def held_in_another_form(record: str, value: str, attribute: str = "") -> bool:
    """``value`` held by ``record`` written another way, and never a different value:

    - every amount of the value is in the record, in digits or in words, and the record holds
      no other amount next to the value's name ("iPhone 12" is not held by "iPhone 13");
    - every word of the value is in the record as its lemma or in the other alphabet, or, for
      a name of several words that starts with its name, that name's first word ("Нижний" of
      "Нижний Новгород", "Kia" of "Kia Rio") is, and is not followed there by a capitalised
      word the value does not have ("в Нижнем Тагиле", "Kia Sportage" are other values)."""
    if not value.strip() or attribute == "phone":
        return False
    amounts = _numbers_any(value)
    words = [w for w in _WORD.findall(value) if not w.isdigit()]
    number_words = {w for w in words if w.lower() in _UNITS or _norm_word(w) in _UNITS
                    or w.lower() in _THOUSAND or _norm_word(w) in _THOUSAND}
    if amounts and not amounts <= _numbers_any(record):
        return False
    names = [w for w in words if w not in number_words]
    if not names:
        return bool(amounts)
    record_words = _WORD.findall(record)
    forms = [_forms(w) for w in record_words]

    def found(word: str) -> list[int]:
        want = {_norm_word(word)}
        fold = _fold(word)
        if len(fold) >= 3:  # the other alphabet's spelling of the value's word
            want.add(("~lat:" if _cyrillic(word) else "~cyr:") + fold)
        return [i for i, f in enumerate(forms) if f & want]

    if all(found(w) for w in names):
        return True
    capitals = [w for w in names if w[:1].isupper() or re.search(r"[A-Z]", w[1:] or "")]
    if len(names) < 2 or not capitals or _LIST.search(value) or names[0] != capitals[0]:
        # a list ("Тоша, Муся") is held only whole; so is a value that does not start with
        # its name ("тимлид в «КамаСофте»": the role is the value, the employer its complement)
        return False
    key = capitals[0]
    label_forms = set().union(*(_forms(w) for w in names))
    for i in found(key):
        nxt = record_words[i + 1] if i + 1 < len(record_words) else ""
        if nxt and nxt[:1].isupper() and not (_forms(nxt) & label_forms):
            continue  # "Нижнем Тагиле": the same first word of another name
        if nxt and re.fullmatch(r"\d+(?:[.,]\d+)?", nxt) and not amounts:
            continue  # "Kia 5" against "Kia Rio": another model
        return True
    return False


# -- tallies -------------------------------------------------------------------------------------


@dataclass
class Tally:
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, name: str, hit: bool | int = True, of: str | None = None) -> None:
        self.counts[name] += int(hit)
        if of is not None:
            self.counts[of] += 1


def _pct(a: int, b: int) -> float | None:
    return round(100.0 * a / b, 1) if b else None


FIGURES = (  # (label, numerator, denominator)
    ("changes applied", "changes_applied", "changes"),
    ("two active truths", "two_truths", "changes_set"),
    ("new value not stored", "change_not_stored", "changes"),
    ("new values said as unmarked contradictions (judged as contradictions, not changes)",
     "changes_contradicted", None),
    ("old value in a core block", "old_in_block", "changes_set"),
    ("old value named as past or inside the new one in a core block (not counted above)",
     "old_in_block_as_past", "changes_set"),
    ("current value first", "current_first", "current"),
    ("current value in the first 5", "current_top5", "current"),
    ("stale above current", "stale_above", "both_found"),
    ("history: old value in the first 5", "history_top5", "history"),
    ("stable fact in the first 5", "stable_top5", "stable"),
    ("unmarked contradictions raised the same day", "contradictions_raised", "contradictions"),
    ("false alarms (contradictions raised on no contradiction)", "false_alarms", None),
    ("pasted instructions leaving an active record", "pasted_active", "pasted"),
    ("small talk stored", "small_talk_stored", "small_talk"),
    ("statements kept", "statements_kept", "statements"),
    ("chat replies holding the current value", "chat_right", "chat_asked"),
    ("chat replies holding it with no stale value", "chat_clean", "chat_asked"),
    ("outage notices while services are up", "outage_notices", None),
)


def figures_of(t: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, num, den in FIGURES:
        if den is None:
            out[label] = t.counts.get(num, 0)
        else:
            out[label] = {"n": t.counts.get(num, 0), "of": t.counts.get(den, 0),
                          "pct": _pct(t.counts.get(num, 0), t.counts.get(den, 0))}
    return out


# -- the replay ----------------------------------------------------------------------------------


class _Notices(logging.Handler):
    """Counts the records ``wave chat`` would put on the screen as outage notices."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if getattr(record, "notice", False) or "'NoneType' object has no attribute" in text:
            self.lines.append(text[:200])


def fresh_settings(base: Settings, data_dir: Path) -> Settings:
    """``base`` with a fresh DATA_DIR, still on the Neo4j ``base`` names (never a new JVM)."""
    uri = base.neo4j_uri or f"bolt://127.0.0.1:{base.neo4j_port}"
    return base.model_copy(update={"data_dir": data_dir, "neo4j_uri": uri, "qdrant_path": None,
                                   "qdrant_url": None, "letta_base_url": None,
                                   "llm_base_url": None})


def _exchange(user_id: str, message_id: str) -> str:
    from wave_agent.conversation.turn import exchange_id_for

    return exchange_id_for(user_id, message_id)


@dataclass
class _Replay:
    month: Month
    part: str
    user_id: str
    tallies: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    misses: list[dict[str, Any]] = field(default_factory=list)
    # attribute -> current values (single-valued: one) as the file says, for "changes"
    truth: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    # ``--also-config``: name -> RecallConfig overrides; each checkpoint's questions are asked
    # again with them over the same records, tallied as ``<month>@<name>``
    also_config: dict[str, dict[str, Any]] = field(default_factory=dict)

    def others(self, engine: Any) -> dict[str, Any]:
        from dataclasses import replace as with_

        from wave_agent.recall.engine import Recall

        return {name: Recall(engine.graph, engine.archive, engine.embedder,
                             config=with_(engine.config, **overrides), clock=engine.clock,
                             archive_problem=engine.archive_problem, tz=engine.tz)
                for name, overrides in self.also_config.items()}

    def tally(self, lang: str, name: str, hit: bool | int = True, of: str | None = None) -> None:
        for key in (self.part, f"{self.part}/{lang}"):
            self.tallies[key].add(name, hit, of)

    def miss(self, what: str, **details: Any) -> None:
        self.misses.append({"part": self.part, "what": what, **details})


def _held_by(facts: list[Fact], value: str, attribute: str) -> list[Fact]:
    return [f for f in facts if holds(f.text, value, attribute)]


async def replay(settings: Settings, path: Path, *, part: str | None = None,
                 keep: bool = False, runs: str = "day",
                 also_config: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Replay one month file; figures per part and language, the misses, the wall time. The
    clock (``WAVE_NOW``) follows the replay: each message's time, the day's end for the
    approvals, the checkpoint's time for the questions; it is restored afterwards."""
    month = load(path)
    before = os.environ.get(clock.ENV)
    try:
        with tempfile.TemporaryDirectory(prefix="wave-bench-month-") as tmp:
            return await _replay(fresh_settings(settings, Path(tmp)), month, part or month.name,
                                 keep=keep, runs=runs, also_config=also_config)
    finally:
        if before is None:
            os.environ.pop(clock.ENV, None)
        else:
            os.environ[clock.ENV] = before


def _at(moment: datetime) -> None:
    os.environ[clock.ENV] = moment.isoformat()


async def _replay(settings: Settings, month: Month, part: str, *, keep: bool,
                  runs: str = "day",
                  also_config: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    from wave_agent.services import Services

    started = time.perf_counter()
    run = _Replay(month, part, f"bench-month-{uuid.uuid4().hex[:8]}",
                  also_config={k: dict(v) for k, v in (also_config or {}).items()})
    notices = _Notices()
    watched = [logging.getLogger("wave"), logging.getLogger("neo4j")]
    for logger in watched:
        logger.addHandler(notices)
    days = sorted({m.at.date() for m in month.messages})
    # "day": each day is one `wave chat` run (the stores opened, the day's messages, the outbox
    # drained, the stores closed), as a person chatting once a day; "one": a single run.
    groups = [[d] for d in days] if runs == "day" else [days]
    checkpoints = list(month.checkpoints)
    seen_alarms: set[frozenset[str]] = set()
    try:
        for group in groups:
            before = len(notices.lines)
            async with Services(settings) as services:
                for day in group:
                    await _replay_day(run, services, [m for m in month.messages
                                                      if m.at.date() == day],
                                      checkpoints, notices, seen_alarms)
            closing = len(notices.lines) - before  # notices of the run, its closing included
            lang = month.messages[0].lang if month.messages else "ru"
            day_msgs = [m for m in month.messages if m.at.date() == group[-1]]
            counted = sum(1 for m in run.misses if m["what"] == "outage notice"
                          and m.get("day") in {str(d) for d in group})
            extra = closing - counted
            if extra > 0:
                run.tally(day_msgs[-1].lang if day_msgs else lang, "outage_notices", extra)
                run.miss("outage notice", day=str(group[-1]), when="closing the run",
                         lines=notices.lines[-extra:])
        async with Services(settings) as services:
            turns = await services.turns()
            await turns.warm_up()
            worker = services.postprocessor()
            for c in checkpoints:
                await _checkpoint(run, c, await services.recall(), turns, worker)
            await _pasted(run, await services.graph())
            if not keep:
                await (await services.writer()).erase_user(run.user_id)
    finally:
        for logger in watched:
            logger.removeHandler(notices)
    return {"part": part, "user": run.user_id, "runs": runs,
            "by": {k: figures_of(t) for k, t in sorted(run.tallies.items())},
            "misses": run.misses, "wall_s": round(time.perf_counter() - started, 1)}


async def _replay_day(run: _Replay, services: Any, todays: list[Message],
                      checkpoints: list[Checkpoint], notices: _Notices,
                      seen_alarms: set[frozenset[str]]) -> None:
    """One day: the checkpoints due before each message, the messages through the turn and the
    post-processor, the day's judgement (before the approvals), then every proposal approved."""
    from wave_agent.blocks.store import HUMAN
    from wave_agent.ops.health import health_report

    turns = await services.turns()
    await turns.warm_up()
    worker = services.postprocessor()
    worker.write_timeout_s = max(worker.write_timeout_s, 60.0)
    graph, writer = await services.graph(), await services.writer()
    by_id = {m.id: m for m in run.month.messages}
    for m in todays:
        while checkpoints and checkpoints[0].at <= m.at:
            await _checkpoint(run, checkpoints.pop(0), await services.recall(), turns, worker)
        before = len(notices.lines)
        _at(m.at)
        result = await turns.handle(run.user_id, m.text, message_id=m.id, now=m.at)
        report = await worker.drain(120.0)
        if report.pending:
            raise WaveError(f"message {m.id} was not written: {report.last_error}",
                            next_step="check `wave services status`; the replay needs Neo4j up")
        outage = len(notices.lines) - before + any(w in result.reply for w in OUTAGE_WORDS[1:])
        run.tally(m.lang, "outage_notices", outage)
        if outage:
            run.miss("outage notice", message=m.id, day=str(m.at.date()),
                     lines=notices.lines[before:])
    end = max(m.at for m in todays)
    _at(end)
    await _judge_day(run, todays, by_id, graph, await services.blocks(), HUMAN, seen_alarms,
                     await health_report(services.ops_stores(), run.user_id, now=end))
    for proposal in await graph.list_proposals(run.user_id):
        try:
            await writer.approve(run.user_id, proposal.id)
        except WaveError as exc:
            run.miss("approval refused", proposal=proposal.id, reason=str(exc)[:200])


async def _pasted(run: _Replay, graph: Any) -> None:
    """Pasted instructions: any active record of the message's exchange at the end."""
    from graph.models import Status

    facts = await graph.list_facts(run.user_id, statuses=None)
    for m in run.month.messages:
        if m.kind == "pasted_instruction":
            ex = _exchange(run.user_id, m.id)
            active = [f for f in facts if ex in f.exchange_ids and f.status is Status.ACTIVE]
            run.tally(m.lang, "pasted_active", bool(active), of="pasted")
            if active:
                run.miss("pasted instruction active", message=m.id,
                         records=[f.text[:120] for f in active])


def judged_as(m: Message, s: Setting, said_before: bool, held_before: list[str]) -> str | None:
    """How the day's judge counts a value ``m`` sets (``held_before``: the values held before
    it): ``"change"``, a new value of an attribute the person spoke of before, or a value added
    to or taken from a multi-valued one; ``"contradiction"``, the same from a message its writer
    labelled an unmarked contradiction (``contradicts``): Wave keeps both records and raises a
    conflict asking which is true (issue 30: "6 contradictions never marked as changes" are
    counted apart from the changes), so it is judged by the conflict raised, not as a change
    left unapplied; None, a first statement or the same value again.

    ``WAVE_BENCH_CHANGES=with_contradictions`` counts those as changes too (the judge before
    h/month22, for comparison)."""
    change = said_before and (s.op in ("add", "remove") or (s.op == "set" and not any(
        holds(v, s.value, s.attribute) for v in held_before)))
    if not change:
        return None
    if m.contradicts and os.environ.get("WAVE_BENCH_CHANGES") != "with_contradictions":
        return "contradiction"
    return "change"


async def _judge_day(run: _Replay, todays: list[Message], by_id: dict[str, Message], graph: Any,
                     blocks: Any, human: str, seen_alarms: set[frozenset[str]],
                     health: Any) -> None:
    """What a person would see at the end of the day: records kept, changes applied."""
    from graph.models import Status

    facts = await graph.list_facts(run.user_id, statuses=None)
    active = [f for f in facts if f.status is Status.ACTIVE]
    block = (await blocks.get(run.user_id, human)).value
    of_exchange: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        for ex in f.exchange_ids:
            of_exchange[ex].append(f)
    for m in todays:
        mine = of_exchange.get(_exchange(run.user_id, m.id), [])
        kept = [f for f in mine if f.status in (Status.ACTIVE, Status.SUPERSEDED)]
        if m.kind == "statement":
            run.tally(m.lang, "statements_kept", bool(kept), of="statements")
            if not kept:
                run.miss("statement not kept", message=m.id, text=m.text)
        elif m.kind in ("small_talk", "question"):  # a question to the bot is small talk
            stored = [f for f in mine if f.status is Status.ACTIVE]
            run.tally(m.lang, "small_talk_stored", bool(stored), of="small_talk")
            if stored:
                run.miss("small talk stored", message=m.id, text=m.text)
        for s in m.sets:
            key = (s.entity, s.attribute)
            said_before = key in run.truth
            held_before = list(run.truth.get(key, []))
            if s.op == "set":
                run.truth[key] = [s.value]
            elif s.op == "add":
                run.truth[key] = [*held_before, s.value]
            elif s.op in ("remove", "negate"):
                run.truth[key] = [v for v in held_before if not holds(v, s.value, s.attribute)]
            judged = judged_as(m, s, said_before, held_before)
            if judged == "contradiction":
                run.tally(m.lang, "changes_contradicted")
            if judged != "change":
                continue
            earlier = [f for f in active if f.created_at < m.at]
            new_held = _held_by(active, s.value, s.attribute)
            old = [v for v in held_before if s.op == "set"] or (
                [s.value] if s.op == "remove" else [])
            old_held = [f for v in old for f in _held_by(earlier, v, s.attribute)
                        if not holds(f.text, s.value, s.attribute) or s.op == "remove"]
            if s.op == "remove":
                applied, not_stored = not old_held, False
            else:
                applied = bool(new_held) and not old_held
                not_stored = not new_held
            run.tally(m.lang, "changes_applied", applied, of="changes")
            run.tally(m.lang, "change_not_stored", not_stored)
            if s.op == "set":
                run.tally(m.lang, "two_truths", bool(new_held and old_held), of="changes_set")
                naming = [x for x in block.split("\n") if any(holds(x, v, s.attribute) for v in old)]
                stale = [x for x in naming if not all(
                    names_old_as_past(x, s.value, s.attribute, v) for v in old if holds(x, v, s.attribute))]
                run.tally(m.lang, "old_in_block", bool(stale))
                run.tally(m.lang, "old_in_block_as_past", bool(naming) and not stale)
                if stale:
                    run.miss("old value in a core block", message=m.id, text=m.text,
                             attribute=s.attribute, old=old, value=s.value, lines=stale)
            if not applied:
                run.miss("change not applied", message=m.id, text=m.text, op=s.op,
                         attribute=s.attribute, value=s.value, old=old,
                         old_active=[f.text[:100] for f in old_held],
                         new_active=[f.text[:100] for f in new_held],
                         # what the writer stored on each record ("entity|attribute|value|op"),
                         # to say where supersession failed (scripts/truths_causes.py)
                         old_attributes=[list(f.attributes) for f in old_held],
                         new_attributes=[list(f.attributes) for f in new_held],
                         said_attributes=[list(f.attributes) for f in mine],
                         said_status=[f.status.value for f in mine])
    # contradictions: a pair in `wave health` with a record of today's contradicting message
    user = next((u for u in health.users if u.user_id == run.user_id), None)
    pairs = [frozenset(c.fact_ids) for c in (user.contradictions if user else [])]
    fresh = [p for p in pairs if p not in seen_alarms]
    seen_alarms.update(pairs)
    ids_of = {m.id: {f.id for f in of_exchange.get(_exchange(run.user_id, m.id), [])}
              for m in todays}
    explained: set[frozenset[str]] = set()
    for m in todays:
        if not m.contradicts or m.contradicts not in by_id:
            continue
        said = ids_of.get(m.id, set())
        raised = [p for p in pairs if p & said]
        explained.update(raised)
        run.tally(m.lang, "contradictions_raised", bool(raised), of="contradictions")
        if not raised:
            run.miss("contradiction not raised", message=m.id, text=m.text,
                     earlier=by_id[m.contradicts].text)
    for p in fresh:
        if p not in explained:
            lang = todays[0].lang if todays else "ru"
            run.tally(lang, "false_alarms")
            text_of = {f.id: f.text[:100] for f in facts}
            run.miss("false alarm", day=str(todays[0].at.date()), records=sorted(p),
                     texts=[text_of.get(i, "") for i in sorted(p)])


# A "no" answer to a question about now: "нет", "нет, бросила", "ни с кем", "не курю", "no", "nie".
_NO_ANSWER = re.compile(r"^\s*(?:нет|ни\b|никого|никак|не\b|no\b|none\b|nobody\b|nie\b|brak\b)",
                        re.IGNORECASE)


def ending_of(month: Month, q: Question, at: datetime) -> Message | None:
    """The message a "no" answer to ``q`` comes from, as the month's writer labelled it: the
    last message before ``at`` that sets ``q``'s attribute, when it ends or denies a value
    (``remove``, ``negate``: "бросила курить", "Рио продала", "с Артёмом расстались") and the
    question expects "no". Its record answers the question as a person reading it would
    judge, though it need not hold the word "нет" (round thirty, h/now30)."""
    if q.kind != "current" or not _NO_ANSWER.match(q.expect):
        return None
    last: tuple[Message, Setting] | None = None
    for m in month.messages:
        if m.at > at:
            break
        for s in m.sets:
            if s.entity == q.entity and s.attribute == q.attribute:
                last = (m, s)
    if last is None or last[1].op not in ("negate", "remove"):
        return None
    return last[0]


def _endings_literal() -> bool:
    """``WAVE_BENCH_ENDINGS=literal``: a "no" answer held only by a record with its words (the
    judge before round thirty)."""
    return os.environ.get("WAVE_BENCH_ENDINGS", "").strip().lower() == "literal"


async def _checkpoint(run: _Replay, cp: Checkpoint, engine: Any, turns: Any, worker: Any) -> None:
    _at(cp.at)
    others = run.others(engine)
    rows = os.environ.get("WAVE_BENCH_ROWS", "").strip()
    for n, q in enumerate(cp.questions):
        if rows:  # the ranker's rows of each question, for fitting a weight after the model
            engine.observer = _row_keeper(Path(rows), run, q)
        hits = await engine.search(run.user_id, q.text, k=10)
        engine.observer = None
        first_at, ending_ex = await _score(run, q, cp, hits, engine, run.part)
        for name, other in others.items():  # the same records asked with other settings
            await _score(run, q, cp, await other.search(run.user_id, q.text, k=10), other,
                         f"{run.part}@{name}")
        texts = [h.fact.text for h in hits]
        if first_at is None or first_at >= (1 if q.kind == "current" else 5):
            cause = await _cause(run, q, getattr(hits.preset, "name", None), engine,
                                 None if _endings_literal() else ending_ex) \
                if q.kind == "current" else None
            run.miss(f"{q.kind} question", question=q.id, text=q.text, expect=q.expect,
                     stale=list(q.stale), preset=getattr(hits.preset, "name", None),
                     top=[t[:100] for t in texts[:5]], **({"cause": cause} if cause else {}))
        if n % CHAT_SAMPLE_EVERY == 0 and q.kind != "stable":
            result = await turns.handle(run.user_id, q.text, message_id=f"{q.id}-chat", now=cp.at)
            await worker.drain(120.0)
            right = holds(result.reply, q.expect, q.attribute)
            clean = right and (q.kind == "history" or not any(
                holds(result.reply, s, q.attribute) for s in q.stale))
            run.tally(q.lang, "chat_right", right, of="chat_asked")
            run.tally(q.lang, "chat_clean", clean)
            if not clean:
                run.miss("chat reply", question=q.id, text=q.text, expect=q.expect,
                         reply=result.reply[:300])


def _row_keeper(path: Path, run: _Replay, q: Question) -> Any:
    """``WAVE_BENCH_ROWS=FILE``: each question's candidates appended to FILE (one JSON line:
    the month, the question's id, kind and language, each candidate's learned-ranker row,
    its ``recall.stated`` and whether it holds the expected value and no stale one alone),
    what ``scripts/fit_stated.py`` fits the ``stated`` weight on."""
    import json

    from graph.stemming import language_of
    from wave_agent.recall import learned

    def keep(c: Any, ids: list[str], x: Any) -> None:
        texts = [c.facts[i].text for i in ids]
        answer = [holds(t, q.expect, q.attribute) for t in texts]
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps({
                "month": run.part, "question": q.id, "kind": q.kind, "lang": q.lang,
                "text_language": language_of(q.text),
                "x": [[round(float(v), 5) for v in row] for row in x],
                "stated": [round(float(v), 5) for v in learned.stated_of(c, ids)],
                "y": answer}) + "\n")
    return keep


async def _score(run: _Replay, q: Question, cp: Checkpoint, hits: Any, engine: Any,
                 key: str) -> tuple[int | None, str | None]:
    """Tally one question's hits under ``key`` (the month, or ``month@variant`` for the same
    records asked with other recall settings); the rank of the first record holding the
    expected value (None: not in the ten) and the exchange of the message a "no" answer
    comes from."""
    texts = [h.fact.text for h in hits]
    literal_at = next((i for i, t in enumerate(texts) if holds(t, q.expect, q.attribute)), None)
    ending = ending_of(run.month, q, cp.at)
    ending_ex = _exchange(run.user_id, ending.id) if ending else None
    ending_ranks = [i for i, h in enumerate(hits) if ending_ex and ending_ex in h.fact.exchange_ids]
    ending_at = ending_ranks[0] if ending_ranks else None
    first_at = literal_at
    if ending_at is not None and not _endings_literal():
        first_at = ending_at if literal_at is None else min(literal_at, ending_at)
    if ending is not None:
        await _ending_seen(run, q, ending, ending_ex or "", hits, literal_at, ending_at, engine,
                           key)

    def tally(name: str, hit: bool | int = True, of: str | None = None) -> None:
        for k in (key, f"{key}/{q.lang}"):
            run.tallies[k].add(name, hit, of)

    if q.kind == "current":
        stale_at = next((i for i, t in enumerate(texts)
                         if any(holds(t, s, q.attribute) for s in q.stale)
                         and not holds(t, q.expect, q.attribute) and i not in ending_ranks), None)
        tally("current_first", first_at == 0, of="current")
        tally("current_top5", first_at is not None and first_at < 5)
        if first_at is not None and stale_at is not None:
            tally("stale_above", stale_at < first_at, of="both_found")
            if stale_at < first_at:
                run.miss("stale above current", asked_as=key, question=q.id,
                         **_stale_carrier(hits, stale_at, first_at))
    elif q.kind == "history":
        tally("history_top5", first_at is not None and first_at < 5, of="history")
    else:
        tally("stable_top5", first_at is not None and first_at < 5, of="stable")
    return first_at, ending_ex


def _stale_carrier(hits: Any, stale_at: int, first_at: int) -> dict[str, Any]:
    """What carries a stale record above the current one (``scripts/month_causes.py`` counts
    these): each one's status, tier and day, and whether the current record replaced the stale
    one (through ``supersedes``, up to three steps): a replaced record above its replacement
    is recall's order; an active stale record is the write side's (both left in force)."""
    stale, current = hits[stale_at].fact, hits[first_at].fact
    by_id = {h.fact.id: h.fact for h in hits}
    chain: list[str] = []
    fact: Fact | None = current
    while fact is not None and fact.supersedes and len(chain) < 3:
        chain.append(fact.supersedes)
        fact = by_id.get(fact.supersedes)
    return {"stale_rank": stale_at, "current_rank": first_at,
            "stale_status": stale.status.value, "current_status": current.status.value,
            "stale_tier": str(getattr(stale.tier, "value", stale.tier)),
            "current_tier": str(getattr(current.tier, "value", current.tier)),
            "stale_newer": stale.created_at > current.created_at,
            "replaced_by_current": stale.id in chain or stale.superseded_by == current.id}


async def _ending_seen(run: _Replay, q: Question, ending: Message, exchange: str, hits: Any,
                       literal_at: int | None, ending_at: int | None, engine: Any,
                       key: str) -> None:
    """Where a "no" answer stands (``scripts/now_endings.py`` reads these): the ending
    message's records and their status (none: judged small talk or cut at the door), the rank
    of the first of them among the hits, and the rank of a record with the answer's words."""
    facts = await engine.graph.list_facts(run.user_id, statuses=None)
    mine = [f for f in facts if exchange in f.exchange_ids]
    run.miss("ending question", asked_as=key, question=q.id, text=q.text, expect=q.expect,
             stale=list(q.stale), message=ending.id, said=ending.text,
             records=[[f.status.value, f.text[:120]] for f in mine],
             ending_rank=ending_at, literal_rank=literal_at,
             top=[h.fact.text[:100] for h in list(hits)[:5]])


async def _cause(run: _Replay, q: Any, preset: str | None, engine: Any,
                 ending_ex: str | None = None) -> str:
    """Why a question about now did not put the current value first (round twenty-three's
    count): ``read as past`` (the history preset: the replaced record is put above its
    successor), ``current not stored`` (no record in force holds the value), ``old still
    active`` (a record holding only a stale value is still in force: the write side's miss),
    else ``ranked lower`` (recall's order put another record first). A record of the message
    that ended or denied the value (``ending_ex``, see ``ending_of``) holds a "no" answer."""
    from graph.models import Status

    if preset == "history":
        return "read as past"
    facts = await engine.graph.list_facts(run.user_id, statuses=None)

    def answers(f: Fact) -> bool:
        return holds(f.text, q.expect, q.attribute) or bool(ending_ex
                                                             and ending_ex in f.exchange_ids)

    if not any(f.status is Status.ACTIVE and answers(f) for f in facts):
        return "current not stored"
    if any(f.status is Status.ACTIVE and any(holds(f.text, s, q.attribute) for s in q.stale)
           and not answers(f) for f in facts):
        return "old still active"
    return "ranked lower"


def render(results: list[dict[str, Any]], *, misses: bool = False) -> str:
    out: list[str] = []
    for r in results:
        out.append(f"month {r['part']}: wall time {r['wall_s']} s")
        for key, figs in r["by"].items():
            out.append(f"  {key}")
            for label, value in figs.items():
                if isinstance(value, dict):
                    if not value["of"]:
                        continue
                    out.append(f"    {label:<58} {value['n']:>4} of {value['of']:<4} "
                               f"({value['pct']}%)")
                else:
                    out.append(f"    {label:<58} {value:>4}")
        if misses:
            out.append("  misses:")
            out.extend(f"    {json.dumps(m, ensure_ascii=False)}" for m in r["misses"])
    return "\n".join(out)
