"""``wave blocks show|history|revert`` through the real CLI app, over real files."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wave_agent.blocks.markdown_store import MarkdownBlockStore
from wave_agent.cli import _register, app
from wave_agent.cli.common import settings as cli_settings
from wave_agent.errors import ConfigError
from wave_agent.services import Services
from wave_agent.settings import Settings


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DEFAULT_USER", "anna")
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    cli_settings.cache_clear()
    _register()
    yield tmp_path / "data"
    cli_settings.cache_clear()


def wave(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_show_history_revert(data_dir: Path) -> None:
    # The CLI runs its own event loop, so these tests are plain functions.
    async def seed() -> None:
        store = MarkdownBlockStore(data_dir / "blocks")
        await store.set("anna", "human", "Anna, designer.", reason="first")
        await store.set("anna", "human", "Anna, designer in Kraków.", reason="second")

    asyncio.run(seed())

    code, out = wave("blocks", "show", "--json")
    assert code == 0, out
    shown = {b["label"]: b for b in json.loads(out)}
    assert shown["human"]["value"] == "Anna, designer in Kraków."
    assert shown["human"]["version"] == 2 and shown["human"]["limit"] == 3000
    assert shown["persona"]["version"] == 0 and "Wave" in shown["persona"]["value"]

    code, out = wave("blocks", "history", "human", "--json")
    assert code == 0 and [v["reason"] for v in json.loads(out)] == ["first", "second"]
    code, out = wave("blocks", "history", "human")
    assert code == 0 and "wave blocks revert human" in out

    code, out = wave("blocks", "revert", "human", "1", "--json")
    assert code == 0 and json.loads(out)["value"] == "Anna, designer."
    code, out = wave("blocks", "show", "human", "--user", "someone-else")
    assert code == 0 and "(empty)" in out


def test_refusals_name_the_next_step(data_dir: Path) -> None:
    result = CliRunner().invoke(app, ["blocks", "revert", "human", "4"])
    assert result.exit_code != 0
    assert "history" in str(result.exception.next_step)  # type: ignore[union-attr]
    result = CliRunner().invoke(app, ["blocks", "show", "system"])
    assert "human, persona" in str(result.exception)


async def test_services_picks_the_store_by_setting(tmp_path: Path) -> None:
    plain = Settings(_env_file=None, data_dir=tmp_path, block_limit=1234)  # type: ignore[call-arg]
    async with Services(plain) as services:
        store = await services.blocks()
        assert store is await services.blocks()
        assert store.limit == 1234
        assert (await services.episodes()).root == tmp_path / "episodes"
        assert (await services.snapshots()).root == tmp_path / "snapshots"

async def test_letta_set_but_its_store_missing_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "wave_agent.blocks.letta_store", None)  # not installed
    letta = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path, letta_base_url="http://127.0.0.1:9"
    )
    async with Services(letta) as services:
        with pytest.raises(ConfigError) as info:
            await services.blocks()
    assert "LETTA_BASE_URL" in str(info.value) and info.value.next_step
