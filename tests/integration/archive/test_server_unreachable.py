"""A Qdrant server that is not there: one ArchiveUnavailable naming QDRANT_URL, no traceback."""

from __future__ import annotations

import socket

import pytest

from archive.errors import ArchiveError, ArchiveUnavailable
from archive.store import ArchiveStore


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_unreachable_server_names_the_setting_and_the_fix() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    store = ArchiveStore.server(url, model_name="all-MiniLM-L6-v2", dim=384, timeout_s=1)

    with pytest.raises(ArchiveUnavailable) as caught:
        await store.search("u", [1.0] + [0.0] * 383, limit=3)

    error = caught.value
    assert isinstance(error, ArchiveError)
    assert url in str(error)
    assert error.next_step is not None and "QDRANT_URL" in error.next_step
    await store.close()
