"""Bearer tokens for Wave's MCP server over HTTP: ``sha256(token) -> person`` in one JSON file.

Owned here, below the surfaces, because ``wave mcp`` issues tokens and erasure (``wave
forget-me``) revokes them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from pathlib import Path

from common.files import atomic_write, locked
from wave_agent.errors import WaveError


class TokenStore:
    """Bearer tokens for HTTP mode: ``sha256(token) -> person``, in one JSON file.

    Only hashes are stored; a token is printed once, when it is made. Writes replace the file
    atomically, so a reader never sees half a file, and read-change-write runs under a lock
    file, so ``wave mcp --new-token`` and ``wave forget-me`` at once lose neither change.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise WaveError(
                f"The MCP token file {self.path} cannot be read ({exc})",
                next_step="delete it and make a new token with `wave mcp --new-token`",
            ) from exc
        tokens = data.get("tokens", {}) if isinstance(data, dict) else {}
        return {str(k): str(v) for k, v in tokens.items()}

    def issue(self, user_id: str) -> str:
        token = "wave-mcp-" + secrets.token_urlsafe(24)
        with locked(self._lock_path):
            tokens = self._load()
            tokens[_digest(token)] = user_id
            self._save(tokens)
        return token

    @property
    def _lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def _save(self, tokens: dict[str, str]) -> None:
        atomic_write(self.path, json.dumps({"tokens": tokens}, indent=1), mode=0o600)

    def revoke(self, user_id: str) -> int:
        """Remove every token of a person (``wave forget-me``); how many went."""
        if not self.path.exists():
            return 0
        with locked(self._lock_path):
            tokens = self._load()
            kept = {digest: who for digest, who in tokens.items() if who != user_id}
            if len(kept) == len(tokens):
                return 0
            self._save(kept)
        return len(tokens) - len(kept)

    def person(self, token: str) -> str | None:
        """The person a token acts for, or None (compared in constant time)."""
        wanted = _digest(token)
        found = None
        for digest, user_id in self._load().items():
            if hmac.compare_digest(digest, wanted):
                found = user_id
        return found

    def __bool__(self) -> bool:
        return bool(self._load())


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
