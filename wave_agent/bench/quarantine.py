"""``wave bench quarantine``: the quarantine check on the dev set, LoCoMo and a Russian set.

The dev set (bench/data/quarantine, built by its build.py from hand-written texts) has a
tuning part and a kept-aside part; both are measured layer by layer (1 the phrase list on the
raw text alone, the first detector; 2 with normalisation; 3 with the structural rules; 4 with the
classifier). False positives are also counted on every LoCoMo turn and on a Russian
personal-memory set; the cost is the time of ``detect`` per text (a write calls it once).
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wave_agent.policy.quarantine import detect

LAYERS = {1: "phrase list (raw text)", 2: "+ normalisation", 3: "+ structural rules", 4: "+ classifier"}
DEV_SET = Path(__file__).resolve().parents[2] / "bench" / "data" / "quarantine"


@dataclass
class PartResult:
    name: str
    instructions: int
    notes: int
    caught: dict[int, int] = field(default_factory=dict)
    flagged: dict[int, int] = field(default_factory=dict)
    by_lang: dict[str, list[int]] = field(default_factory=dict)  # lang -> [caught, n, flagged, notes]
    by_shape: dict[str, list[int]] = field(default_factory=dict)  # shape -> [caught, n]
    by_layer: dict[str, int] = field(default_factory=dict)  # which layer caught (full detector)
    misses: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    def as_json(self, show: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "instructions": self.instructions, "notes": self.notes,
            "layers": {str(k): {"catch_pct": pct(self.caught[k], self.instructions),
                                "fp_pct": pct(self.flagged[k], self.notes),
                                "caught": self.caught[k], "flagged": self.flagged[k]} for k in LAYERS},
            "by_lang": self.by_lang, "by_shape": self.by_shape, "caught_by": self.by_layer,
        }
        if show:
            out["misses"], out["false_positives"] = self.misses, self.false_positives
        return out


def pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 2) if whole else 0.0


def load_part(root: Path, name: str) -> list[dict[str, str]]:
    path = root / f"{name}.json"
    items: list[dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return items


def measure_part(name: str, items: list[dict[str, str]]) -> PartResult:
    ins = [i for i in items if i["label"] == "instruction"]
    notes = [i for i in items if i["label"] == "note"]
    result = PartResult(name, len(ins), len(notes))
    for layer in LAYERS:
        result.caught[layer] = sum(detect(i["text"], layers=layer) is not None for i in ins)
        result.flagged[layer] = sum(detect(i["text"], layers=layer) is not None for i in notes)
    langs: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    shapes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for item in ins:
        found = detect(item["text"])
        langs[item["lang"]][1] += 1
        shapes[item["shape"].split(":")[0]][1] += 1
        if found is not None:
            langs[item["lang"]][0] += 1
            shapes[item["shape"].split(":")[0]][0] += 1
            result.by_layer[found.layer] = result.by_layer.get(found.layer, 0) + 1
        else:
            result.misses.append(item["text"])
    for item in notes:
        found = detect(item["text"])
        langs[item["lang"]][3] += 1
        if found is not None:
            langs[item["lang"]][2] += 1
            result.false_positives.append(f"{item['text']}  <- {found.reason}")
    result.by_lang, result.by_shape = dict(langs), dict(shapes)
    return result


def flagged_share(texts: Iterable[str]) -> tuple[int, int, list[str]]:
    n, hits = 0, []
    for text in texts:
        n += 1
        found = detect(text)
        if found is not None:
            hits.append(f"{text[:160]}  <- {found.reason}")
    return len(hits), n, hits


def locomo_turns(data: Path) -> list[str]:
    from wave_agent.bench.locomo_data import load_conversations

    return [t.text for c in load_conversations(data) for t in c.turns]


def read_texts(path: Path) -> list[str]:
    """Texts of a JSON file (a list of strings or of objects with "text", or {"facts": [...]}),
    a JSONL file (an object with "text" a line), or a directory: its facts.jsonl (the memory
    sets of ``wave bench memory``), else every such file in it."""
    if path.is_dir():
        files = ([path / "facts.jsonl"] if (path / "facts.jsonl").exists()
                 else sorted([*path.rglob("*.json"), *path.rglob("*.jsonl")]))
    else:
        files = [path]
    texts: list[str] = []
    for file in files:
        raw = file.read_text(encoding="utf-8")
        if file.suffix == ".jsonl":
            lines = [json.loads(line) for line in raw.splitlines() if line.strip()]
            texts += [x["text"] for x in lines if isinstance(x, dict) and isinstance(x.get("text"), str)]
            continue
        data = json.loads(raw)
        if isinstance(data, dict):
            data = next((v for v in data.values() if isinstance(v, list)), [])
        for item in data:
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                texts.append(item["text"])
    return texts


def cost_ms(texts: list[str], repeat: int = 3) -> dict[str, float]:
    """Wall-clock figures per ``detect`` call, and the CPU time of this process per call (on a
    shared machine the wall clock also counts the time other processes held the core)."""
    detect("warm up")
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        for text in texts:
            start, start_cpu = time.perf_counter(), time.process_time()
            detect(text)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    times.sort()
    cpu.sort()
    return {"mean": round(statistics.fmean(times), 3), "p50": round(times[len(times) // 2], 3),
            "p95": round(times[int(len(times) * 0.95)], 3), "max": round(times[-1], 3),
            "cpu_mean": round(statistics.fmean(cpu), 3), "cpu_p95": round(cpu[int(len(cpu) * 0.95)], 3),
            "texts": len(texts)}


def run(root: Path = DEV_SET, *, locomo: Path | None = None, ru_set: Path | None = None,
        show: bool = False) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    texts: list[str] = []
    ru_notes: list[str] = []
    for name in ("tuning", "kept_aside"):
        items = load_part(root, name)
        summary[name] = measure_part(name, items).as_json(show and name == "tuning")
        texts += [i["text"] for i in items]
        ru_notes += [i["text"] for i in items if i["label"] == "note" and i["lang"] == "ru"]
    if locomo is not None:
        turns = locomo_turns(locomo)
        hits, n, shown = flagged_share(turns)
        summary["locomo"] = {"turns": n, "flagged": hits, "fp_pct": pct(hits, n),
                             **({"flagged_turns": shown} if show else {})}
        summary["cost_locomo_ms"] = cost_ms(turns, repeat=1)
    if ru_set is None and (root.parent / "memory-ru" / "facts.jsonl").exists():
        ru_set = root.parent / "memory-ru"  # the Russian personal-memory set of `wave bench memory`
    if ru_set is not None:
        hits, n, shown = flagged_share(read_texts(ru_set))
        summary["ru_set"] = {"source": str(ru_set), "texts": n, "flagged": hits, "fp_pct": pct(hits, n),
                             **({"flagged_texts": shown} if show else {})}
    else:
        hits, n, shown = flagged_share(ru_notes)
        summary["ru_set"] = {"source": "the dev set's Russian notes (no Russian memory set given)",
                             "texts": n, "flagged": hits, "fp_pct": pct(hits, n)}
    summary["cost_dev_ms"] = cost_ms(texts)
    return summary
