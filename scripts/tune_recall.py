"""Recall variants on a memory set and on LoCoMo conversations, loaded once, real engine.

Loads each memory set (``--memory DIR``, as ``wave bench memory`` does: ``Writer.remember_many``,
proposals approved) and each LoCoMo conversation (``--locomo DIR --only conv-26 ...``, as
``wave bench locomo`` does) into scratch users of one Neo4j and a scratch Qdrant directory,
then asks every question of ``Recall.search`` once per variant (``--variants``: names from
``VARIANTS`` below; each patches presets, decay or the config for the duration of its pass).
Prints R@1/5/10 per set and split (memory) and R@5/R@10 per conversation (LoCoMo).
``--diagnose``: for the first variant, every memory question missed at 5 with each answer's
rank in every voice (context voices too), its type and its decay factor.

No baselines and no latency here (``wave bench memory`` / ``wave bench locomo`` report those);
this is for reading misses and comparing variants on the tune parts. Users are erased at the end.

    DATA_DIR=/tmp/x NEO4J_PORT=17730 NEO4J_URI=bolt://127.0.0.1:17730 HF_HUB_OFFLINE=1 \\
      nice -n 10 .venv/bin/python scripts/tune_recall.py --memory bench/data/memory-ru \\
      --locomo /work/shared/data/locomo --only conv-26 conv-30 --variants main candidate
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import re
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from graph import kin
from wave_agent.policy import calibration
from wave_agent.recall import decay, fusion, presets
from wave_agent.recall import engine as engine_mod

Patch = Callable[[], contextlib.AbstractContextManager[Any]]
_CAPTURE: list[tuple[dict[str, list[str]], dict[str, float]]] = []
_real_rrf = fusion.weighted_rrf


def _capturing_rrf(rankings: Any, weights: Any, rrf_k: int = fusion.RRF_K,
                   scale: Any = None) -> Any:
    _CAPTURE.append(({k: list(v) for k, v in rankings.items()}, dict(weights)))
    return _real_rrf(rankings, weights, rrf_k, scale)


@contextlib.contextmanager
def patched(**changes: Any) -> Iterator[None]:
    """Swap module attributes (``presets.DEFAULT`` etc.) for one pass."""
    saved = []
    for dotted, value in changes.items():
        module_name, attr = dotted.split("__", 1)
        module = {"presets": presets, "decay": decay, "engine": engine_mod,
                  "calibration": calibration, "kin": kin}[module_name]
        saved.append((module, attr, getattr(module, attr)))
        setattr(module, attr, value)
    try:
        yield
    finally:
        for module, attr, value in saved:
            setattr(module, attr, value)


def reweigh(preset: presets.Preset, **weights: float) -> presets.Preset:
    merged = dict(preset.weights)
    merged.update(weights)
    from types import MappingProxyType
    return dataclasses.replace(preset, weights=MappingProxyType(merged))


def all_presets(**weights: float) -> dict[str, Any]:
    return {f"presets__{n}": reweigh(getattr(presets, n), **weights)
            for n in ("DEFAULT", "TEMPORAL", "HISTORY", "ENTITY")}


VARIANTS: dict[str, Callable[[], dict[str, Any]]] = {
    "main": lambda: {},
    "copyday_off": lambda: {},
    "sem075": lambda: all_presets(semantic=0.75),
    "ctxsem15": lambda: all_presets(context_semantic=1.5),
    "decay05": lambda: {"presets__DEFAULT": dataclasses.replace(presets.DEFAULT, decay_strength=0.5)},
    "commit09": lambda: {"decay__DECAY": _decay(COMMITMENT=decay.Weibull(60.0, 1.0, floor=0.9))},
    "now": lambda: {},
    "sem1": lambda: all_presets(semantic=1.0),
    "sem1_ctx05": lambda: all_presets(semantic=1.0, context_semantic=0.5, context_lexical=0.5),
    "sem05": lambda: all_presets(semantic=0.5),
    "sem1_ctxlex05": lambda: all_presets(semantic=1.0, context_lexical=0.5),
    "sem1_commit": lambda: {**all_presets(semantic=1.0), "decay__DECAY": _decay(
        COMMITMENT=decay.Weibull(60.0, 1.0, floor=0.9))},
    "cov1": lambda: {},
    "cov2": lambda: {},
    "cov1_sem1": lambda: all_presets(semantic=1.0),
    "cov2_sem1": lambda: all_presets(semantic=1.0),
    "lexonly": lambda: all_presets(lexical=1.0, semantic=0.0, temporal=0.0, graph=0.0,
                                   context_lexical=0.0, context_semantic=0.0, dated=0.0),
    "semonly": lambda: all_presets(lexical=0.0, semantic=1.0, temporal=0.0, graph=0.0,
                                   context_lexical=0.0, context_semantic=0.0, dated=0.0),
    "nocopy": lambda: {"calibration___KNOWN": {**calibration._KNOWN, "multilingual-e5-small":
                       dataclasses.replace(calibration.E5_SMALL, mmr_duplicate=1.01)}},
    "cov1_nocopy": lambda: {"calibration___KNOWN": {**calibration._KNOWN, "multilingual-e5-small":
                            dataclasses.replace(calibration.E5_SMALL, mmr_duplicate=1.01)}},
    "cov1_graphrecency": lambda: {},
    "cov1_nograph": lambda: all_presets(graph=0.0),
    "cov1_graph1": lambda: all_presets(graph=1.0),
    "copyrule_old": lambda: {},
    "cov1_graph02": lambda: all_presets(graph=0.2),
    "cov1_graph01": lambda: all_presets(graph=0.1),
    "cov1_ep025": lambda: {},
    "cov1_ep1": lambda: {},
    "cov1_info01": lambda: {},
    "cov1_info03": lambda: {},
    "cov1_ctx15": lambda: all_presets(context_lexical=1.5, context_semantic=1.5),
    "cov1_sem01": lambda: all_presets(semantic=0.1),
    "cov1_lex05": lambda: all_presets(lexical=0.5),
    "nograph": lambda: all_presets(graph=0.0),
    "notemporal": lambda: all_presets(temporal=0.0),
    "abl_meaning": lambda: {},
    "abl_others": lambda: {},
    "abl_colloquial": lambda: {},
    "meaning5": lambda: {},
    "meaning2": lambda: {},
    "ctx30": lambda: {},
    "ctx40": lambda: {},
    "meaning15": lambda: {},
    "rest05": lambda: {},
    "abl_rest": lambda: {},
}



def _decay(**curves: Any) -> Any:
    from types import MappingProxyType

    from graph.models import FactType
    table = dict(decay.DECAY)
    for name, curve in curves.items():
        table[FactType[name]] = curve
    return MappingProxyType(table)

CONFIGS: dict[str, dict[str, Any]] = {
    "copyday_off": {"copies_same_day": False},
    "main": {"lexical_coverage": 0.0},
    "sem1": {"lexical_coverage": 0.0},
    "cov2": {"lexical_coverage": 2.0},
    "cov1_sem1": {"lexical_coverage": 1.0},
    "cov2_sem1": {"lexical_coverage": 2.0},
    "lexonly": {"lexical_coverage": 0.0},
    "nocopy": {"lexical_coverage": 0.0},
    "cov1_graphrecency": {"graph_by_meaning": False},
    "cov1_nograph": {},
    "cov1_graph1": {},
    "copyrule_old": {"copies_keep_numbers": False},
    "cov1_graph02": {},
    "cov1_graph01": {},
    "cov1_ep025": {"episode_weight": 0.25},
    "cov1_ep1": {"episode_weight": 1.0},
    "cov1_info01": {"info_prior": 0.1},
    "cov1_info03": {"info_prior": 0.3},
    "cov1_ctx15": {},
    "cov1_sem01": {},
    "cov1_lex05": {},
    "semonly": {"lexical_coverage": 0.0},
    "meaning5": {"meaning_weight": 5.0},
    "meaning2": {"meaning_weight": 2.0},
    "ctx30": {"context_depth": 30},
    "ctx40": {"context_depth": 40},
    "meaning15": {"meaning_weight": 1.5},
    "rest05": {"relative_rest_weight": 0.5},
    # each of the last recall additions (meaning, the person, clipped words, the rest) left out (docs/benchmarks.md, "Meaning, the person
    # and the rest of a question")
    **{f"abl_{n}": {key: off} for n, key, off in (
        ("meaning", "meaning_weight", 0.0), ("others", "others_factor", 1.0),
        ("colloquial", "colloquial", False), ("rest", "relative_rest_weight", 0.0))},

}


async def load_memory(directory: Path, writer: Any) -> tuple[str, Any, dict[str, str]]:
    from graph.models import Veracity
    from wave_agent.bench.memory import load_set
    from wave_agent.write.writer import MemoryItem

    data = load_set(directory)
    user_id = f"tune-memory-{uuid.uuid4().hex[:8]}"
    ids: dict[str, str] = {}
    facts = sorted(data.facts, key=lambda f: f.at)
    for start in range(0, len(facts), 50):
        chunk = facts[start:start + 50]
        results = await writer.remember_many(user_id, [
            MemoryItem(text=f.text, veracity=Veracity.STATED, created_at=f.at) for f in chunk])
        for f, result in zip(chunk, results, strict=True):
            if result.proposal is not None and result.fact is None:
                result = await writer.approve(user_id, result.proposal.id)
            if result.fact is not None:
                ids[result.fact.id] = f.id
    return user_id, data, ids


async def load_locomo(conversation: Any, writer: Any) -> tuple[str, Any]:
    from graph.models import FactType, Veracity
    from wave_agent.bench.locomo import record_text, turn_times
    from wave_agent.write.writer import MemoryItem

    turns = conversation.turns
    times = turn_times(turns)
    user_id = f"tune-locomo-{conversation.name}-{uuid.uuid4().hex[:6]}"
    items = [MemoryItem(text=record_text(t), type=FactType.EVENT, veracity=Veracity.STATED,
                        created_at=w, speaker=t.speaker, source_message_ids=(t.dia_id,),
                        exchange_id=f"{conversation.name}:s{t.session}",
                        episode_date=t.at.date().isoformat())
             for t, w in zip(turns, times, strict=True)]
    for start in range(0, len(items), 100):
        await writer.remember_many(user_id, items[start:start + 100])
    return user_id, max(times)


_DIMINUTIVE = ("еньк", "ечк", "очк", "ушк", "юшк", "ек", "ок", "ьк", "к")
_CAPITAL = re.compile(r"(?<!\w)([А-ЯЁ][а-яё]{2,})")


async def link_names(graph: Any, user_id: str, ids: dict[str, str], facts: Any) -> int:
    """Experiment (--entities): a person entity for every capitalised Russian word seen at
    least once mid-sentence, diminutives folded onto the name whose stem they extend
    (Игорёк, Игорька -> Игорь), each fact linked ABOUT the names it mentions."""
    from graph.entities import stem
    from graph.models import EntityType
    names: set[str] = set()
    for f in facts:
        for m in _CAPITAL.finditer(f.text):
            if m.start() > 0 and f.text[max(0, m.start() - 2):m.start()].strip() not in {".", "!", "?"}:
                names.add(stem(m.group(1).lower()))
    bases = sorted(names, key=len)
    canon: dict[str, str] = {}
    for s in bases:
        base = next((b for b in bases if b != s and s.startswith(b) and len(b) >= 3
                     and s[len(b):].lstrip("ь") in {d for d in _DIMINUTIVE} | {""}), s)
        canon[s] = canon.get(base, base)
    back = {v: k for k, v in ids.items()}
    entity_of: dict[str, Any] = {}
    links = 0
    # The person's own relatives: a role word at the start or after "мой/моя", then (an
    # adjective and) a name that agrees with it ("Сыну Игорю", "Мой старший брат Олег").
    for f in facts:
        m = _ROLE.search(f.text)
        if m is None or not _agree(m.group("role"), m.group("name")):
            continue
        s_ = stem(m.group("name").lower())
        key = canon.get(s_, s_)
        if key not in entity_of:
            entity_of[key] = await graph.resolve_entity(user_id, m.group("name"), EntityType.PERSON)
        await graph.add_aliases(user_id, entity_of[key].id, [m.group("role")])
    for f in facts:
        found = []
        for m in _CAPITAL.finditer(f.text):
            s = stem(m.group(1).lower())
            if s not in canon:
                continue
            key = canon[s]
            if key not in entity_of:
                entity_of[key] = await graph.resolve_entity(user_id, m.group(1), EntityType.PERSON)
            entity = entity_of[key]
            if s != key:
                await graph.add_aliases(user_id, entity.id, [m.group(1)])
            found.append(entity.id)
        if found and f.id in back:
            links += await graph.link_about(user_id, back[f.id], found)
    return links


_ROLE = re.compile(
    r"(?:^|(?:[Мм]ой|[Мм]оя|[Мм]оему|[Мм]оей|[Мм]оего|[Мм]ою)\s+)(?:[а-яё]+(?:ий|ая|ый|ему|ей)\s+)?"
    r"(?P<role>(?:[Сс]ын|[Дд]оч|[Бб]рат|[Сс]естр|[Жж]ен|[Мм]уж|[Пп]лемянни)[а-яё]*)\s+"
    r"(?P<name>[А-ЯЁ][а-яё]+)(?=[\s,.])")


def _agree(role: str, name: str) -> bool:
    """The same case, judged by the last letter ("Сыну Игорю" yes, "Жену Олега" no)."""
    groups = ("уюь", "еи", "ая", "ыи")
    a, b = role[-1].lower(), name[-1].lower()
    if a not in "аеёиоуыэюяь" and b not in "аеёиоуыэюяь":
        return True
    return any(a in g and b in g for g in groups)


def _pct(values: list[bool]) -> float:
    return round(100 * sum(values) / max(1, len(values)), 1)


async def ask_memory(recall: Any, user_id: str, data: Any, ids: dict[str, str],
                     diagnose: bool) -> dict[str, dict[str, float]]:
    from wave_agent.recall.decay import record_factor
    out: dict[str, list[int | None]] = {}
    for q in data.questions:
        _CAPTURE.clear()
        hits = await recall.search(user_id, q.text, k=10)
        ranked = [ids.get(h.fact.id, h.fact.id) for h in hits]
        rank = next((i + 1 for i, f in enumerate(ranked) if f in q.answers), None)
        for part in ("all", q.split, f"kind:{q.kind}"):
            out.setdefault(part, []).append(rank)
        if diagnose and q.split == "tune" and (rank is None or rank > 5):
            rankings, _ = _CAPTURE[-1]
            print(f"\n{q.id} rank {rank}: {q.text}  (preset {hits.preset.name})")
            for h in hits[:5]:
                print(f"   top: [{h.fact.type.value}] {h.fact.text[:70]}")
            back = {v: k for k, v in ids.items()}
            for a in q.answers:
                fid = back.get(a)
                fact = None
                found = {v: (r.index(fid) + 1 if fid in r else None) for v, r in rankings.items()}
                for h in hits:
                    if h.fact.id == fid:
                        fact = h.fact
                if fact is None and fid is not None:
                    fact = await recall.graph.get_fact(user_id, fid) if hasattr(
                        recall.graph, "get_fact") else None
                info = "" if fact is None else (
                    f"[{fact.type.value}] factor {record_factor(fact, recall.clock()):.2f} ")
                print(f"   answer {a} {info}{found}")
    return {part: {f"R@{k}": _pct([r is not None and r <= k for r in ranks]) for k in (1, 5, 10)}
            | {"n": len(ranks)} for part, ranks in out.items()}


async def ask_locomo(recall: Any, user_id: str, conversation: Any) -> dict[str, float]:
    from wave_agent.bench.locomo import recall_at
    r5, r10 = [], []
    for q in conversation.questions:
        hits = await recall.search(user_id, q.text, k=10)
        found = [h.fact.source_message_ids for h in hits]
        r5.append(recall_at(found, q.evidence, 5))
        r10.append(recall_at(found, q.evidence, 10))
    return {"R@5": round(100 * float(np.mean(r5)), 1), "R@10": round(100 * float(np.mean(r10)), 1),
            "n": len(r5)}


async def main(args: argparse.Namespace) -> None:
    from wave_agent.bench.locomo_data import load_conversations
    from wave_agent.cli.common import settings
    from wave_agent.recall import Recall, RecallConfig
    from wave_agent.services import Services

    fusion.weighted_rrf = _capturing_rrf  # type: ignore[assignment]
    with tempfile.TemporaryDirectory(prefix="wave-tune-") as scratch:
        base = settings().model_copy(update={"qdrant_path": Path(scratch) / "qdrant",
                                             "qdrant_url": None})
        async with Services(base, autostart_neo4j=True) as services:
            writer = await services.writer()
            graph = await services.graph()
            archive = await services.archive()
            embedder = services.embedder()
            await embedder.load()
            memory = [await load_memory(Path(d), writer) for d in args.memory]
            if args.entities:
                for user_id, data, ids in memory:
                    print(f"linked {await link_names(graph, user_id, ids, data.facts)} mentions",
                          flush=True)
            conversations = []
            if args.locomo:
                chosen = [c for c in load_conversations(Path(args.locomo)) if c.name in args.only]
                conversations = [(c, *await load_locomo(c, writer)) for c in chosen]
            try:
                for n, name in enumerate(args.variants):
                    config = RecallConfig(voice_timeout_s=5.0, **CONFIGS.get(name, {}))
                    with patched(**VARIANTS[name]()):
                        print(f"== {name}", flush=True)
                        for user_id, data, ids in memory:
                            recall = Recall(graph, archive, embedder, clock=lambda d=data: d.asked_at,
                                            config=config)
                            res = await ask_memory(recall, user_id, data, ids,
                                                   args.diagnose and n == 0)
                            for part in sorted(res):
                                if part.startswith("kind:") and not args.kinds:
                                    continue
                                r = res[part]
                                print(f"  {data.name} {part:<18} R@1 {r['R@1']:5} R@5 {r['R@5']:5} "
                                      f"R@10 {r['R@10']:5} n {r['n']}", flush=True)
                        total5, total10, total_n = 0.0, 0.0, 0
                        for conv, user_id, last in conversations:
                            from datetime import timedelta
                            at = last + timedelta(hours=1)
                            recall = Recall(graph, archive, embedder, clock=lambda a=at: a,
                                            config=config)
                            r = await ask_locomo(recall, user_id, conv)
                            total5 += r["R@5"] * r["n"]
                            total10 += r["R@10"] * r["n"]
                            total_n += int(r["n"])
                            print(f"  {conv.name} R@5 {r['R@5']} R@10 {r['R@10']} n {r['n']}",
                                  flush=True)
                        if total_n:
                            print(f"  locomo weighted R@5 {total5 / total_n:.1f} "
                                  f"R@10 {total10 / total_n:.1f} n {total_n}", flush=True)
            finally:
                for user_id, *_ in [*memory, *[(u,) for _, u, _ in conversations]]:
                    await writer.erase_user(user_id)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memory", nargs="*", default=[])
    parser.add_argument("--locomo")
    parser.add_argument("--only", nargs="*", default=["conv-26", "conv-30", "conv-41", "conv-42"])
    parser.add_argument("--variants", nargs="*", default=["main"])
    parser.add_argument("--diagnose", action="store_true")
    parser.add_argument("--entities", action="store_true")
    parser.add_argument("--kinds", action="store_true")
    asyncio.run(main(parser.parse_args()))
