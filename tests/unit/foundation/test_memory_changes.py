"""Change events: a listener hears every change; a broken listener never fails the change."""

from __future__ import annotations

import logging

import pytest

from wave_agent.write.events import ChangeKind, MemoryChange, MemoryChanges


def test_every_listener_hears_the_change_even_after_one_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    changes = MemoryChanges()
    heard: list[MemoryChange] = []

    def broken(change: MemoryChange) -> None:
        raise RuntimeError("a listener's own bug")

    changes.subscribe(broken)
    changes.subscribe(heard.append)
    with caplog.at_level(logging.ERROR, logger="wave.events"):
        changes.announce("tg-1", ChangeKind.FORGOTTEN, ["f-1", None])  # no exception here

    assert heard == [MemoryChange("tg-1", ChangeKind.FORGOTTEN, ("f-1",))]
    assert "subscriber failed on forgotten for tg-1" in caplog.text


def test_an_unsubscribed_listener_hears_nothing_more() -> None:
    changes = MemoryChanges()
    heard: list[MemoryChange] = []
    unsubscribe = changes.subscribe(heard.append)
    changes.announce("tg-1", ChangeKind.REMEMBERED)
    unsubscribe()
    changes.announce("tg-1", ChangeKind.REMEMBERED)
    assert [c.kind for c in heard] == [ChangeKind.REMEMBERED]
