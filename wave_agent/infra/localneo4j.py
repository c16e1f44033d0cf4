"""The embedded Neo4j: a small JVM launcher kept in this repo (``neo4j-launcher/``).

``wave services up`` builds it once with Maven (jars from Maven Central), starts it in the
background with Bolt on 127.0.0.1, data under ``DATA_DIR/neo4j``, a pid file and a log file,
and waits until Bolt answers. Used only when ``NEO4J_URI`` is unset. With ``NEO4J_AUTH=true``
the same jars check credentials like a production server: ``NEO4J_USER`` gets
``NEO4J_PASSWORD`` at every start (a test runs Wave against it through those settings).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wave_agent.errors import ServiceUnavailable
from wave_agent.infra.processes import alive as process_alive

if TYPE_CHECKING:
    from wave_agent.settings import Settings

log = logging.getLogger("wave.services.neo4j")

LAUNCHER_DIR = Path(__file__).resolve().parents[2] / "neo4j-launcher"
MAIN_CLASS = "wave.neo4j.Launcher"
JVM_OPENS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
)
WAYS_FORWARD = (
    "install Java 17+ and Maven (e.g. apt-get install openjdk-17-jdk-headless maven), "
    "or run `docker compose up -d neo4j` and set NEO4J_URI=bolt://127.0.0.1:7687, "
    "or point NEO4J_URI at any Neo4j 5 server"
)


@dataclass(frozen=True)
class Neo4jStatus:
    running: bool
    pid: int | None
    uri: str
    home: Path
    log_file: Path
    detail: str


def _paths(settings: Settings) -> tuple[Path, Path, Path]:
    home = settings.neo4j_home
    return home, home / "neo4j.pid", home / "neo4j.log"


def _bolt_answers(port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def _read_pid(pid_file: Path) -> int | None:
    try:
        return int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return None


def check_tools() -> None:
    """Raise with the three ways forward when java or mvn is missing."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        raise ServiceUnavailable(
            "embedded Neo4j",
            f"{' and '.join(missing)} not found on PATH",
            WAYS_FORWARD,
        )


# A build that knows authentication names this variable; an older build is rebuilt.
AUTH_MARKER = b"WAVE_NEO4J_AUTH_PASSWORD"


def _launcher_class() -> Path:
    return LAUNCHER_DIR / "target" / "classes" / "wave" / "neo4j" / "Launcher.class"


def launcher_built() -> bool:
    target = LAUNCHER_DIR / "target"
    compiled = _launcher_class()
    return (compiled.exists() and AUTH_MARKER in compiled.read_bytes()
            and any((target / "lib").glob("neo4j-kernel-*.jar")))


def build_launcher(echo: Callable[[str], None] = log.info) -> None:
    """Compile the launcher and copy its jars (first run downloads ~130 MB from Maven Central)."""
    check_tools()
    if launcher_built():
        return
    echo("Building the embedded Neo4j launcher (Maven; first run downloads ~130 MB)...")
    if _launcher_class().exists():  # an older build: Maven may judge it up to date by mtime
        shutil.rmtree(LAUNCHER_DIR / "target" / "classes", ignore_errors=True)
    result = subprocess.run(
        ["mvn", "-q", "-B", "-f", str(LAUNCHER_DIR / "pom.xml"), "package", "-DskipTests"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise ServiceUnavailable(
            "embedded Neo4j",
            f"the Maven build failed:\n{tail}",
            "check that Maven Central is reachable, or " + WAYS_FORWARD,
        )


def status(settings: Settings) -> Neo4jStatus:
    home, pid_file, log_file = _paths(settings)
    pid = _read_pid(pid_file)
    alive = pid is not None and process_alive(pid)
    answers = _bolt_answers(settings.neo4j_port)
    if alive and answers:
        detail = "running"
    elif alive:
        detail = "starting (process alive, Bolt not answering yet)"
    elif answers:
        detail = f"port {settings.neo4j_port} answers but not from Wave's pid file"
    else:
        detail = "stopped"
    return Neo4jStatus(
        running=alive and answers,
        pid=pid if alive else None,
        uri=settings.effective_neo4j_uri,
        home=home,
        log_file=log_file,
        detail=detail,
    )


def up(settings: Settings, wait_s: float = 120.0, echo: Callable[[str], None] = log.info) -> Neo4jStatus:
    """Start the embedded Neo4j unless it already runs; return once Bolt answers."""
    current = status(settings)
    if current.running:
        return current
    if current.pid is None and _bolt_answers(settings.neo4j_port):
        raise ServiceUnavailable(
            "embedded Neo4j",
            f"port {settings.neo4j_port} on 127.0.0.1 is taken by another program",
            "stop it, or set NEO4J_PORT to a free port, or set NEO4J_URI to use that server",
        )
    build_launcher(echo)
    home, pid_file, log_file = _paths(settings)
    home.mkdir(parents=True, exist_ok=True)
    if current.pid is None:
        target = LAUNCHER_DIR / "target"
        classpath = f"{target / 'classes'}{os.pathsep}{target / 'lib' / '*'}"
        command = [
            "java",
            f"-Xmx{settings.neo4j_heap_mb}m",
            f"-Xms{min(128, settings.neo4j_heap_mb)}m",
            *JVM_OPENS,
            "-cp",
            classpath,
            MAIN_CLASS,
            str(home / "db"),
            str(settings.neo4j_port),
            str(settings.neo4j_pagecache_mb),
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith("WAVE_NEO4J_AUTH_")}
        if settings.neo4j_auth:  # in the environment, not argv: `ps` shows the command line
            env["WAVE_NEO4J_AUTH_USER"] = settings.neo4j_user
            env["WAVE_NEO4J_AUTH_PASSWORD"] = settings.neo4j_password
        with log_file.open("ab") as out:
            process = subprocess.Popen(
                command,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        pid_file.write_text(str(process.pid))
        echo(f"Starting Neo4j 5.26 (pid {process.pid}), Bolt on 127.0.0.1:{settings.neo4j_port}...")
    deadline = time.monotonic() + wait_s
    ready_marker = home / "db" / "READY"
    while time.monotonic() < deadline:
        pid = _read_pid(pid_file)
        if pid is None or not process_alive(pid):
            raise ServiceUnavailable(
                "embedded Neo4j",
                f"the JVM exited during start-up; see {log_file}",
                "read the log's last lines; a stale lock under the data directory or too "
                "little memory are the usual causes",
            )
        if ready_marker.exists() and _bolt_answers(settings.neo4j_port):
            return status(settings)
        time.sleep(0.25)
    raise ServiceUnavailable(
        "embedded Neo4j",
        f"Bolt did not answer within {wait_s:.0f}s; see {log_file}",
        "run `wave services status`, and `wave services down` before trying again",
    )


def down(settings: Settings, wait_s: float = 60.0) -> bool:
    """Stop the embedded Neo4j cleanly (SIGTERM, then SIGKILL). True if something was stopped."""
    _, pid_file, _ = _paths(settings)
    pid = _read_pid(pid_file)
    if pid is None or not process_alive(pid):
        pid_file.unlink(missing_ok=True)
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline and process_alive(pid):
        time.sleep(0.2)
        # reap it if it is our child, so a zombie does not look alive
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    if process_alive(pid):
        os.kill(pid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)
    return True
