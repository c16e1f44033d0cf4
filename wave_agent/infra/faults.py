"""Named points where a test can kill this process for real (``WAVE_FAULT=<point>``).

The crash tests run Wave in a child process with ``WAVE_FAULT`` naming one point; reaching it,
the process sends itself SIGKILL: no ``finally``, no rollback, no flush, as when the machine
loses power or the OOM killer strikes. What the stores hold afterwards is what a real crash
there leaves. Unset (always, outside those tests), a checkpoint is one dictionary lookup.
"""

from __future__ import annotations

import os
import signal

ENV = "WAVE_FAULT"


def checkpoint(name: str) -> None:
    """Die here, now, if ``WAVE_FAULT`` names this point."""
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
