"""``wave bench smalltalk``: what the offline chat door would store of labelled chat lines.

A set is a JSON list of ``{"id", "lang", "text", "kind"}`` with kind ``statement``,
``small_talk`` or ``question`` (``bench/data/smalltalk/``; every ``*.json`` there is a part), or
``{"name", "conversations": [{"id", "lang", "messages": [...]}]}``: conversations of such
messages in order (``tuning_3.json``), read here one message at a time.
Each line goes through what the post-processor runs offline before the writer: the fact budget,
the heuristic extractor and the attribute reader's sentences, and the learned judge
(``wave_agent/policy/smalltalk.py``) on the message's e5 vector, both ways: it drops what the
extractor kept of small talk, and keeps as said a statement the extractor found nothing in. The
quarantine check is not run (no set holds an instruction). A line is stored when facts remain.
Printed per part and language, and for all ``tuning*`` parts and all ``kept_aside*`` parts
together: small talk stored (small talk and questions to the bot), statements kept. Figures on a
``tuning*`` part are tuning figures: the judge is trained on it.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from wave_agent.errors import WaveError

KINDS = ("statement", "small_talk", "question")


def load(path: Path) -> list[dict[str, str]]:
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WaveError(f"{path}: not a readable JSON list ({exc})",
                        next_step="give a list of {id, lang, text, kind}") from None
    if isinstance(items, dict) and isinstance(items.get("conversations"), list):
        items = [m for c in items["conversations"] if isinstance(c, dict)
                 for m in c.get("messages", ())]
    if not isinstance(items, list):
        raise WaveError(f"{path}: expected a JSON list", next_step="give a list of {id, lang, text, kind}")
    for n, item in enumerate(items):
        if not isinstance(item, dict) or item.get("kind") not in KINDS or not str(item.get("text", "")).strip():
            raise WaveError(f"{path}: item {n + 1} needs a text and a kind in {', '.join(KINDS)}",
                            next_step="fix the item, or leave it out")
    return items


def judge(texts: list[str], *, learned: bool = True) -> list[bool]:
    """For each text: would the offline door store anything of it?"""
    import asyncio

    from archive.embedder import Embedder
    from wave_agent.llm.offline_extract import extract_heuristic, language
    from wave_agent.policy import smalltalk
    from wave_agent.postprocess.extract import (
        fact_budget,
        kept_in_passing,
        small_talk_drops,
        with_stated_attributes,
    )

    vectors = Embedder(smalltalk.READS).embed_sync(texts) if learned else None

    async def facts_of(i: int, text: str) -> bool:
        budget = fact_budget(text, "")
        facts = extract_heuristic(text, max_facts=budget) if budget else []
        if budget:
            facts = await with_stated_attributes(text, facts, max_facts=budget)
        if vectors is None:
            return bool(facts)
        if small_talk_drops(facts, smalltalk.is_small_talk(smalltalk.READS, vectors[i], language(text)), text):
            facts = []
        facts = kept_in_passing(text, facts, budget=budget, worth_remembering=(
            smalltalk.worth_remembering(smalltalk.READS, vectors[i], language(text))))
        return bool(facts)

    async def run() -> list[bool]:
        return [await facts_of(i, text) for i, text in enumerate(texts)]

    return asyncio.run(run())


def role(part: str) -> str:
    """``tuning`` for every ``tuning*`` part (the judge and its thresholds may be fit on it),
    ``kept aside`` for every ``kept_aside*`` part (never trained or tuned on), else ``other``."""
    if part.startswith("tuning"):
        return "tuning"
    if part.startswith("kept_aside"):
        return "kept aside"
    return "other"


def bench(data: Path, *, learned: bool = True) -> dict[str, Any]:
    files = [data] if data.is_file() else sorted(data.glob("*.json"))
    if not files:
        raise WaveError(f"No sets (*.json) in {data}", next_step="pass --data with a set or its folder")
    tallies: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses: list[dict[str, str]] = []
    for path in files:
        items = load(path)
        stored = judge([str(i["text"]) for i in items], learned=learned)
        for item, kept in zip(items, stored, strict=True):
            for key in (f"{role(path.stem)}: all", path.stem, f"{path.stem}/{item.get('lang', '?')}"):
                t = tallies[key]
                if item["kind"] == "statement":
                    t["statements"] += 1
                    t["kept"] += kept
                else:
                    t["small_talk"] += 1
                    t["stored"] += kept
            if kept != (item["kind"] == "statement"):
                misses.append({"part": path.stem, "id": str(item.get("id")), "kind": item["kind"],
                               "text": str(item["text"])})
    figures = {k: {"small_talk_stored": _share(t["stored"], t["small_talk"]),
                   "statements_kept": _share(t["kept"], t["statements"])}
               for k, t in sorted(tallies.items())}
    return {"by": figures, "misses": misses}


def _share(n: int, of: int) -> dict[str, Any]:
    return {"n": n, "of": of, "pct": round(100.0 * n / of, 1) if of else None}


def render(result: dict[str, Any], *, misses: bool = False) -> str:
    out = ["part                   small talk stored        statements kept"]
    for key, f in result["by"].items():
        s, k = f["small_talk_stored"], f["statements_kept"]
        out.append(f"  {key:<20} {s['n']:>4} of {s['of']:<4} ({s['pct']}%)   "
                   f"{k['n']:>4} of {k['of']:<4} ({k['pct']}%)")
    if misses:
        out.append("misses:")
        out.extend(f"  {m['part']} {m['id']} [{m['kind']}] {m['text']}" for m in result["misses"])
    return "\n".join(out)
