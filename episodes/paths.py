"""Directory names built from user ids that cannot escape the data directory.

Shared by every file-backed layer (episodes, snapshots, core blocks) so one user has the same
directory name everywhere. An id made only of ``[A-Za-z0-9_-]`` (at most 64 characters) is
used as it is; anything else becomes its cleaned prefix plus a hash of the whole id, joined by
a dot (a character plain ids never contain, so the two forms cannot collide).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

_PLAIN = re.compile(r"[A-Za-z0-9_-]{1,64}")
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class UnsafePath(ValueError):
    """A path built from a user id resolved outside its base directory (a bug, never data)."""


def safe_user_dir(user_id: str) -> str:
    """A file-system-safe, collision-free directory name for ``user_id``."""
    if _PLAIN.fullmatch(user_id):
        return user_id
    cleaned = _UNSAFE.sub("_", user_id).strip("_")[:32] or "user"
    digest = hashlib.sha256(user_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{cleaned}.{digest}"


def user_path(base: Path, user_id: str) -> Path:
    """``base/<safe user dir>``, checked to stay inside ``base``."""
    root = base.resolve()
    path = (root / safe_user_dir(user_id)).resolve()
    if path.parent != root:
        raise UnsafePath(f"user directory for {user_id!r} escapes {root}")
    return path
