"""`wave bench memory`: a tiny Russian set through the import path, real stores and model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archive.embedder import Embedder
from wave_agent.bench.memory import load_set, run_memory_benchmark
from wave_agent.errors import WaveError
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j

FACTS = [
    {"id": "f1", "date": "2026-01-10", "text": "У Игорька есть пёс, корги по кличке Бублик."},
    {"id": "f2", "date": "2026-01-11", "text": "Аренда квартиры обходится нам в 45 тысяч рублей в месяц."},
    {"id": "f3", "date": "2026-02-01", "text": "Врач сказал, что пенициллин мне нельзя."},
    {"id": "f4", "date": "2026-04-01", "text": "С апреля аренда квартиры выросла до 52 тысяч в месяц."},
]
QUESTIONS = [
    {"id": "q1", "text": "какой породы собака у Игоря?", "answers": ["f1"], "kind": "paraphrase"},
    {"id": "q2", "text": "на что у меня аллергия?", "answers": ["f3"], "kind": "paraphrase",
     "split": "held"},
    {"id": "q3", "text": "сколько мы платим за квартиру?", "answers": ["f4"], "kind": "current"},
]


def write_set(directory: Path) -> Path:
    directory.mkdir()
    (directory / "set.json").write_text(json.dumps({"language": "russian"}), encoding="utf-8")
    (directory / "facts.jsonl").write_text(
        "\n".join(json.dumps(f, ensure_ascii=False) for f in FACTS), encoding="utf-8")
    (directory / "questions.jsonl").write_text(
        "\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS), encoding="utf-8")
    return directory


async def test_one_run_scores_wave_bm25_and_dense_per_split_and_kind(
    settings: Settings, tmp_path: Path, embedder: Embedder
) -> None:
    directory = write_set(tmp_path / "set")
    async with Services(settings) as services:
        services._cache["embedder"] = embedder
        summary = await run_memory_benchmark(directory, services=services)
        graph = await services.graph()
        assert await graph.list_facts(summary["user"]) == []  # erased after the run
    assert set(summary["all"]) == {"wave", "bm25", "dense"}
    assert summary["questions"] == 3 and summary["facts"] == 4
    # the timed questions come after untimed warm-up searches (one per fact here: 4 facts)
    assert summary["warmup_ms"]["count"] == 4
    # each recall step's time, for the three questions (the semantic voice and the total)
    assert {"semantic", "total"} <= set(summary["wave_steps_ms"])
    assert summary["wave_steps_ms"]["total"]["p50"] > 0
    assert set(summary["by_split"]) == {"tune", "held"}
    assert set(summary["by_kind"]) == {"paraphrase", "current"}
    # four records: every system has every answer in its first 10
    assert summary["all"]["wave"]["R@10"] == 100.0
    assert summary["all"]["dense"]["R@10"] == 100.0
    # the paraphrases with no shared stem ("собака" / "пёс", "аллергия" / "нельзя") are in
    # Wave's first five (plain BM25 finds neither). Rank 1 for the dog held before the type
    # guesser read "У Игорька есть пёс" as a relationship; that is still open.
    assert summary["by_kind"]["paraphrase"]["wave"]["R@5"] == 100.0
    assert summary["by_kind"]["paraphrase"]["bm25"]["R@5"] == 0.0


def test_a_question_naming_an_unknown_fact_is_one_clear_error(tmp_path: Path) -> None:
    directory = write_set(tmp_path / "set")
    with (directory / "questions.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("\n" + json.dumps({"id": "q9", "text": "?", "answers": ["f99"]}))
    with pytest.raises(WaveError) as caught:
        load_set(directory)
    assert "f99" in str(caught.value) and caught.value.next_step


async def test_another_map_mode_is_asked_over_the_same_records_and_paired(
    settings: Settings, tmp_path: Path, embedder: Embedder
) -> None:
    directory = write_set(tmp_path / "set")
    async with Services(settings) as services:
        services._cache["embedder"] = embedder
        summary = await run_memory_benchmark(directory, services=services,
                                             also_adapter=("all", "off"))
    assert {"wave", "wave-all", "wave-off"} <= set(summary["all"])
    # notes: the default (auto) moves every question, as "all" does, rank for rank
    assert summary["query_map_questions"] == 3
    assert [r["wave"] for r in summary["ranks"]] == [r["wave-all"] for r in summary["ranks"]]
    assert all("wave-off" in r for r in summary["ranks"])
