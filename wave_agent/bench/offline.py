"""``wave bench offline``: what offline mode keeps of a conversation, and whether it answers a
follow-up with the right record first.

The data (``bench/data/offline_lines.txt``, written for this bench) holds people, each with chat
lines marked keep (a statement, with words its facts must contain) or skip (small talk), and
follow-up questions with a word the first record shown must contain. Some people are ``held``:
never looked at while the patterns were written. Figures are given per split.

Two parts:
- extraction: each line through the post-processor's own budget and the offline extractor
  (pure, no store): statements kept, statements whose expected words all appear, small talk kept;
- end to end (``--e2e``, real stores): each person's lines go into the outbox as exchanges and
  the post-processor writes them through the writer; a line counts as stored when a record
  carries its exchange id. Then each follow-up is a real offline turn (recall, notes, the
  offline reply); it counts when the first record shown contains the expected word.
"""

from __future__ import annotations

import re
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wave_agent.llm.offline import extract_heuristic
from wave_agent.postprocess.extract import fact_budget

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "bench" / "data" / "offline_lines.txt"


@dataclass(frozen=True, slots=True)
class Line:
    person: str
    lang: str
    split: str
    text: str
    keep: bool
    expect: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FollowUp:
    person: str
    lang: str
    split: str
    question: str
    expect: str


@dataclass
class Data:
    lines: list[Line] = field(default_factory=list)
    follow_ups: list[FollowUp] = field(default_factory=list)


def load(path: Path = DEFAULT_DATA) -> Data:
    data = Data()
    person = lang = split = ""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@person"):
            _, person, lang, split = line.split()
            continue
        if not person:
            raise ValueError(f"{path}:{number}: a line before any @person")
        mark, rest = line[0], line[1:].strip()
        text, _, wanted = rest.partition("=>")
        words = tuple(w.strip() for w in wanted.split(";") if w.strip())
        if mark == "K":
            data.lines.append(Line(person, lang, split, text.strip(), True, words))
        elif mark == "S":
            data.lines.append(Line(person, lang, split, text.strip(), False))
        elif mark == "?":
            data.follow_ups.append(FollowUp(person, lang, split, text.strip(), words[0]))
        else:
            raise ValueError(f"{path}:{number}: unknown mark {mark!r}")
    return data


def extracted(line: Line) -> list[str]:
    """The facts the post-processor would extract offline from this line."""
    budget = fact_budget(line.text, "")
    return [f.text for f in extract_heuristic(line.text, max_facts=budget)] if budget else []


def _has(texts: Sequence[str], word: str) -> bool:
    return any(word.casefold() in t.casefold() for t in texts)


@dataclass
class Tally:
    statements: int = 0
    kept: int = 0
    complete: int = 0
    small_talk: int = 0
    stored_small_talk: int = 0
    follow_ups: int = 0
    first_right: int = 0
    unreadable: int = 0

    def figures(self) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(100 * a / b, 1) if b else None
        return {
            "statements": self.statements, "kept_pct": share(self.kept, self.statements),
            "expected_facts_pct": share(self.complete, self.statements),
            "small_talk": self.small_talk,
            "small_talk_stored_pct": share(self.stored_small_talk, self.small_talk),
            "follow_ups": self.follow_ups,
            "first_right_pct": share(self.first_right, self.follow_ups),
            "memory_unreadable": self.unreadable,
        }


def bench_extraction(data: Data) -> dict[str, Any]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    misses: list[dict[str, Any]] = []
    for line in data.lines:
        facts = extracted(line)
        for key in (line.split, f"{line.split}/{line.lang}", "all"):
            tally = tallies[key]
            if line.keep:
                tally.statements += 1
                tally.kept += bool(facts)
                tally.complete += all(_has(facts, w) for w in line.expect)
            else:
                tally.small_talk += 1
                tally.stored_small_talk += bool(facts)
        wrong = (line.keep and not all(_has(facts, w) for w in line.expect)) or (
            not line.keep and facts)
        if wrong and line.split == "tune":  # held-out lines are reported only as figures
            misses.append({"person": line.person, "text": line.text, "keep": line.keep,
                           "expect": list(line.expect), "got": facts})
    return {"by": {k: t.figures() for k, t in sorted(tallies.items())}, "tune_misses": misses}


_FIRST_RECORD = re.compile(r"^- (.+)$", re.MULTILINE)
_UNREADABLE = ("Память сейчас не читается", "could not read memory", "Nie udało się teraz odczytać")


async def bench_end_to_end(
    settings: Any, data: Data, *, drain_timeout_s: float = 1800.0, write_timeout_s: float = 120.0,
    people: int | None = None,
) -> dict[str, Any]:
    """Each person's lines through the outbox and the writer, then the follow-ups as offline
    turns; every bench user is erased at the end."""
    from wave_agent.services import Services

    run_id = uuid.uuid4().hex[:8]
    if people is not None:  # the first N people of each split and language
        picked: dict[tuple[str, str], list[str]] = defaultdict(list)
        for line in data.lines:
            chosen = picked[(line.split, line.lang)]
            if line.person not in chosen and len(chosen) < people:
                chosen.append(line.person)
        keep = {p for names in picked.values() for p in names}
        data = Data([ln for ln in data.lines if ln.person in keep],
                    [f for f in data.follow_ups if f.person in keep])
    tallies: dict[str, Tally] = defaultdict(Tally)
    answers: list[dict[str, Any]] = []
    timings: dict[str, float] = {}
    async with Services(settings) as services:
        turns = await services.turns()
        await turns.warm_up()
        outbox, worker, graph = services.outbox(), services.postprocessor(), await services.graph()
        # A loaded machine answers slowly, not never: generous store timeouts for the writes.
        worker.write_timeout_s = max(worker.write_timeout_s, write_timeout_s)
        worker.ping_timeout_s = max(worker.ping_timeout_s, write_timeout_s / 4)
        users = {p: f"bench-offline-{run_id}-{p}" for p in {line.person for line in data.lines}}
        keys: dict[str, Line] = {}
        started = time.perf_counter()
        now = datetime.now(UTC)
        for index, line in enumerate(data.lines):
            key = f"bench-{run_id}-{index:04d}"
            keys[key] = line
            outbox.enqueue(key, "exchange", users[line.person], {
                "user_text": line.text, "reply": "", "at": now.isoformat(), "session_id": None,
                "veracity": "stated", "offline": True})
        report = await worker.drain(drain_timeout_s)
        timings["write_s"] = round(time.perf_counter() - started, 1)
        if report.pending:
            raise RuntimeError(f"{report.pending} exchanges not written: {report.last_error}")
        stored: set[str] = set()
        for user in users.values():
            for fact in await graph.list_facts(user, statuses=None):
                stored.update(fact.exchange_ids)
        for key, line in keys.items():
            for group in (line.split, f"{line.split}/{line.lang}", "all"):
                tally = tallies[group]
                if line.keep:
                    tally.statements += 1
                    tally.kept += key in stored
                else:
                    tally.small_talk += 1
                    tally.stored_small_talk += key in stored
        started = time.perf_counter()
        for follow in data.follow_ups:
            result = await turns.handle(users[follow.person], follow.question)
            first = _FIRST_RECORD.search(result.reply)
            right = bool(first and follow.expect.casefold() in first.group(1).casefold())
            unreadable = any(u in result.reply for u in _UNREADABLE)
            for group in (follow.split, f"{follow.split}/{follow.lang}", "all"):
                tally = tallies[group]
                tally.follow_ups += 1
                tally.first_right += right
                tally.unreadable += unreadable
            if not right and follow.split == "tune":
                answers.append({"person": follow.person, "question": follow.question,
                                "expect": follow.expect, "reply": result.reply.splitlines()[1:4]})
        timings["follow_ups_s"] = round(time.perf_counter() - started, 1)
        await worker.drain(drain_timeout_s)  # the questions' exchanges (they store nothing)
        writer = await services.writer()
        for user in users.values():
            await writer.erase_user(user)
    return {"by": {k: t.figures() for k, t in sorted(tallies.items())}, "tune_misses": answers,
            "timings": timings}


def render(extraction: dict[str, Any], e2e: dict[str, Any] | None) -> str:
    out = ["extraction (no store): statements kept / with expected facts / small talk kept"]
    for key, f in extraction["by"].items():
        out.append(f"  {key:<10} {f['kept_pct']}% of {f['statements']} / {f['expected_facts_pct']}% / "
                   f"{f['small_talk_stored_pct']}% of {f['small_talk']}")
    if e2e is not None:
        out.append("end to end (writer, then offline turns): statements stored / small talk "
                   "stored / follow-ups right record first (memory unreadable)")
        for key, f in e2e["by"].items():
            out.append(f"  {key:<10} {f['kept_pct']}% of {f['statements']} / "
                       f"{f['small_talk_stored_pct']}% of {f['small_talk']} / "
                       f"{f['first_right_pct']}% of {f['follow_ups']} ({f['memory_unreadable']})")
        out.append(f"  timings: {e2e['timings']}")
    return "\n".join(out)
