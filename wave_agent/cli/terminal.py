"""A clean terminal: logs go to files under ``DATA_DIR/logs``, the screen gets what was asked.

``wave chat`` (``log_to_file``): the screen (stderr) gets only what a person must act on
(records logged with ``notice=True``, and critical ones), and never in the middle of the input
line: while the prompt waits for a line, notices wait too and are printed as soon as the line
is read. Every other command (``log_for_command``): ``DATA_DIR/logs/wave.log`` gets every
record; stderr gets Wave's own warnings as one ``wave: ...`` line each (a layer missing, a write
pending) and nothing from the libraries (graph driver, archive, embedder, pymorphy3).
``--verbose`` (``wave --verbose <command>``, or ``wave chat --verbose``) shows every record.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import threading
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import TextIO

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FILE = "wave-chat.log"
COMMAND_LOG_FILE = "wave.log"
# ``wave --verbose <command>``: set by the CLI's callback before the command runs.
VERBOSE = False
LOG_BYTES = 5_000_000
LOG_BACKUPS = 3


class Screen:
    """stderr for a person; holds notices while the prompt waits for input."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self._lock = threading.Lock()
        self._waiting = False
        self._held: list[str] = []

    def say(self, text: str, *, now: bool = False) -> None:
        with self._lock:
            if self._waiting and not now:
                self._held.append(text)
                return
            self._write(text + "\n")

    def prompt(self, text: str = "> ") -> None:
        """Print what was held, then the prompt; notices wait until ``line_read``."""
        with self._lock:
            self._flush()
            self._write(text)
            self._waiting = True

    def line_read(self) -> None:
        with self._lock:
            self._waiting = False
            self._flush()

    def _flush(self) -> None:
        held, self._held = self._held, []
        for text in held:
            self._write(text + "\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal is gone: nothing to tell
            pass


class ScreenHandler(logging.Handler):
    """Notices (``extra={"notice": True}``) and critical records; every record when verbose."""

    def __init__(self, screen: Screen, *, verbose: bool) -> None:
        super().__init__()
        self.screen = screen
        self.verbose = verbose
        self.setFormatter(logging.Formatter(LOG_FORMAT))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self.verbose:
                self.screen.say(self.format(record), now=True)
            elif getattr(record, "notice", False) or record.levelno >= logging.CRITICAL:
                self.screen.say(f"wave: {record.getMessage()}")
        except Exception:
            self.handleError(record)


def log_to_file(data_dir: Path, level: str, screen: Screen, *, verbose: bool) -> Path:
    """Route every record to ``DATA_DIR/logs/wave-chat.log`` and the screen handler, replacing
    the stderr handler the CLI starts with; the log file's path."""
    folder = data_dir / "logs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_FILE
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    to_file = RotatingFileHandler(path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS,
                                  encoding="utf-8")
    to_file.setFormatter(logging.Formatter(LOG_FORMAT))
    root.addHandler(to_file)
    root.addHandler(ScreenHandler(screen, verbose=verbose))
    root.setLevel(level)
    _quiet_warnings()
    return path


def _quiet_warnings() -> None:
    """Python warnings (a library's deprecation, a tokenizer's advice) go to the log file."""
    logging.captureWarnings(True)


class WarningLines(logging.Handler):
    """Wave's own warnings (and anyone's critical records) as one ``wave: ...`` line each."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(logging.WARNING)
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        ours = record.name == "wave" or record.name.startswith("wave.")
        if not (ours or record.levelno >= logging.CRITICAL or getattr(record, "notice", False)):
            return
        try:
            stream = self.stream or sys.stderr
            stream.write(f"wave: {record.getMessage()}\n")
            stream.flush()
        except Exception:
            self.handleError(record)


class PrivateLogFile(RotatingFileHandler):
    """A rotating log file made (folder 700, file 600: a log may name a person) only when the
    first record comes, so a command refused before it logs anything leaves no file behind."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8",
                         delay=True)

    def _open(self) -> io.TextIOWrapper:
        folder = Path(self.baseFilename).parent
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        return open(fd, "a", encoding="utf-8")  # the handler owns and closes it


def log_for_command(data_dir: Path, level: str, *, verbose: bool) -> Path:
    """Every record to ``DATA_DIR/logs/wave.log`` (made on the first record); stderr gets
    ``WarningLines`` (or, verbose, every record). The log file's path."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.setLevel(level)
    path = data_dir / "logs" / COMMAND_LOG_FILE
    to_file = PrivateLogFile(path)
    to_file.setFormatter(logging.Formatter(LOG_FORMAT))
    root.addHandler(to_file)
    if verbose:
        screen: logging.Handler = logging.StreamHandler(sys.stderr)
        screen.setFormatter(logging.Formatter(LOG_FORMAT))
    else:
        screen = WarningLines()
    root.addHandler(screen)
    _quiet_warnings()
    return path
