"""`wave bench memory --voice-timeout`: on a loaded machine the bench's 5 s drops voices and the
run's ranks are not the product's (docs/benchmarks.md, round twenty-three), so the timeout can
be raised the way `wave bench locomo` allows."""

from __future__ import annotations

from typer.testing import CliRunner

from wave_agent.cli import _register, app


def test_the_memory_bench_offers_a_voice_timeout() -> None:
    _register()
    result = CliRunner().invoke(app, ["bench", "memory", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "--voice-timeout" in result.output


def test_a_timeout_of_nothing_is_refused_before_any_service_starts() -> None:
    _register()
    result = CliRunner().invoke(app, ["bench", "memory", "--voice-timeout", "0"],
                                terminal_width=200)
    assert result.exit_code != 0
    assert "Invalid value for '--voice-timeout'" in result.output
