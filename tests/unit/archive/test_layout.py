"""Collection names and point ids: keyed by model and dimension, stable, user-scoped."""

from __future__ import annotations

import uuid

from archive.layout import Layout, base_collection, model_slug, point_id, user_namespace


def test_collection_is_keyed_by_model_and_dimension() -> None:
    assert base_collection("all-MiniLM-L6-v2", 384) == "wave__all-minilm-l6-v2__384"
    assert base_collection("all-MiniLM-L6-v2", 768) != base_collection("all-MiniLM-L6-v2", 384)
    assert base_collection("intfloat/multilingual-e5-small", 384) == (
        "wave__intfloat-multilingual-e5-small__384"
    )


def test_long_or_path_like_model_names_make_short_distinct_slugs() -> None:
    a = model_slug("/opt/models/some-very-long-organisation-name/some-very-long-model-name-v1")
    b = model_slug("/opt/models/some-very-long-organisation-name/some-very-long-model-name-v2")
    assert a != b
    assert len(a) <= 40 and len(b) <= 40
    assert all(ch.isalnum() or ch == "-" for ch in a)


def test_local_layout_gives_each_user_a_collection_without_a_user_filter() -> None:
    layout = Layout("all-MiniLM-L6-v2", 384, per_user=True)
    one, two = layout.collection("alice"), layout.collection("bob")
    assert one.startswith("wave__all-minilm-l6-v2__384__u_") and one != two
    assert one.endswith(user_namespace("alice"))
    assert layout.scope("alice") is None
    scoped = layout.scope("alice", ["active"])
    assert scoped is not None and len(scoped.must or []) == 1


def test_server_layout_shares_a_collection_and_filters_by_user() -> None:
    layout = Layout("all-MiniLM-L6-v2", 384, per_user=False)
    assert layout.collection("alice") == layout.collection("bob") == "wave__all-minilm-l6-v2__384"
    scoped = layout.scope("alice", ["active", "superseded"])
    assert scoped is not None
    keys = [getattr(c, "key", None) for c in scoped.must or []]
    assert keys == ["user_id", "status"]


def test_point_ids_are_deterministic_uuids_per_user_and_fact() -> None:
    first = point_id("alice", "f-abc")
    assert first == point_id("alice", "f-abc")
    assert first != point_id("bob", "f-abc")
    assert first != point_id("alice", "f-abd")
    assert uuid.UUID(first).version == 5
