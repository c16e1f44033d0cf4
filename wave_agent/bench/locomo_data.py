"""The LoCoMo conversations as plain data: turns with speakers and dates, questions with evidence.

Pure parsing, no I/O beyond reading the JSON files. Evidence ids are normalised (the released
files hold a few malformed ones: ``"D8:6; D9:17"``, ``"D:11:26"``, ``"D9:1 D4:4"``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from wave_agent.errors import WaveError

_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%H:%M on %d %B, %Y")


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    session: int
    index: int            # position in the whole conversation, 0-based
    speaker: str
    text: str             # the spoken text plus "[image: caption]" for image turns
    at: datetime          # the session's date and time (UTC)


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    evidence: tuple[str, ...]
    category: int


@dataclass(frozen=True, slots=True)
class Conversation:
    name: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]


def parse_session_date(raw: str) -> datetime:
    cleaned = " ".join(raw.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised LoCoMo session date {raw!r}")


def normalise_evidence(raw: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    ids: list[str] = []
    for item in raw:
        for session, turn in _EVIDENCE.findall(str(item)):
            dia = f"D{int(session)}:{int(turn)}"
            if dia not in ids:
                ids.append(dia)
    return tuple(ids)


def turn_text(raw: dict[str, object]) -> str:
    text = str(raw.get("text") or "").strip()
    caption = raw.get("blip_caption")
    if caption:
        text = f"{text} [image: {str(caption).strip()}]".strip()
    return text


def parse_conversation(name: str, data: dict[str, object]) -> Conversation:
    try:
        speakers = (str(data["speaker_a"]), str(data["speaker_b"]))
        qa = data["qa"]
    except KeyError as exc:
        raise WaveError(
            f"{name} is not a LoCoMo conversation (missing {exc.args[0]!r})",
            next_step="point --data at the directory holding conv-*.json from the LoCoMo release",
        ) from exc
    sessions = sorted(
        int(m.group(1)) for key in data if (m := _SESSION_KEY.fullmatch(key)) and data[key]
    )
    turns: list[Turn] = []
    for number in sessions:
        at = parse_session_date(str(data[f"session_{number}_date_time"]))
        for raw in data[f"session_{number}"]:  # type: ignore[attr-defined]
            text = turn_text(raw)
            if not text:
                continue
            turns.append(
                Turn(
                    dia_id=str(raw["dia_id"]),
                    session=number,
                    index=len(turns),
                    speaker=str(raw["speaker"]),
                    text=text,
                    at=at,
                )
            )
    known = {t.dia_id for t in turns}
    questions: list[Question] = []
    for item in qa:  # type: ignore[attr-defined]
        category = int(item.get("category", 0))
        evidence = tuple(e for e in normalise_evidence(item.get("evidence") or ()) if e in known)
        if category == 5 or not evidence:
            continue
        questions.append(Question(text=str(item["question"]), evidence=evidence, category=category))
    return Conversation(name=name, speakers=speakers, turns=tuple(turns), questions=tuple(questions))


def load_conversations(data_dir: Path, limit: int | None = None) -> list[Conversation]:
    files = sorted(Path(data_dir).glob("*.json"))
    if not files:
        raise WaveError(
            f"no LoCoMo conversations (*.json) in {data_dir}",
            next_step="pass --data DIR with the conv-*.json files (e.g. /work/shared/data/locomo)",
        )
    conversations = []
    for path in files[: limit or None]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise WaveError(f"cannot read {path}: {exc}", next_step="check the file is LoCoMo JSON") from exc
        conversations.append(parse_conversation(path.stem, data))
    return conversations
