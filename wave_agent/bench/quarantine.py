"""``wave bench quarantine``: the quarantine check on the sets written apart, LoCoMo and the
Russian and Polish memory sets.

Set A (bench/data/quarantine, built by its build.py from hand-written texts) has a tuning part
and a kept-aside part. Set B (bench/data/quarantine/second: written by two people who saw
neither set A nor the detector) is split into the same two parts by a hash of each id (one in
three kept aside). Each part is measured layer by layer (1 the phrase list on the raw text;
2 with normalisation; 3 with the structural rules; 4 with the n-gram classifier; 5 the meaning
layer over the e5 embedding, as the writer judges). Generalisation: the meaning model trained
on set A alone is scored on all of set B, and the one trained on set B alone on all of set A,
by language and by shape. Set C (bench/data/quarantine/third: a third author, who saw neither
set nor the code, given an explicit label policy) is all tuning data and is scored by
language and shape, and so are sets D-BD (fourth/ ... fifty-sixth/: one more author each; D, G, J,
K, M, N, O, P, Q, R, S, U, V, W, X, Y, Z, AA, AB, AC, AD, AE, AF, AG, AH, AI, AJ, AK, AL, AM, AN, AO, AP, AQ, AR, AS, AT, AU, AV, AW, AX, AY and AZ were run blind once, then given to training; T went straight to training). Every JSON file in
bench/data/quarantine/blind/ is a kept-aside set, never tuned on: scored by language and shape
only, catch and notes flagged, never an item's text (not even with ``show``); when there is
none the summary says so. False positives are also counted on every LoCoMo turn (the first two
conversations are training negatives; the other five are reported apart) and on the memory
sets, and with ``longmemeval`` on pieces of LongMemEval's everyday chat turns (the kept-aside
questions' histories, never trained on, and the tune questions', trained on); the cost is the time of ``detect`` per text beyond the embedding (a write calls it once).
The writer also stores the extraction's third-person statements ("The user feels exhausted"):
those made from the unseen LoCoMo turns and from the memory sets' facts are counted too.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from wave_agent.bench.quarantine_extracted import extracted, is_third_person
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import detect, undone

LAYERS = {1: "phrase list (raw text)", 2: "+ normalisation", 3: "+ structural rules", 4: "+ classifier",
          5: "meaning (e5 + cues)"}
DEV_SET = Path(__file__).resolve().parents[2] / "bench" / "data" / "quarantine"
TRAIN_CONVERSATIONS = 2  # LoCoMo conversations the meaning layer saw as ordinary text
EXTRACTED_EVERY = 3  # the extraction's statements are made from every third unseen turn
Item = dict[str, str]


def first_parts(root: Path) -> tuple[list[Item], list[Item]]:
    """Set A: (tuning, kept aside)."""
    return load_part(root, "tuning"), load_part(root, "kept_aside")


def kept_aside(item_id: str) -> bool:
    """One in three of set B's items, fixed by a hash of the id."""
    return int(hashlib.sha1(item_id.encode("utf-8")).hexdigest(), 16) % 3 == 0


def second_parts(root: Path) -> tuple[list[Item], list[Item]]:
    """Set B (every JSON file in ``root/second``): (tuning, kept aside)."""
    items: list[Item] = []
    for path in sorted((root / "second").glob("*.json")):
        items += json.loads(path.read_text(encoding="utf-8"))
    return [i for i in items if not kept_aside(i["id"])], [i for i in items if kept_aside(i["id"])]


# the sets written apart that are all tuning data, by author (a folder each, every JSON file in
# it): set C's writer, sets D, G, J, K, M, N, O, P, Q, R, S, U, V, W, X, Y, Z, AA, AB, AC, AD, AE, AF, AG, AH, AI, AJ, AK, AL, AM, AN, AO, AP, AQ, AR, AS, AT, AU, AV, AW, AX, AY and AZ's (each run blind once, then
# given to training), E's, F's, H's, I's, L's, and T's (written as training data, never run blind)
AUTHORED = {"c": "third", "d": "fourth", "e": "fifth", "f": "sixth", "g": "seventh", "h": "eighth",
            "i": "ninth", "j": "tenth", "l": "eleventh", "k": "twelfth",
            "n": "thirteenth", "m": "fourteenth", "o": "fifteenth", "p": "sixteenth",
            "q": "seventeenth", "r": "eighteenth", "t": "nineteenth",
            "s": "twentieth", "u": "twenty-first",
            "v": "twenty-second", "w": "twenty-third", "x": "twenty-fourth",
            "y": "twenty-fifth", "z": "twenty-sixth",
            "aa": "twenty-seventh", "ab": "twenty-eighth", "ac": "twenty-ninth", "ad": "thirtieth",
            "ae": "thirty-first", "af": "thirty-second", "ag": "thirty-third", "ah": "thirty-fourth", "ai": "thirty-fifth", "aj": "thirty-sixth", "ak": "thirty-seventh", "al": "thirty-eighth", "am": "thirty-ninth", "an": "fortieth", "ao": "forty-first", "ap": "forty-second", "aq": "forty-third", "ar": "forty-fourth", "as": "forty-fifth", "at": "forty-sixth", "au": "forty-seventh", "av": "forty-eighth", "aw": "forty-ninth", "ax": "fiftieth", "ay": "fifty-first", "az": "fifty-second", "ba": "fifty-third", "bb": "fifty-fourth", "bc": "fifty-fifth", "bd": "fifty-sixth"}
BLIND = "blind"  # kept-aside sets: every JSON file in it, never tuned on, never an item printed


def authored_parts(root: Path) -> dict[str, list[Item]]:
    """The whole-set tuning data of ``AUTHORED`` that is there, by author."""
    out: dict[str, list[Item]] = {}
    for name, folder in AUTHORED.items():
        items: list[Item] = []
        for path in sorted((root / folder).glob("*.json")):
            items += json.loads(path.read_text(encoding="utf-8"))
        if items:
            out[name] = items
    return out


def third_part(root: Path) -> list[Item]:
    """Set C: all of it is tuning data."""
    return authored_parts(root).get("c", [])


def blind_parts(root: Path) -> dict[str, list[Item]]:
    """The kept-aside sets (``root/blind/*.json``) by file name; never tuned on."""
    out: dict[str, list[Item]] = {}
    for path in sorted((root / BLIND).glob("*.json")):
        out[path.stem] = json.loads(path.read_text(encoding="utf-8"))
    return out


@dataclass
class PartResult:
    name: str
    instructions: int
    notes: int
    caught: dict[int, int] = field(default_factory=dict)
    flagged: dict[int, int] = field(default_factory=dict)
    by_lang: dict[str, list[int]] = field(default_factory=dict)  # lang -> [caught, n, flagged, notes]
    by_shape: dict[str, list[int]] = field(default_factory=dict)  # shape -> [caught, n, flagged, notes]
    by_layer: dict[str, int] = field(default_factory=dict)  # which layer caught (full detector)
    misses: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    def as_json(self, show: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "instructions": self.instructions, "notes": self.notes,
            "layers": {str(k): {"catch_pct": pct(self.caught[k], self.instructions),
                                "fp_pct": pct(self.flagged[k], self.notes),
                                "caught": self.caught[k], "flagged": self.flagged[k]} for k in self.caught},
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


def measure_part(name: str, items: list[Item], vectors: np.ndarray, *, model: str = "both",
                 layers: Iterable[int] = LAYERS) -> PartResult:
    """Catch and false positives of each layer, and (for the last) by language and shape."""
    ins = [(i, v) for i, v in zip(items, vectors, strict=True) if i["label"] == "instruction"]
    notes = [(i, v) for i, v in zip(items, vectors, strict=True) if i["label"] == "note"]
    result = PartResult(name, len(ins), len(notes))
    wanted = list(layers)

    again = undone_vectors([i["text"] for i in items])

    def judged(item: Item, vector: np.ndarray, layer: int) -> Any:
        return detect(item["text"], vector=vector if layer >= 5 else None, layers=layer, model=model,
                      undone_vector=again.get(item["text"]) if layer >= 5 else None)

    for layer in wanted:
        result.caught[layer] = sum(judged(i, v, layer) is not None for i, v in ins)
        result.flagged[layer] = sum(judged(i, v, layer) is not None for i, v in notes)
    last = wanted[-1]
    langs: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    shapes: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for item, vector in ins:
        found = judged(item, vector, last)
        shape = item["shape"].split(":")[0]
        langs[item["lang"]][1] += 1
        shapes[shape][1] += 1
        if found is not None:
            langs[item["lang"]][0] += 1
            shapes[shape][0] += 1
            result.by_layer[found.layer] = result.by_layer.get(found.layer, 0) + 1
        else:
            result.misses.append(item["text"])
    for item, vector in notes:
        found = judged(item, vector, last)
        shape = item["shape"].split(":")[0]
        langs[item["lang"]][3] += 1
        shapes[shape][3] += 1
        if found is not None:
            langs[item["lang"]][2] += 1
            shapes[shape][2] += 1
            result.false_positives.append(f"{item['text']}  <- {found.reason}")
    result.by_lang, result.by_shape = dict(langs), dict(shapes)
    return result


def undone_vectors(texts: list[str]) -> dict[str, np.ndarray]:
    """The e5 vector of each text ``normalise`` undid a disguise in, read from the undone text
    (``quarantine.undone``), as the writer passes it to ``detect``: one more embedding each."""
    again = {t: u for t in dict.fromkeys(texts) if (u := undone(t)) is not None}
    if not again:
        return {}
    rows = VectorCache().vectors(list(again.values()))
    return dict(zip(again, rows, strict=True))


def flagged_share(texts: list[str], vectors: np.ndarray) -> tuple[int, int, list[str]]:
    hits = []
    again = undone_vectors(texts)
    for text, vector in zip(texts, vectors, strict=True):
        found = detect(text, vector=vector, undone_vector=again.get(text))
        if found is not None:
            hits.append(f"{text[:160]}  <- {found.reason}")
    return len(hits), len(texts), hits


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


def cost_ms(texts: list[str], vectors: np.ndarray, repeat: int = 3) -> dict[str, float]:
    """Wall-clock figures per ``detect`` call with the text's vector (what a write adds beyond
    the embedding it computes anyway), and the CPU time of this process per call (on a shared
    machine the wall clock also counts the time other processes held the core)."""
    detect("warm up", vector=vectors[0])
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        for text, vector in zip(texts, vectors, strict=True):
            start, start_cpu = time.perf_counter(), time.process_time()
            detect(text, vector=vector)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    times.sort()
    cpu.sort()
    return {"mean": round(statistics.fmean(times), 3), "p50": round(times[len(times) // 2], 3),
            "p95": round(times[int(len(times) * 0.95)], 3), "max": round(times[-1], 3),
            "cpu_mean": round(statistics.fmean(cpu), 3), "cpu_p95": round(cpu[int(len(cpu) * 0.95)], 3),
            "texts": len(texts)}


# LongMemEval pieces measured: the kept-aside questions' histories (never trained on), and as
# many of the tune questions' (the script trains on these: a tuning figure)
CHAT_HELD, CHAT_TUNE = 1200, 2400


def run(root: Path = DEV_SET, *, locomo: Path | None = None, ru_set: Path | None = None,
        pl_set: Path | None = None, longmemeval: Path | None = None, show: bool = False) -> dict[str, Any]:
    cache = VectorCache()
    summary: dict[str, Any] = {}
    a_tuning, a_kept = first_parts(root)
    b_tuning, b_kept = second_parts(root)
    parts = {"a_tuning": a_tuning, "a_kept_aside": a_kept, "b_tuning": b_tuning, "b_kept_aside": b_kept}
    parts.update({f"{name}_tuning": items for name, items in authored_parts(root).items()})
    texts: list[str] = []
    for name, items in parts.items():
        if not items:
            continue
        vectors = cache.vectors([i["text"] for i in items])
        summary[name] = measure_part(name, items, vectors).as_json(show and name.endswith("tuning"))
        texts += [i["text"] for i in items]
    blind = blind_parts(root)
    if not blind:
        summary["blind"] = {"missing": str(root / BLIND / "*.json")}
    for name, items in blind.items():  # kept aside, never tuned on: counts only, never a text (show is ignored)
        vectors = cache.vectors([i["text"] for i in items])
        summary[f"blind:{name}"] = measure_part(f"blind:{name}", items, vectors).as_json(False)
    # generalisation: the model trained on one set alone, scored on the whole other set
    for name, model, items in (("a_to_b", "a", b_tuning + b_kept), ("b_to_a", "b", a_tuning + a_kept)):
        if items:
            vectors = cache.vectors([i["text"] for i in items])
            summary[name] = measure_part(name, items, vectors, model=model, layers=(5,)).as_json(show)
    if locomo is not None:
        from wave_agent.bench.locomo_data import load_conversations

        conversations = load_conversations(locomo)
        seen_turns = [t.text for c in conversations[:TRAIN_CONVERSATIONS] for t in c.turns]
        unseen = [t.text for c in conversations[TRAIN_CONVERSATIONS:] for t in c.turns]
        for key, turns in (("locomo", seen_turns + unseen), ("locomo_unseen", unseen)):
            hits, n, shown = flagged_share(turns, cache.vectors(turns))
            summary[key] = {"turns": n, "flagged": hits, "fp_pct": pct(hits, n),
                            **({"flagged_turns": shown} if show else {})}
        summary["cost_locomo_ms"] = cost_ms(unseen, cache.vectors(unseen), repeat=1)
        # the extraction's statements of turns never trained on ("The user feels exhausted")
        stated = [t for t in extracted(unseen[::EXTRACTED_EVERY]) if is_third_person(t)]
        hits, n, shown = flagged_share(stated, cache.vectors(stated))
        summary["extracted_locomo_unseen"] = {"texts": n, "flagged": hits, "fp_pct": pct(hits, n),
                                              **({"flagged_texts": shown} if show else {})}
    if longmemeval is not None:  # everyday chat with an assistant, as the writer stores its turns
        from wave_agent.bench.quarantine_chat import chat_turns

        for key, split, count in (("longmemeval_held", "held", CHAT_HELD), ("longmemeval_tune", "tune", CHAT_TUNE)):
            turns = chat_turns(longmemeval, split, count)
            hits, n, shown = flagged_share(turns, cache.vectors(turns))
            summary[key] = {"turns": n, "flagged": hits, "fp_pct": pct(hits, n),
                            **({"flagged_turns": shown} if show and split == "tune" else {})}
    for key, given, default in (("ru_set", ru_set, "memory-ru"), ("pl_set", pl_set, "memory-pl")):
        path = given or (root.parent / default if (root.parent / default / "facts.jsonl").exists() else None)
        if path is None:
            continue
        memory = read_texts(path)
        hits, n, shown = flagged_share(memory, cache.vectors(memory))
        summary[key] = {"source": str(path), "texts": n, "flagged": hits, "fp_pct": pct(hits, n),
                        **({"flagged_texts": shown} if show else {})}
        stated = [t for t in extracted(memory) if is_third_person(t)]
        hits, n, shown = flagged_share(stated, cache.vectors(stated))
        summary[f"extracted_{key}"] = {"texts": n, "flagged": hits, "fp_pct": pct(hits, n),
                                       **({"flagged_texts": shown} if show else {})}
    summary["cost_dev_ms"] = cost_ms(texts, cache.vectors(texts))
    return summary
