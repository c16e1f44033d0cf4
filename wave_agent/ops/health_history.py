"""The health counters over time, one small sample per person per hour at most.

Each time the health report is computed for a person (``wave health``, the bot's /health, the
memory page, scheduled maintenance), its counters are appended to
``DATA_DIR/health/<hash of the person>.jsonl``: records by tier, contradictions, index drift
and the queues (proposals, quarantine, outbox). The memory page draws them. The file name is a
hash and the lines carry no id and no text, so nothing of the person's words is kept here;
``wave forget-me`` removes the file.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from common.files import atomic_write

if TYPE_CHECKING:
    from wave_agent.ops.health import UserHealth

log = logging.getLogger("wave.health")

EVERY = timedelta(hours=1)
KEEP = 5_000  # lines a person's file holds at most (about seven months of hourly samples)


def path_for(data_dir: Path, user_id: str) -> Path:
    digest = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:32]
    return data_dir / "health" / f"{digest}.jsonl"


def read(data_dir: Path, user_id: str) -> list[dict[str, Any]]:
    try:
        raw = path_for(data_dir, user_id).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    samples = []
    for line in raw.splitlines():
        try:
            samples.append(json.loads(line))
        except ValueError:
            continue  # a torn last line after a crash costs that sample only
    return samples


def record(data_dir: Path, health: UserHealth, outbox: int | None, now: datetime) -> bool:
    """Append a sample unless the last one is under an hour old; never raises."""
    try:
        path = path_for(data_dir, health.user_id)
        samples = read(data_dir, health.user_id)
        if samples and now - datetime.fromisoformat(samples[-1]["at"]) < EVERY:
            return False
        drift = health.index_drift.get("total") if isinstance(health.index_drift, dict) else None
        sample = {
            "at": now.isoformat(), "by_tier": dict(health.by_tier),
            "contradictions": len(health.contradictions), "drift": drift,
            "proposals": health.proposals_pending, "quarantine": health.quarantine,
            "outbox": outbox,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [json.dumps(s, ensure_ascii=False) for s in samples[-(KEEP - 1):]]
        lines.append(json.dumps(sample, ensure_ascii=False))
        if len(samples) >= KEEP:
            atomic_write(path, "\n".join(lines) + "\n")
        else:
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(lines[-1] + "\n")
        return True
    except Exception as exc:  # history is a convenience: the report itself must not fail
        log.warning("health history not recorded: %s", exc)
        return False


def erase(data_dir: Path, user_id: str) -> int:
    path = path_for(data_dir, user_id)
    try:
        path.unlink()
    except FileNotFoundError:
        return 0
    return 1
