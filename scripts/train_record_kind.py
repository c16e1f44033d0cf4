"""Train the record-kind switch of recall's query map (``wave_agent/recall/kind.npz``).

The query map (``recall.adapter``) was trained on the memory sets' short personal notes; on
chat transcripts (LoCoMo's dialogues, LongMemEval's user and assistant turns) it costs recall
(docs/benchmarks.md, "Round twenty-one" and "Round twenty-two (2026-12-06, h/recall20)").
The switch is a logistic regression over a stored record's e5 passage vector (nothing new is
embedded at recall time): the probability that the record is a note of the kind the map was trained on.
At recall time the mean over the plain query's nearest records decides whether the map moves
the query (``RECALL_QUERY_ADAPTER=auto``).

The notes are Russian and Polish and the transcripts English, so a regression over the raw
vectors learns the language as much as the kind (English notes written for the test read as
chat, a Russian dialogue as notes). The language is taken out first: the directions between the
mean e5 vectors of the questions in each language (questions are one kind of text in every set:
what differs between their means is mostly the language) are projected out of every vector
before the fit, and the projection is folded into the weights (``w - Q Q^T w``), so recall
reads one dot product as before. ``--keep-language`` fits on the raw vectors, for comparison.

Trained on: positives, the facts of the memory sets of authors 1-13 (the ones the shipped map
was trained on); negatives, the turns of LoCoMo's five tuning conversations (as the bench
stores them, "speaker: text") and a sample of the turns of LongMemEval's tuning questions (as
the bench writes them: the turn's text, cut by the embedder at 512 tokens). Measured, never
trained on: memory authors 14-19 (facts, and each question's decision over its ten nearest
facts), LoCoMo's kept-aside conversations (turns, and each question's decision), LongMemEval's
held questions (turns), and the newest tuning months' messages (what Wave writes from a
Telegram chat: the map must stay on there).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 nice -n 10 python scripts/train_record_kind.py \\
        --locomo ../shared/data/locomo --longmemeval ../shared/data/longmemeval/longmemeval_s_dev60.json \\
        --cache /tmp/recall20/kind_vectors.npy --write
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from wave_agent.recall import adapter, kind  # noqa: E402

TRAINED_AUTHORS = {str(n) for n in range(1, 14)}  # the map's own training authors
NEAREST = kind.NEAREST


async def _embed_texts(texts: dict[str, list[str]]) -> dict[str, np.ndarray]:
    from archive.embedder import Embedder

    embedder = Embedder(adapter.READS)
    await embedder.load()
    out = {}
    for name, batch in texts.items():
        out[name] = np.asarray(await embedder.embed(batch), dtype=np.float32)
        print(f"embedded {name}: {len(batch)} texts", flush=True)
    return out


async def _embed_queries(texts: dict[str, list[str]]) -> dict[str, np.ndarray]:
    from archive.embedder import Embedder

    embedder = Embedder(adapter.READS)
    await embedder.load()
    out = {}
    for name, batch in texts.items():
        out[name] = np.stack([(await embedder.embed_query([t]))[0] for t in batch])
        print(f"embedded {name}: {len(batch)} questions", flush=True)
    return out


def chat_texts(locomo: Path, longmemeval: Path, per_question: int, seed: int
               ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """LoCoMo's turns (every conversation) and their questions; a sample of each LongMemEval
    question's turns; keyed ``locomo-<conv>`` / ``lme-<split>-<id>``."""
    from wave_agent.bench import longmemeval as lme
    from wave_agent.bench.locomo import record_text
    from wave_agent.bench.locomo_data import load_conversations

    texts: dict[str, list[str]] = {}
    questions: dict[str, list[str]] = {}
    for c in load_conversations(locomo):
        texts[f"locomo-{c.name}"] = [record_text(t) for t in c.turns]
        questions[f"locomo-{c.name}"] = [q.text for q in c.questions if q.category != 5]
    rng = random.Random(seed)
    for item in lme.load(longmemeval):
        if item.abstention:
            continue
        turns = [t.text for t in item.turns if t.text.strip()]
        texts[f"lme-{item.split}-{item.id}"] = rng.sample(turns, min(per_question, len(turns)))
    return texts, questions


def month_texts(data: Path, names: list[str]) -> dict[str, list[str]]:
    out = {}
    for name in names:
        raw = json.loads((data / "month" / f"{name}.json").read_text(encoding="utf-8"))
        out[f"month-{name}"] = [m["text"] for m in raw["messages"] if m["text"].strip()]
    return out


def month_decisions(args: argparse.Namespace, chat: dict[str, Any], w: np.ndarray, b: float
                    ) -> None:
    """Each tuning month's checkpoint questions: the switch over the ten messages said before
    the checkpoint nearest each (every message, whether or not the writer keeps it)."""
    for name in args.months:
        raw = json.loads((args.data / "month" / f"{name}.json").read_text(encoding="utf-8"))
        said = [m for m in raw["messages"] if m["text"].strip()]
        records = chat[f"month-{name}"]
        asked = [(c["at"], q["text"]) for c in raw["checkpoints"] for q in c["questions"]]
        key = f"q:month-{name}"
        if key not in chat:
            chat[key] = asyncio.run(_embed_queries({key: [t for _, t in asked]}))[key]
            np.save(args.cache, np.asarray(chat, dtype=object), allow_pickle=True)
        on = 0
        for (at, _), q in zip(asked, chat[key], strict=True):
            before = np.asarray([i for i, m in enumerate(said) if m["at"] <= at])
            on += decisions(q[None, :], records[before], w, b)[0]
        print(f"  month-{name:10s} questions with the map on {100 * on / len(asked):5.1f} "
              f"({on}/{len(asked)})")


def load_vectors(args: argparse.Namespace) -> dict[str, Any]:
    import train_query_adapter as tqa

    memory = tqa.vectors(args.data, args.memory_cache, None)
    cached: dict[str, Any] = {}
    if args.cache.is_file():
        cached = np.load(args.cache, allow_pickle=True).item()
    texts, questions = chat_texts(args.locomo, args.longmemeval, args.per_question, args.seed)
    texts.update(month_texts(args.data, args.months))
    missing = {n: t for n, t in texts.items() if n not in cached}
    if missing:
        cached.update(asyncio.run(_embed_texts(missing)))
    missing_q = {f"q:{n}": t for n, t in questions.items() if f"q:{n}" not in cached}
    if missing_q:
        cached.update(asyncio.run(_embed_queries(missing_q)))
    np.save(args.cache, np.asarray(cached, dtype=object), allow_pickle=True)
    return {"memory": memory, "chat": cached}


def language_directions(questions: list[np.ndarray]) -> np.ndarray:
    """An orthonormal basis (DIM x len - 1) of the differences between the mean question
    vectors of the languages given (each array one language's questions)."""
    means = [q.mean(0) for q in questions]
    basis, _ = np.linalg.qr(np.stack([m - means[0] for m in means[1:]]).T)
    return basis.astype(np.float32)


def fit(x: np.ndarray, y: np.ndarray, c: float, language: np.ndarray | None
        ) -> tuple[np.ndarray, float]:
    """The regression on ``x`` with the ``language`` directions projected out, the projection
    folded into the weights."""
    from sklearn.linear_model import LogisticRegression

    if language is not None:
        x = x - (x @ language) @ language.T
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=3000)
    model.fit(x, y)
    w = model.coef_[0]
    if language is not None:
        w = w - language @ (language.T @ w)
    return w.astype(np.float32), float(model.intercept_[0])


def decisions(questions: np.ndarray, records: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    """Each question's switch: the mean fact-likeness of its NEAREST plain nearest records."""
    top = np.argsort(-(questions @ records.T), axis=1)[:, :NEAREST]
    p = kind.probability(records, w, b)
    return np.asarray([kind.decide(p[t]) for t in top])


# written for the check, in no set: the switch must read the kind, not the language
PROBES = {
    "English notes": [
        "Booked Tim an orthodontist appointment for March 14 at 4:30pm.",
        "Switched my phone plan to T-Mobile, $45 a month.",
        "Leo is allergic to citrus, sent a note to school.",
        "Wifi password at the cabin: sunshine2024.",
        "My car is at the garage on Oak Street until Friday."],
    "Russian dialogue": [
        "Маша: Привет! Как прошла поездка в Казань?",
        "Оля: Отлично, спасибо! Мы гуляли по Кремлю и ели эчпочмаки.",
        "Маша: Здорово, а сестра твоя с вами ездила?",
        "Оля: Да, она как раз взяла отпуск на новой работе."],
    "Russian small talk": ["доброе утро) ну что, начинаем ноябрь", "спасибо, ты лучший",
                           "ахах ну да"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--locomo", type=Path, required=True)
    parser.add_argument("--longmemeval", type=Path, required=True)
    parser.add_argument("--months", nargs="*", default=["tuning_17", "tuning_18", "tuning_19"])
    parser.add_argument("--memory-cache", type=Path, default=Path("/tmp/query_adapter_vectors.npy"))
    parser.add_argument("--cache", type=Path, default=Path("/tmp/record_kind_vectors.npy"))
    parser.add_argument("--per-question", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--c", type=float, default=1.0, help="the regression's inverse L2 weight")
    parser.add_argument("--keep-language", action="store_true",
                        help="fit on the raw vectors (the language not projected out)")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()

    from train_query_adapter import author

    from wave_agent.bench.locomo import split_of

    v = load_vectors(args)
    memory, chat = v["memory"], v["chat"]
    train_pos = [memory[n]["facts"] for n in memory if author(n) in TRAINED_AUTHORS]
    tune_convs = [n for n in chat if n.startswith("locomo-") and split_of(n[7:]) == "tune"]
    held_convs = [n for n in chat if n.startswith("locomo-") and split_of(n[7:]) == "held"]
    train_neg = [chat[n] for n in tune_convs] + [
        chat[n] for n in chat if n.startswith("lme-tune-")]
    x = np.concatenate([*train_pos, *train_neg])
    y = np.concatenate([np.ones(sum(len(a) for a in train_pos)),
                        np.zeros(sum(len(a) for a in train_neg))])
    languages = [np.concatenate([memory[n]["questions"] for n in memory
                                 if f"-{lang}" in n and author(n) in TRAINED_AUTHORS])
                 for lang in ("ru", "pl")]
    languages.insert(0, np.concatenate([chat[f"q:{n}"] for n in tune_convs]))  # English
    w, b = fit(x, y, args.c, None if args.keep_language else language_directions(languages))
    print(f"trained on {int(y.sum())} notes (authors 1-13) and {int(len(y) - y.sum())} chat "
          f"turns (LoCoMo {', '.join(n[7:] for n in tune_convs)}; LongMemEval's tuning questions)")

    def share(vectors: np.ndarray) -> float:
        return 100 * float(np.mean(kind.probability(vectors, w, b) >= 0.5))

    print("\nheld out, records read as notes (%):")
    for n in sorted(memory, key=lambda s: (s.split("-")[1], int(author(s)))):
        if author(n) in TRAINED_AUTHORS:
            continue
        on = decisions(memory[n]["questions"], memory[n]["facts"], w, b)
        print(f"  {n:16s} facts {share(memory[n]['facts']):5.1f}   questions with the map on "
              f"{100 * on.mean():5.1f} ({int(on.sum())}/{len(on)})")
    for n in held_convs:
        on = decisions(chat[f"q:{n}"], chat[n], w, b)
        print(f"  {n:16s} turns {share(chat[n]):5.1f}   questions with the map on "
              f"{100 * on.mean():5.1f} ({int(on.sum())}/{len(on)})")
    held_lme = [n for n in chat if n.startswith("lme-held-")]
    lme_turns = np.concatenate([chat[n] for n in held_lme])
    print(f"  LongMemEval held ({len(held_lme)} questions' turns) turns {share(lme_turns):5.1f}; "
          f"questions whose sampled turns read as notes: "
          f"{sum(kind.decide(kind.probability(chat[n], w, b)) for n in held_lme)}/{len(held_lme)}")
    for n in [n for n in chat if n.startswith("month-")]:
        print(f"  {n:16s} messages {share(chat[n]):5.1f}")
    month_decisions(args, chat, w, b)
    print("\ntraining sets (a tuning figure):")
    for n in tune_convs:
        on = decisions(chat[f"q:{n}"], chat[n], w, b)
        print(f"  {n:16s} turns {share(chat[n]):5.1f}   questions with the map on {100 * on.mean():5.1f}")
    probes = asyncio.run(_embed_texts(PROBES))
    print("\nprobes written for the check (each text's probability of a note):")
    for name, vectors in probes.items():
        print(f"  {name:18s}", " ".join(f"{p:.2f}" for p in kind.probability(vectors, w, b)))
    if args.write:
        kind.save(w, b, trained_on=np.asarray(
            "memory authors 1-13 (notes); LoCoMo tuning conversations and LongMemEval tuning "
            f"questions, {args.per_question} turns each (chat); C={args.c}; language "
            f"{'kept' if args.keep_language else 'projected out'}"))
        print(f"\nwrote {kind.MODEL}")


if __name__ == "__main__":
    main()
