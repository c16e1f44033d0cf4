"""Settings reject bad values with a message naming the variable and the fix."""

from __future__ import annotations

import pytest

from wave_agent.errors import ConfigError
from wave_agent.settings import load_settings


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("NEO4J_PORT", "not-a-port"),
        ("NEO4J_PORT", "80"),
        ("NEO4J_URI", "http://localhost:7474"),
        ("QDRANT_URL", "qdrant:6333"),
        ("QDRANT_GRPC_PORT", "grpc"),
        ("QDRANT_GRPC_PORT", "70000"),
        ("TELEGRAM_ALLOWED_USERS", "12345,alice"),
        ("TIMEZONE", "Mars/Olympus"),
        ("PROMPT_BUDGET_CHARS", "-1"),
        ("LOG_LEVEL", "LOUD"),
        ("RECALL_LEARNED_MMR_LAMBDA", "1.5"),
    ],
)
def test_bad_value_names_the_variable_and_the_fix(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as caught:
        load_settings(_env_file=None)
    message = str(caught.value)
    assert message.startswith(f"{variable}: bad value")
    assert ".env.example" in message
    assert "\n" not in message


def test_empty_values_mean_embedded_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NEO4J_URI", "QDRANT_URL", "QDRANT_PATH", "QDRANT_GRPC_PORT", "LETTA_BASE_URL",
                 "LLM_BASE_URL"):
        monkeypatch.setenv(name, "")
    monkeypatch.setenv("DATA_DIR", "/tmp/wave-x")
    settings = load_settings(_env_file=None)
    assert settings.neo4j_uri is None
    assert settings.effective_neo4j_uri == "bolt://127.0.0.1:7687"
    assert str(settings.qdrant_local_path) == "/tmp/wave-x/qdrant"
    assert settings.qdrant_grpc_port is None
    assert settings.offline_llm


def test_allowed_users_are_parsed_from_a_comma_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_ALLOWED_USERS", " 111, 222 ,333")
    assert load_settings(_env_file=None).telegram_allowed_users == [111, 222, 333]


def test_env_example_documents_every_setting() -> None:
    from pathlib import Path

    from wave_agent.settings import Settings

    text = (Path(__file__).resolve().parents[3] / ".env.example").read_text()
    documented = {line.split("=", 1)[0] for line in text.splitlines() if "=" in line and not line.startswith("#")}
    missing = {name.upper() for name in Settings.model_fields} - documented
    assert not missing, f".env.example lacks {sorted(missing)}"


def test_mmr_lambda_over_the_learned_order_is_095_unless_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATA_DIR", "/tmp/wave-x")
    assert load_settings().recall_learned_mmr_lambda == 0.95  # the default since 2026-12-06
    monkeypatch.setenv("RECALL_LEARNED_MMR_LAMBDA", "0")
    chosen = load_settings()
    assert chosen.recall_learned_mmr_lambda == 0.0  # 0: the preset's 0.75 (services pass None)
