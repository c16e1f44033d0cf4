"""``read(text)``: the statement's language decides the reader (Russian: natasha; English and
Polish: patterns). Pure CPU: async callers run it in a thread (``read_many`` does, one thread
hop for a whole batch), and the natasha models load once per process on first use."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence

from wave_agent.llm.offline_extract import language
from wave_agent.world import (
    accents,
    capitals,
    latin,
    morphology,
    names,
    nouns,
    pairs,
    russian,
    span_kinds,
)
from wave_agent.world.reading import Reading, without_speakers_name

log = logging.getLogger("wave.world")


def read(text: str) -> Reading:
    """The entities and typed relations one statement names."""
    return read_batch([text])[0]


_CACHE_SIZE = 4_096  # readings kept: the writer reads a record for its entities and its attributes
_cache: OrderedDict[str, Reading] = OrderedDict()
_cache_lock = threading.Lock()


def read_batch(texts: Sequence[str]) -> list[Reading]:
    """``read`` for each text; the Russian ones through the models together, in batches. A
    text read lately is not read again (readings are immutable; the last 4,096 are kept).

    natasha's models are small numpy convolutions: OpenBLAS's worker threads only contend for
    them, badly so on a shared machine (1,000 statements: 29.7 s with its default threads, 1.5 s
    with one, load ~10), so the reading runs with one BLAS thread."""
    with _cache_lock:
        known = {t: _cache[t] for t in texts if t in _cache}
    missing = list(dict.fromkeys(t for t in texts if t not in known))
    if missing:
        fresh = dict(zip(missing, _read_batch(missing), strict=True))
        with _cache_lock:
            for text, reading in fresh.items():
                _cache[text] = reading
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
        known.update(fresh)
    return [known[t] for t in texts]


def _read_batch(texts: Sequence[str]) -> list[Reading]:
    return [pairs.relink(as_read(text), reading)
            for text, reading in zip(texts, rule_readings(texts), strict=True)]


def as_read(text: str) -> str:
    """The text the readers see: Polish written without its letters is given them back
    (``world.accents``: "Zona Magda" -> "Żona Magda"); any other text as it is."""
    return accents.restore(text) if text.strip() and language(text) == "pl" else text


def rule_readings(texts: Sequence[str], learned_nouns: bool = True) -> list[Reading]:
    """The rules' readings with the noun phrases the noun model adds (``world.nouns``; not
    with ``learned_nouns=False``, its own training input), short names given their full
    forms: the relation model's input (not cached)."""
    return [complete(t, r, learned_nouns=learned_nouns)
            for t, r in zip(texts, parsed(texts), strict=True)]


def parsed(texts: Sequence[str]) -> list[Reading]:
    """The rules' readings as the language's reader gives them (before ``complete``)."""
    from threadpoolctl import threadpool_limits

    langs = [language(t) if t.strip() else "" for t in texts]
    russian_texts = [t for t, lang in zip(texts, langs, strict=True) if lang == "ru"]
    with threadpool_limits(limits=1, user_api="blas"):
        russian_readings = iter(russian.read_many(russian_texts) if russian_texts else [])
    return [next(russian_readings) if lang == "ru"
            else latin.read(capitals.restore(accents.restore(t) if lang == "pl" else t, lang),
                            lang) if lang
            else Reading() for t, lang in zip(texts, langs, strict=True)]


def complete(text: str, reading: Reading, noun_model: nouns.Model | None = None,
             learned_nouns: bool = True) -> Reading:
    """A parsed reading with the noun model's phrases (the shipped model, or ``noun_model``:
    training passes one that never saw the author), short names given their full forms and
    the speaker's own name taken out. Polish written without its letters is read with them
    (``as_read``), each name keeping its bare spelling as an alias."""
    said, text = text, as_read(text)
    if learned_nouns:
        reading = span_kinds.retype(text, nouns.add(text, reading, noun_model))
    reading = without_speakers_name(text, names.with_full_names(reading))
    return accents.with_bare_names(reading) if said != text else reading


async def read_many(texts: Sequence[str]) -> list[Reading]:
    """``read_batch`` in one worker thread (off the event loop)."""
    return await asyncio.to_thread(read_batch, texts)


def warm_up() -> None:
    """Load the Russian models now (a process that will write soon pays the 0.9 s up front)."""
    morphology.Models.get()


__all__ = ["as_read", "complete", "parsed", "read", "read_batch", "read_many", "rule_readings", "warm_up"]
