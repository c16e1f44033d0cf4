"""The language directions of e5's space, for recall's language-neutral question
(``wave_agent/recall/language.npz``; ``RecallConfig.language_neutral``).

multilingual-e5 puts two texts in one language closer than their meaning alone would: over a
mostly Russian month an English question's nearest records include English small talk and
unrelated English notes, pulled up by the language (docs/benchmarks.md, "Round thirty-five
(2026-12-07, h/recall36)"). The directions between the mean vectors of each language's texts of
one kind are mostly the language: here the questions of the tuning months (asked in Russian,
English and Polish about the same kinds of thing) and the messages of those months (what Wave
stores), each kind's per-language means taken apart, so the query side and the passage side
each give their own directions. An orthonormal basis of them is written; recall takes the
question's component along it out (``recall.language.neutral``), which takes the same component
out of every cosine with a stored record, so no stored vector changes.

Only the tuning months (``tuning`` .. ``tuning_32``) are read; the held-out months and the memory
sets are not.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice python scripts/train_language.py [--per-language 400] [--write]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
from pathlib import Path

import numpy as np

from graph.stemming import language_of
from wave_agent.recall import language

DATA = Path(__file__).resolve().parents[1] / "bench" / "data" / "month"
LANGS = {"russian": "ru", "english": "en", "polish": "pl"}


def tuning_months(last: int) -> list[Path]:
    out = []
    for path in sorted(DATA.glob("tuning*.json")):
        m = re.fullmatch(r"tuning(?:_(\d+))?", path.stem)
        if m and int(m.group(1) or 1) <= last:
            out.append(path)
    return out


def texts(paths: list[Path]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Questions by their labelled language, messages by ``language_of``."""
    questions: dict[str, list[str]] = {v: [] for v in LANGS.values()}
    messages: dict[str, list[str]] = {v: [] for v in LANGS.values()}
    for path in paths:
        raw = json.loads(path.read_text(encoding="utf-8"))
        for m in raw["messages"]:
            text = m["text"].strip()
            if len(text.split()) >= 3:
                messages[LANGS[language_of(text)]].append(text)
        for cp in raw["checkpoints"]:
            for q in cp["questions"]:
                if q.get("lang") in questions:
                    questions[q["lang"]].append(q["text"])
    return questions, messages


async def embed(batches: dict[str, list[str]], query: bool) -> dict[str, np.ndarray]:
    from archive.embedder import Embedder

    embedder = Embedder(language.READS)
    await embedder.load()
    out = {}
    for name, batch in batches.items():
        vectors = [await (embedder.embed_query if query else embedder.embed)(batch[i:i + 32])
                   for i in range(0, len(batch), 32)]
        out[name] = np.concatenate([np.asarray(v, dtype=np.float32) for v in vectors])
        print(f"embedded {len(batch)} {'questions' if query else 'messages'} ({name})",
              flush=True)
    return out


def directions(kinds: list[dict[str, np.ndarray]]) -> np.ndarray:
    """An orthonormal basis (DIM x r) of the differences between the per-language means of
    each kind of text (each kind's means against its Russian mean)."""
    diffs = []
    for by_lang in kinds:
        means = {k: v.mean(0) for k, v in by_lang.items() if len(v)}
        diffs += [means[k] - means["ru"] for k in means if k != "ru"]
    basis, _ = np.linalg.qr(np.stack(diffs).T)
    return basis.astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--last", type=int, default=32, help="the last tuning month read")
    parser.add_argument("--per-language", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    questions, messages = texts(tuning_months(args.last))

    def sample(by: dict[str, list[str]]) -> dict[str, list[str]]:
        return {k: rng.sample(v, min(len(v), args.per_language)) for k, v in by.items()}

    q = asyncio.run(embed(sample(questions), True))
    p = asyncio.run(embed(sample(messages), False))
    basis = directions([q, p])
    for name, by in (("questions", q), ("messages", p)):
        for k, v in by.items():
            share = float(np.mean(np.linalg.norm(v @ basis, axis=1)))
            print(f"{name} {k}: {len(v)}, mean norm of the language component {share:.3f}")
    if args.write:
        language.save(basis, read=f"tuning..tuning_{args.last}", per_language=args.per_language)
        print(f"wrote {language.MODEL} ({basis.shape[1]} directions)")


if __name__ == "__main__":
    main()
