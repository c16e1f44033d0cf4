"""The archive contract on real Qdrant (local mode, and a server when one is configured)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from archive.embedder import Embedder
from archive.errors import ArchiveInputError
from archive.models import ArchiveRecord
from archive.store import ArchiveStore

StoreFactory = Callable[..., ArchiveStore]
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def record(fact_id: str, text: str, *, status: str = "active", **kw: object) -> ArchiveRecord:
    fields: dict[str, object] = {
        "type": "preference",
        "tier": "fact",
        "created_at": NOW - timedelta(days=3),
        "last_confirmed_at": NOW,
    }
    fields.update(kw)
    return ArchiveRecord(fact_id=fact_id, text=text, status=status, **fields)  # type: ignore[arg-type]


FACTS = [
    record("f-tea-ru", "Я каждое утро пью зелёный чай без сахара"),
    record("f-sister-en", "My sister Anna moved to Warsaw last spring"),
    record("f-meet-ru", "Встреча с Игорем перенесена на пятницу"),
    record("f-car-en", "I sold my old car and now ride a bicycle to work"),
    record("f-dog-ru", "У моей соседки есть большая чёрная собака"),
    record("f-job-en", "I work as a backend engineer at a logistics company"),
]


async def test_paraphrases_find_their_partner_first(
    store: ArchiveStore, user_id: str
) -> None:
    assert await store.upsert(user_id, FACTS) == len(FACTS)

    russian = await store.search_text(user_id, "По утрам я пью зелёный чай", limit=3)
    english = await store.search_text(user_id, "Anna, my sister, now lives in Warsaw", limit=3)

    assert russian[0].fact_id == "f-tea-ru"
    assert english[0].fact_id == "f-sister-en"
    assert english[0].score > english[1].score
    hit = english[0]
    assert hit.payload["user_id"] == user_id
    assert hit.payload["text"] == "My sister Anna moved to Warsaw last spring"
    assert hit.payload["status"] == "active"
    assert hit.payload["created_at"] == pytest.approx((NOW - timedelta(days=3)).timestamp())
    assert hit.payload["last_confirmed_at"] == pytest.approx(NOW.timestamp())


async def test_precomputed_vectors_are_stored_normalised(
    store: ArchiveStore, user_id: str, embedder: Embedder
) -> None:
    vector = (await embedder.embed(["I like jazz"]))[0] * 7.5  # not unit length
    await store.upsert(user_id, [record("f-jazz", "I like jazz", vector=vector)])

    [hit] = await store.search(user_id, vector, limit=1)

    assert hit.fact_id == "f-jazz"
    assert hit.score == pytest.approx(1.0, abs=1e-4)


async def test_another_model_sees_nothing_of_the_first(
    make_store: StoreFactory, user_id: str, embedder: Embedder
) -> None:
    first = make_store()
    await first.upsert(user_id, FACTS)
    query = (await embedder.embed(["green tea in the morning"]))[0]
    await first.close()

    # Same dimension, another model name: the vectors would be comparable numerically,
    # and must still be invisible.
    other = make_store(model_name="other-model-384", with_embedder=False)

    assert await other.search(user_id, query, limit=5, statuses=None) == []
    assert await other.fact_ids(user_id) == set()
    assert await other.count(user_id) == 0


async def test_users_do_not_see_each_other(store: ArchiveStore, user_id: str) -> None:
    other_user = f"{user_id}-other"
    await store.upsert(user_id, FACTS[:3])
    await store.upsert(other_user, FACTS[3:])

    mine = await store.search_text(user_id, "bicycle to work", limit=10, statuses=None)
    theirs = await store.search_text(other_user, "green tea", limit=10, statuses=None)

    assert {h.fact_id for h in mine} == {"f-tea-ru", "f-sister-en", "f-meet-ru"}
    assert {h.fact_id for h in theirs} == {"f-car-en", "f-dog-ru", "f-job-en"}
    assert await store.fact_ids(other_user) == {"f-car-en", "f-dog-ru", "f-job-en"}


async def test_status_filter_and_set_payload(store: ArchiveStore, user_id: str) -> None:
    await store.upsert(
        user_id,
        [
            record("f-old", "I live in Moscow", status="superseded"),
            record("f-new", "I live in Warsaw now"),
            record("f-gone", "I lived in Kazan as a child", status="archived"),
        ],
    )
    query = "Where do I live?"

    active = await store.search_text(user_id, query, limit=5)
    history = await store.search_text(
        user_id, query, limit=5, statuses=("active", "superseded", "archived")
    )
    everything = await store.search_text(user_id, query, limit=5, statuses=None)

    assert [h.fact_id for h in active] == ["f-new"]
    assert {h.fact_id for h in history} == {"f-old", "f-new", "f-gone"}
    assert {h.fact_id for h in everything} == {"f-old", "f-new", "f-gone"}
    assert await store.search_text(user_id, query, limit=5, statuses=()) == []

    assert await store.set_payload(user_id, "f-new", status="superseded", tier="archive")
    assert await store.set_payload(user_id, "f-old", status="active")
    assert not await store.set_payload(user_id, "f-missing", status="active")

    [hit] = await store.search_text(user_id, query, limit=5)
    assert hit.fact_id == "f-old"
    superseded = await store.search_text(user_id, query, limit=5, statuses=("superseded",))
    assert [(h.fact_id, h.payload["tier"]) for h in superseded] == [("f-new", "archive")]
    assert await store.count(user_id) == 3
    assert await store.count(user_id, statuses=["active"]) == 1


async def test_rare_status_is_found_beyond_the_overfetch(
    store: ArchiveStore, user_id: str, embedder: Embedder
) -> None:
    """One archived record among many closer active ones: the exact fallback must find it."""
    rng = np.random.default_rng(7)
    base = (await embedder.embed(["my favourite colour is blue"]))[0]
    records = []
    for i in range(400):
        noisy = base + rng.normal(0, 0.02, base.shape).astype(np.float32)
        records.append(record(f"f-a{i}", f"near {i}", vector=noisy))
    far = rng.normal(0, 1, base.shape).astype(np.float32)
    records.append(record("f-archived", "far away", status="archived", vector=far))
    await store.upsert(user_id, records)

    hits = await store.search(user_id, base, limit=3, statuses=("archived",))
    active = await store.search(user_id, base, limit=3)

    assert [h.fact_id for h in hits] == ["f-archived"]
    assert len(active) == 3 and all(h.payload["status"] == "active" for h in active)
    assert active[0].score >= active[1].score >= active[2].score


async def test_delete_removes_the_vector(store: ArchiveStore, user_id: str) -> None:
    await store.upsert(user_id, FACTS)

    await store.delete(user_id, ["f-tea-ru", "f-never-stored"])

    assert "f-tea-ru" not in await store.fact_ids(user_id)
    hits = await store.search_text(user_id, "По утрам я пью зелёный чай", limit=10, statuses=None)
    assert "f-tea-ru" not in {h.fact_id for h in hits}
    assert await store.count(user_id) == len(FACTS) - 1
    assert not await store.has(user_id, "f-tea-ru")


async def test_upsert_replaces_by_fact_id(store: ArchiveStore, user_id: str) -> None:
    await store.upsert(user_id, [record("f-1", "I drink coffee")])
    await store.upsert(user_id, [record("f-1", "I quit coffee and drink tea", tier="core")])

    [hit] = await store.search_text(user_id, "tea", limit=5)

    assert await store.count(user_id) == 1
    assert hit.payload["text"] == "I quit coffee and drink tea"
    assert hit.payload["tier"] == "core"


async def test_drop_user_empties_only_that_user(store: ArchiveStore, user_id: str) -> None:
    other_user = f"{user_id}-keep"
    await store.upsert(user_id, FACTS[:2])
    await store.upsert(other_user, FACTS[2:4])

    await store.drop_user(user_id)

    assert await store.fact_ids(user_id) == set()
    assert await store.fact_ids(other_user) == {"f-meet-ru", "f-car-en"}


async def test_bad_input_is_refused_before_writing(
    store: ArchiveStore, user_id: str
) -> None:
    naive = record("f-naive", "naive time", created_at=datetime(2026, 1, 1))  # noqa: DTZ001
    good = record("f-good", "good time")

    with pytest.raises(ArchiveInputError, match="naive datetime"):
        await store.upsert(user_id, [good, naive])
    with pytest.raises(ArchiveInputError, match="dimensions"):
        await store.search(user_id, [0.1, 0.2, 0.3], limit=1)
    with pytest.raises(ArchiveInputError, match="cannot change"):
        await store.set_payload(user_id, "f-good", text="new text")

    assert await store.count(user_id) == 0


async def test_missing_vectors_need_an_embedder(
    make_store: StoreFactory, user_id: str
) -> None:
    bare = make_store(with_embedder=False)

    with pytest.raises(ArchiveInputError, match="embedder"):
        await bare.upsert(user_id, [record("f-1", "no vector")])


async def test_filtered_search_is_exact_against_brute_force(
    store: ArchiveStore, user_id: str
) -> None:
    """Over-fetch and its fallback return exactly the filtered top-k a full scan would."""
    rng = np.random.default_rng(11)
    dim = store.dim
    vectors = rng.standard_normal((600, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    statuses = rng.choice(["active", "superseded", "archived"], size=600, p=[0.7, 0.25, 0.05])
    await store.upsert(
        user_id,
        [
            record(f"f-{i}", f"r{i}", status=str(statuses[i]), vector=vectors[i])
            for i in range(600)
        ],
    )
    wanted_sets = [("active",), ("superseded",), ("archived",), ("active", "superseded"), None]
    for q in rng.standard_normal((8, dim)).astype(np.float32):
        scores = vectors @ (q / np.linalg.norm(q))
        for wanted in wanted_sets:
            allowed = np.ones(600, bool) if wanted is None else np.isin(statuses, wanted)
            order = [i for i in np.argsort(-scores) if allowed[i]][:10]

            hits = await store.search(user_id, q, limit=10, statuses=wanted)

            assert [h.fact_id for h in hits] == [f"f-{i}" for i in order], wanted
            assert [h.score for h in hits] == pytest.approx([scores[i] for i in order], abs=1e-4)


async def test_vectors_returns_stored_unit_vectors(
    store: ArchiveStore, user_id: str, embedder: Embedder
) -> None:
    raw = await embedder.embed(["I like jazz", "I play chess"])
    await store.upsert(
        user_id,
        [record("f-jazz", "I like jazz", vector=raw[0] * 3), record("f-chess", "I play chess")],
    )

    found = await store.vectors(user_id, ["f-jazz", "f-chess", "f-missing", "f-jazz"])

    assert set(found) == {"f-jazz", "f-chess"}
    assert np.allclose(found["f-jazz"], raw[0], atol=1e-5)
    assert np.allclose(found["f-chess"], raw[1], atol=1e-5)
    assert await store.vectors(f"{user_id}-nobody", ["f-jazz"]) == {}
