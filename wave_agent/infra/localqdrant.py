"""A Qdrant server process on loopback, for the test suite and ``wave bench scale``.

No package registry ships a Qdrant server, so Wave cannot install one; a binary may sit beside
the repository (``../shared/bin/qdrant``), be named by ``WAVE_QDRANT_BIN``, or be on ``PATH``.
``start`` runs it on a free 127.0.0.1 port with its own storage, snapshots and working
directory under ``root`` (Qdrant writes ``.qdrant-initialized`` and ``snapshots/`` into its
working directory), waits for ``/readyz`` and returns the URL (and the gRPC port, also written
to ``root/qdrant.grpc_port``); ``stop`` ends it by its pid.

Production installs point ``QDRANT_URL`` at a server they run themselves (docker compose, a
cluster, Qdrant Cloud); Wave never starts one for them.

Command line (used by ``scripts/test.d/qdrant.up``/``.down``)::

    python -m wave_agent.infra.localqdrant up --dir DIR [--binary PATH] [--wait 120]   # prints the URL
    python -m wave_agent.infra.localqdrant down --dir DIR
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from wave_agent.errors import ServiceUnavailable
from wave_agent.infra.processes import alive as process_alive

BINARY_ENV = "WAVE_QDRANT_BIN"
REPO_ROOT = Path(__file__).resolve().parents[2]
BESIDE_REPO = REPO_ROOT.parent / "shared" / "bin" / "qdrant"
PID_FILE = "qdrant.pid"
URL_FILE = "qdrant.url"
GRPC_PORT_FILE = "qdrant.grpc_port"
LOG_FILE = "qdrant.log"


@dataclass(frozen=True)
class QdrantServer:
    url: str
    pid: int
    root: Path
    grpc_port: int | None = None

    @property
    def log_file(self) -> Path:
        return self.root / LOG_FILE

    def stop(self, wait_s: float = 30.0) -> bool:
        return stop(self.root, wait_s=wait_s)


def find_binary(explicit: str | Path | None = None) -> Path | None:
    """The Qdrant server binary: ``explicit``, ``$WAVE_QDRANT_BIN``, beside the repo, on PATH."""
    candidates: list[Path] = []
    if explicit:
        candidates.append(Path(explicit))
    if os.environ.get(BINARY_ENV):
        candidates.append(Path(os.environ[BINARY_ENV]))
    candidates.append(Path.cwd().parent / "shared" / "bin" / "qdrant")
    candidates.append(BESIDE_REPO)
    on_path = shutil.which("qdrant")
    if on_path:
        candidates.append(Path(on_path))
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path.resolve()
    return None


def missing_binary_reason() -> str:
    return (f"no Qdrant server binary (looked at ${BINARY_ENV}, {BESIDE_REPO} and PATH); "
            "the server variants skip")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/readyz", timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _tail(path: Path, lines: int = 5) -> str:
    try:
        return " | ".join(path.read_text(errors="replace").strip().splitlines()[-lines:])
    except OSError:
        return "(no log)"


def start(root: Path, *, binary: Path, wait_s: float = 120.0) -> QdrantServer:
    """Start ``binary`` on free loopback ports with storage under ``root``; wait for /readyz."""
    root = root.resolve()
    root.mkdir(parents=True, exist_ok=True)
    http_port, grpc_port = free_port(), free_port()
    while grpc_port == http_port:
        grpc_port = free_port()
    env = {
        **os.environ,
        "QDRANT__SERVICE__HOST": "127.0.0.1",
        "QDRANT__SERVICE__HTTP_PORT": str(http_port),
        "QDRANT__SERVICE__GRPC_PORT": str(grpc_port),
        "QDRANT__STORAGE__STORAGE_PATH": str(root / "storage"),
        "QDRANT__STORAGE__SNAPSHOTS_PATH": str(root / "snapshots"),
        "QDRANT__STORAGE__TEMP_PATH": str(root / "tmp"),
        "QDRANT__TELEMETRY_DISABLED": "true",
        "QDRANT__LOG_LEVEL": "WARN",
    }
    with (root / LOG_FILE).open("ab") as out:
        process = subprocess.Popen(
            [str(binary)], cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
    url = f"http://127.0.0.1:{http_port}"
    (root / PID_FILE).write_text(str(process.pid))
    (root / URL_FILE).write_text(url)
    (root / GRPC_PORT_FILE).write_text(str(grpc_port))
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServiceUnavailable(
                "Qdrant server", f"{binary} exited with status {process.returncode} during "
                f"start-up: {_tail(root / LOG_FILE)}", f"read {root / LOG_FILE}")
        if _ready(url):
            return QdrantServer(url=url, pid=process.pid, root=root, grpc_port=grpc_port)
        time.sleep(0.2)
    stop(root)
    raise ServiceUnavailable(
        "Qdrant server", f"{url}/readyz did not answer within {wait_s:.0f}s",
        f"read {root / LOG_FILE}; the machine may be too busy (raise --wait)")


def stop(root: Path, wait_s: float = 30.0) -> bool:
    """SIGTERM the server started under ``root`` (SIGKILL after ``wait_s``); True if it ran."""
    pid_file = root / PID_FILE
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return False
    pid_file.unlink(missing_ok=True)
    if not process_alive(pid):
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline and process_alive(pid):
        time.sleep(0.1)
    if process_alive(pid):
        os.kill(pid, signal.SIGKILL)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m wave_agent.infra.localqdrant")
    parser.add_argument("action", choices=("up", "down"))
    parser.add_argument("--dir", type=Path, required=True, help="storage, pid and log live here")
    parser.add_argument("--binary", default=None, help=f"the qdrant binary (else ${BINARY_ENV})")
    parser.add_argument("--wait", type=float, default=120.0)
    args = parser.parse_args(argv)
    if args.action == "down":
        stop(args.dir)
        return 0
    binary = find_binary(args.binary)
    if binary is None:
        sys.stderr.write(missing_binary_reason() + "\n")
        return 3
    try:
        server = start(args.dir, binary=binary, wait_s=args.wait)
    except ServiceUnavailable as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    sys.stdout.write(server.url + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
