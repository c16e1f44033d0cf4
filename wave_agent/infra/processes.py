"""Whether a process Wave started (the embedded Neo4j, a Qdrant server) is still running."""

from __future__ import annotations

import contextlib
import os


def alive(pid: int) -> bool:
    """True while ``pid`` runs. A child of this process that has exited is reaped here, so it
    does not look alive as a zombie; another user's process counts as running."""
    with contextlib.suppress(ChildProcessError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
