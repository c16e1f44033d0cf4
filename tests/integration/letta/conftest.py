"""Fixtures for the Letta block store's tests: a real Letta 0.16.8 server, never a fake.

``scripts/test.sh`` (``make test``, ``.ci/run``) starts the stack through
``scripts/test.d/letta.up`` and exports ``WAVE_TEST_LETTA_URL``. By hand::

    scripts/letta_stack.sh up
    WAVE_TEST_LETTA_URL=http://127.0.0.1:18283 .venv/bin/python -m pytest tests/integration/letta

Without a server these tests are never silently skipped in CI: when ``CI`` is set they FAIL,
naming why (``WAVE_TEST_LETTA_UNAVAILABLE``, set by the hook when the stack could not start).
Outside CI they skip with the same reason and the command that brings the server up.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from letta_client import AsyncLetta

from tests.integration.letta.stack import LettaStack
from wave_agent.blocks.letta_store import LettaBlockStore

pytestmark = pytest.mark.letta

HOW_TO_START = (
    "start it with `scripts/letta_stack.sh up` and set "
    "WAVE_TEST_LETTA_URL=http://127.0.0.1:18283 (or run `make test`, which does both)"
)


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(
            f"Letta tests cannot run in CI: {reason}. They are never skipped in CI; {HOW_TO_START}",
            pytrace=False,
        )
    pytest.skip(f"no Letta server: {reason}; {HOW_TO_START}")


@pytest.fixture(scope="session")
def letta_url() -> str:
    """Base URL of the real Letta server the tests use."""
    url = os.environ.get("WAVE_TEST_LETTA_URL", "").rstrip("/")
    if not url:
        unavailable = os.environ.get("WAVE_TEST_LETTA_UNAVAILABLE")
        _missing(
            f"the Letta stack did not start ({unavailable})"
            if unavailable
            else "WAVE_TEST_LETTA_URL is not set"
        )
    try:
        with urllib.request.urlopen(f"{url}/v1/health/", timeout=10) as response:
            body = response.read().decode()
    except (urllib.error.URLError, OSError) as exc:
        _missing(f"{url} does not answer /v1/health/ ({exc})")
    assert '"version"' in body, body
    return url


@pytest.fixture
def uid() -> str:
    return f"letta-{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def raw_letta(letta_url: str) -> AsyncIterator[AsyncLetta]:
    """letta-client talking to the same server directly: to see what Wave stored there."""
    client = AsyncLetta(base_url=letta_url, max_retries=0, timeout=30)
    yield client
    await client.close()


MakeStore = Callable[..., LettaBlockStore]


@pytest.fixture
async def make_store(letta_url: str, tmp_path: Path) -> AsyncIterator[MakeStore]:
    """Build Letta stores over the test's server and pending queue; all closed after."""
    made: list[LettaBlockStore] = []

    def build(limit: int = 3000, *, url: str | None = None, **kwargs: object) -> LettaBlockStore:
        kwargs.setdefault("pending_path", tmp_path / "letta_pending.sqlite3")
        store = LettaBlockStore(url or letta_url, limit=limit, **kwargs)  # type: ignore[arg-type]
        made.append(store)
        return store

    yield build
    for store in made:
        await store.close()


@pytest.fixture
async def letta_stack(letta_url: str) -> LettaStack:
    """Control of the test server's process; only for a stack this script started here."""
    stack = LettaStack(letta_url)
    host = urllib.parse.urlsplit(letta_url).hostname
    status = await stack.run("status")
    if host != "127.0.0.1" or status.returncode != 0:
        _missing(
            f"{letta_url} was not started by scripts/letta_stack.sh with this WAVE_LETTA_RUN, "
            f"so the outage test cannot stop it ({status.stderr.strip()})"
        )
    return stack
