"""Settings, read once at the edge (the CLI or the bot entry point) and passed down.

Everything comes from the environment or a ``.env`` file; ``.env.example`` documents each
variable. Nothing in Wave reads ``os.environ`` for configuration anywhere else.

Memory lives in the person's data directory (``$XDG_DATA_HOME/wave``, that is
``~/.local/share/wave``) unless ``DATA_DIR`` says otherwise, so a command started from any
working directory (an MCP client launching ``wave mcp`` from its own) opens the same memory.
The settings file is read from there as well as from the working directory (which wins).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlparse

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from wave_agent.errors import ConfigError

DEFAULT_EMBEDDING_MODEL = "multilingual-e5-small"
SETTINGS_FILE = ".env"


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/wave`` (an absolute XDG_DATA_HOME only, as the XDG spec says), else
    ``~/.local/share/wave``: the same place whatever the working directory."""
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "wave"


def settings_files() -> tuple[Path, ...]:
    """Where settings files are read from, weakest first: the data directory's ``.env``, the
    one in ``DATA_DIR`` when that is set elsewhere, and ``./.env`` (the checkout's)."""
    files = [default_data_dir() / SETTINGS_FILE]
    given = os.environ.get("DATA_DIR", "").strip()
    if given:
        files.append(Path(given).expanduser() / SETTINGS_FILE)
    files.append(Path(SETTINGS_FILE))
    return tuple(dict.fromkeys(files))


class Settings(BaseSettings):
    """Wave's configuration. Empty optional URLs mean "use the embedded default"."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
    )

    data_dir: Path = Field(default_factory=default_data_dir,
                           description="Where every local store lives (absolute once read).")
    default_user: str = Field(default="local", min_length=1, max_length=64)
    timezone: str = Field(default="UTC", description="IANA zone for the daily episode log.")

    # Neo4j: unset URI means the embedded JVM launcher on 127.0.0.1:neo4j_port.
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str = "wave-local"
    neo4j_database: str = "neo4j"
    neo4j_port: int = Field(default=7687, ge=1024, le=65535)
    neo4j_heap_mb: int = Field(default=512, ge=128, le=16384)
    neo4j_pagecache_mb: int = Field(default=64, ge=8, le=16384)
    # The embedded Neo4j checks NEO4J_USER / NEO4J_PASSWORD (as a production server does).
    neo4j_auth: bool = False

    # Qdrant: unset URL means local mode under data_dir/qdrant.
    qdrant_url: str | None = None
    qdrant_api_key: str | None = None
    qdrant_path: Path | None = None
    # Set: the server client talks gRPC on this port of QDRANT_URL's host (6334 by default on a
    # Qdrant server); bulk writes ~1.5x faster than REST (docs/benchmarks.md, "Scale").
    qdrant_grpc_port: int | None = Field(default=None, ge=1, le=65535)

    # Recall's order before MMR: "fusion" (the hand-set weighted rank fusion) or "learned"
    # (the shipped trees over every voice; not the default yet: docs/benchmarks.md).
    recall_ranker: Literal["learned", "fusion"] = "learned"
    # A question about now puts a record below a newer one among the ten best that says the
    # same thing again when their e5 vectors are at least this close (recall.newer); 0: off.
    recall_newer_first: float = Field(default=0.90, ge=0.0, le=1.0)
    # The question's e5 vector moved by the learned map in recall/adapter.npz (recall.adapter):
    # "auto" (as "all" when the records plain e5 finds nearest read as notes of the kind the
    # map was trained on, recall/kind.npz; as "off" over chat transcripts), "all" (the
    # semantic voice and the ranker's cosines), "search" (the voice only), "off".
    recall_query_adapter: Literal["auto", "all", "search", "off"] = "auto"
    # MMR's λ over the learned order (RecallConfig.learned_mmr_lambda); 0: the preset's 0.75.
    # 0.95 since 2026-12-06: it keeps a changed value within the first five beside the old one
    # on four batches of memory authors and loses nothing on LoCoMo's kept-aside pair or
    # LongMemEval's held questions (docs/benchmarks.md, "MMR's λ 0.95 made the default").
    recall_learned_mmr_lambda: float = Field(default=0.95, ge=0.0, le=1.0)

    # Letta: unset means markdown block files under data_dir/blocks.
    letta_base_url: str | None = None
    letta_api_key: str | None = None
    block_limit: int = Field(default=3000, ge=200, le=100_000)

    # LLM: unset base URL means offline mode (heuristic extraction, clearly labelled replies).
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)

    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_device: str = "cpu"

    telegram_bot_token: str | None = None
    telegram_allowed_users: Annotated[list[int], NoDecode] = Field(default_factory=list)
    telegram_api_base: str | None = None
    telegram_mode: Literal["polling", "webhook"] = "polling"
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = Field(default="127.0.0.1:8080", pattern=r"^[^:\s]+:\d{2,5}$")
    telegram_webhook_secret: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,256}$")
    telegram_parse_mode: Literal["html", "plain"] = "html"
    telegram_rate_per_minute: int = Field(default=20, ge=1, le=1000)
    telegram_max_message_chars: int = Field(default=4096, ge=100, le=100_000)

    # the memory page (`wave web`, or beside the bot with WEB_ENABLED)
    web_enabled: bool = False
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=8766, ge=1, le=65535)
    web_secret: str | None = Field(default=None, min_length=16)
    web_public_url: str | None = None

    prompt_budget_chars: int = Field(default=18_000, ge=2_000, le=1_000_000)
    session_idle_minutes: int = Field(default=30, ge=1, le=24 * 60)
    store_timeout_s: float = Field(default=2.0, gt=0, le=60)
    # A turn's read still running after ``store_timeout_s`` while its store answers a health
    # check is slow, not missing: it gets this much longer before the turn goes on without it,
    # and the person is never told the store is down (docs/architecture.md, "The turn").
    store_slow_s: float = Field(default=6.0, ge=0, le=120)
    # Commitments: the hour a reminder goes out when a promise names a day but no time, and how
    # often the bot asks "is anything due?" (docs/architecture.md, "Commitments and reminders").
    reminder_hour: int = Field(default=10, ge=0, le=23)
    reminder_interval_s: float = Field(default=30.0, gt=0, le=3600)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("telegram_allowed_users", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p.strip() for p in value.split(",") if p.strip()]
            try:
                return [int(p) for p in parts]
            except ValueError as exc:
                raise ValueError(
                    "must be comma-separated numeric Telegram user ids, e.g. 12345,67890"
                ) from exc
        if isinstance(value, int):
            return [value]
        return value

    @field_validator(
        "neo4j_uri", "qdrant_url", "letta_base_url", "llm_base_url", "telegram_api_base",
        "telegram_webhook_url", "qdrant_api_key", "letta_api_key", "llm_api_key",
        "telegram_bot_token", "qdrant_path", "telegram_webhook_secret", "web_secret",
        "web_public_url", "qdrant_grpc_port", mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("data_dir", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object) -> object:
        if value is None or (isinstance(value, str) and not value.strip()):
            return default_data_dir()
        return value

    @field_validator("data_dir")
    @classmethod
    def _absolute_data_dir(cls, value: Path) -> Path:
        """``~`` expanded and a relative path made absolute now, so every part of the process
        (and a child it starts from another directory) means the same place."""
        return value.expanduser().absolute()

    @field_validator("neo4j_uri")
    @classmethod
    def _check_neo4j_uri(cls, value: str | None) -> str | None:
        if value is None:
            return value
        scheme = urlparse(value).scheme
        allowed = {"bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc"}
        if scheme not in allowed:
            raise ValueError(
                "must start with bolt:// or neo4j:// (e.g. bolt://127.0.0.1:7687); "
                "leave it unset to use the embedded Neo4j"
            )
        return value

    @field_validator("qdrant_url", "letta_base_url", "llm_base_url", "telegram_api_base")
    @classmethod
    def _check_http_url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        parsed = urlparse(value)
        if parsed.scheme not in {"http", "https"} or not parsed.netloc:
            raise ValueError("must be an http:// or https:// URL, e.g. http://127.0.0.1:6333")
        return value.rstrip("/")

    @field_validator("timezone")
    @classmethod
    def _check_tz(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError("must be an IANA time zone name such as Europe/Moscow or UTC") from exc
        return value

    # Derived paths -------------------------------------------------------------------------

    @property
    def neo4j_home(self) -> Path:
        return self.data_dir / "neo4j"

    @property
    def qdrant_local_path(self) -> Path:
        return self.qdrant_path or self.data_dir / "qdrant"

    @property
    def blocks_dir(self) -> Path:
        return self.data_dir / "blocks"

    @property
    def episodes_dir(self) -> Path:
        return self.data_dir / "episodes"

    @property
    def snapshots_dir(self) -> Path:
        return self.data_dir / "snapshots"

    @property
    def outbox_path(self) -> Path:
        return self.data_dir / "outbox.sqlite3"

    @property
    def sessions_path(self) -> Path:
        """The session log: every exchange of every session (SQLite)."""
        return self.data_dir / "sessions.sqlite3"

    @property
    def letta_pending_path(self) -> Path:
        """Core-block updates written while Letta did not answer (SQLite)."""
        return self.data_dir / "letta_pending.sqlite3"

    @property
    def effective_neo4j_uri(self) -> str:
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.neo4j_port}"

    @property
    def offline_llm(self) -> bool:
        return self.llm_base_url is None


ENV_NAMES = {name: name.upper() for name in Settings.model_fields}


def load_settings(**overrides: object) -> Settings:
    """Read settings once; a bad value becomes a ConfigError naming the variable and the fix."""
    try:
        files = overrides.pop("_env_file", settings_files())
        return Settings(_env_file=files, **overrides)  # type: ignore[arg-type,call-arg]
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "settings"
        variable = ENV_NAMES.get(field, field.upper())
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(
            variable,
            f"bad value ({message})",
            f"fix {variable} in your environment or .env (see .env.example)",
        ) from exc
