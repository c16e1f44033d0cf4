"""Who may open the memory page, and as whom: signed login links, a session cookie, CSRF.

One secret signs everything: ``WEB_SECRET`` when set, else a random one kept in
``DATA_DIR/web/secret`` (mode 600), so ``wave web``, ``wave run`` and the bot's ``/web`` links
agree on one machine. A login link carries the person, an expiry and a nonce; the bot's links
are one-time (the page remembers the nonces it has spent until they expire). The session cookie
carries the person, an expiry and the CSRF nonce; every POST must send the CSRF token derived
from it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from wave_agent.settings import Settings

SESSION_COOKIE = "wave_session"
SESSION_TTL_S = 12 * 3600
LINK_TTL_S = 10 * 60  # the bot's one-time links
PRINTED_TTL_S = 24 * 3600  # the link `wave web` prints


def load_secret(settings: Settings) -> bytes:
    if settings.web_secret:
        return settings.web_secret.encode("utf-8")
    path = settings.data_dir / "web" / "secret"
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_hex(32).encode()
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(value)
    os.chmod(tmp, 0o600)
    try:
        os.link(tmp, path)  # the first process to write it wins; the others read its value
    except FileExistsError:
        value = path.read_bytes().strip()
    finally:
        tmp.unlink(missing_ok=True)
    return value


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, purpose: str, payload: dict[str, object]) -> str:
    body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    mac = hmac.new(secret, f"{purpose}.{body}".encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(mac)}"


def unsign(secret: bytes, purpose: str, token: str, *, now: float | None = None) -> dict[str, object] | None:
    """The payload of a token signed for ``purpose`` and not expired, else None."""
    body, _, mac = (token or "").partition(".")
    if not body or not mac:
        return None
    wanted = hmac.new(secret, f"{purpose}.{body}".encode(), hashlib.sha256).digest()
    try:
        if not hmac.compare_digest(wanted, _unb64(mac)):
            return None
        payload = json.loads(_unb64(body))
    except (ValueError, TypeError):
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("u"), str):
        return None
    expires = payload.get("exp")
    if not isinstance(expires, int | float) or expires < (now if now is not None else time.time()):
        return None
    return payload


def login_link_token(secret: bytes, user_id: str, *, ttl_s: int, once: bool) -> str:
    return sign(secret, "login", {"u": user_id, "exp": int(time.time()) + ttl_s,
                                  "n": secrets.token_hex(8), "once": once})


@dataclass(frozen=True, slots=True)
class Session:
    user_id: str
    nonce: str

    def csrf(self, secret: bytes) -> str:
        return hmac.new(secret, f"csrf.{self.nonce}".encode(), hashlib.sha256).hexdigest()


def session_cookie(secret: bytes, user_id: str) -> str:
    return sign(secret, "session", {"u": user_id, "exp": int(time.time()) + SESSION_TTL_S,
                                    "n": secrets.token_hex(16)})


def read_session(secret: bytes, cookie: str | None) -> Session | None:
    payload = unsign(secret, "session", cookie or "")
    if payload is None:
        return None
    return Session(str(payload["u"]), str(payload.get("n", "")))


class SpentLinks:
    """One-time links already used (kept until they would have expired anyway)."""

    def __init__(self) -> None:
        self._spent: dict[str, float] = {}

    def spend(self, nonce: str, expires: float) -> bool:
        now = time.time()
        self._spent = {n: e for n, e in self._spent.items() if e >= now}
        if nonce in self._spent:
            return False
        self._spent[nonce] = expires
        return True


def secret_path(settings: Settings) -> Path:
    return settings.data_dir / "web" / "secret"


def login_url(base: str, secret: bytes, user_id: str, *, once: bool) -> str:
    ttl = LINK_TTL_S if once else PRINTED_TTL_S
    token = login_link_token(secret, user_id, ttl_s=ttl, once=once)
    return f"{base.rstrip('/')}/login?{urlencode({'token': token})}"


def link_maker(settings: Settings) -> Callable[[str], str | None]:
    """For the bot's /web: a one-time login link for a person, or None when no public URL."""

    def make(user_id: str) -> str | None:
        if not settings.web_public_url:
            return None
        return login_url(settings.web_public_url, load_secret(settings), user_id, once=True)

    return make
