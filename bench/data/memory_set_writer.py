"""Writes a memory set in ``wave bench memory``'s format (used by build_ru.py and build_pl.py).

Every third question is held out (``split: held``): never tuned on.
"""

from __future__ import annotations

import json
from pathlib import Path

Fact = tuple[str, str, str]  # key, date, text
Question = tuple[str, str, list[str]]  # kind, text, answer keys


def write_set(out: Path, *, language: str, asked_at: str, facts: list[Fact],
              questions: list[Question]) -> None:
    out.mkdir(exist_ok=True)
    ids = {key: f"f{n:03d}" for n, (key, _, _) in enumerate(facts, 1)}
    assert len(ids) == len(facts), "duplicate fact key"
    (out / "set.json").write_text(json.dumps({
        "name": out.name, "language": language, "asked_at": asked_at,
    }, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    with (out / "facts.jsonl").open("w", encoding="utf-8") as fh:
        for key, date, text in facts:
            fh.write(json.dumps({"id": ids[key], "date": date, "text": text},
                                ensure_ascii=False) + "\n")
    with (out / "questions.jsonl").open("w", encoding="utf-8") as fh:
        for n, (kind, text, answers) in enumerate(questions, 1):
            fh.write(json.dumps({
                "id": f"q{n:03d}", "text": text, "answers": [ids[a] for a in answers],
                "kind": kind, "split": "held" if n % 3 == 0 else "tune",
            }, ensure_ascii=False) + "\n")
    print(f"{len(facts)} facts, {len(questions)} questions -> {out}")  # noqa: T201
