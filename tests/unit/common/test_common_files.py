"""``common.files``: a file is replaced whole or not at all, by any number of writers."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from common.errors import Unavailable
from common.files import atomic_write, in_thread, locked, remove_tree

ROOT = Path(__file__).resolve().parents[3]

# A writer process: rewrites the target with its own letter, 200 times, each version 64 KiB.
WRITER = """
import sys
from common.files import atomic_write
target, letter = sys.argv[1], sys.argv[2]
for n in range(200):
    atomic_write(target, (letter * 65536) + f"|{n}")
"""


def _whole(data: bytes) -> bool:
    body, _, number = data.partition(b"|")
    return len(body) == 65536 and len(set(body)) == 1 and number.isdigit()


def test_write_replaces_the_file_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "notes.md"
    atomic_write(target, "первая версия\n")
    atomic_write(target, "вторая версия\n")
    assert target.read_text(encoding="utf-8") == "вторая версия\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["notes.md"]


def test_mode_applies_to_the_new_file(tmp_path: Path) -> None:
    secret = tmp_path / "tokens.json"
    atomic_write(secret, b"{}", mode=0o600)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    atomic_write(secret, b"{}", mode=0o640)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o640


def test_a_failed_write_keeps_the_old_file_whole(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "block.md"
    atomic_write(target, "old text")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        atomic_write(target, "new text that never lands")
    monkeypatch.undo()
    assert target.read_text() == "old text"
    assert [p.name for p in tmp_path.iterdir()] == ["block.md"]


def test_two_processes_writing_one_target_never_show_half_a_file(tmp_path: Path) -> None:
    target = tmp_path / "shared.txt"
    atomic_write(target, ("x" * 65536) + "|0")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(target), letter], env=env)
               for letter in "ab"]
    seen_torn: list[int] = []
    reads = 0
    while any(w.poll() is None for w in writers):
        data = target.read_bytes()
        reads += 1
        if not _whole(data):
            seen_torn.append(len(data))
    assert [w.wait() for w in writers] == [0, 0]
    assert reads > 0 and not seen_torn
    final = target.read_bytes()
    assert _whole(final) and final.endswith(b"|199")
    assert [p.name for p in tmp_path.iterdir()] == ["shared.txt"]  # no temp file left


def test_threads_writing_one_target_use_temp_files_of_their_own(tmp_path: Path) -> None:
    target = tmp_path / "shared.txt"
    errors: list[BaseException] = []

    def write(letter: str) -> None:
        try:
            for n in range(100):
                atomic_write(target, (letter * 65536) + f"|{n}")
        except BaseException as exc:  # a shared temp name shows up as FileNotFoundError
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(c,)) for c in "abcd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert _whole(target.read_bytes())
    assert [p.name for p in tmp_path.iterdir()] == ["shared.txt"]


def test_the_lock_serialises_processes(tmp_path: Path) -> None:
    lock, done = tmp_path / "sub" / ".lock", tmp_path / "done"
    holder = f"""
import pathlib, time
from common.files import locked
with locked({str(lock)!r}):
    print("held", flush=True)
    time.sleep(0.5)  # hold it a while: the test must wait for it
    pathlib.Path({str(done)!r}).write_text("written under the lock")
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    other = subprocess.Popen([sys.executable, "-c", holder], env=env, stdout=subprocess.PIPE,
                             text=True)
    assert other.stdout is not None and other.stdout.readline().strip() == "held"
    with locked(lock):
        # we got the lock only after the other process finished its work under it
        assert done.read_text() == "written under the lock"
    assert other.wait() == 0
    other.stdout.close()


class _FolderGone(Unavailable):
    def __init__(self, exc: OSError) -> None:
        super().__init__(f"cannot use {exc.filename}", next_step="check that DATA_DIR is writable")


async def test_in_thread_turns_os_errors_into_the_store_error(tmp_path: Path) -> None:
    assert await in_thread(_FolderGone, lambda: threading.get_ident()) != threading.get_ident()
    missing = tmp_path / "nowhere" / "day.md"
    with pytest.raises(_FolderGone) as caught:
        await in_thread(_FolderGone, missing.read_text)
    assert caught.value.next_step == "check that DATA_DIR is writable"
    assert isinstance(caught.value.__cause__, FileNotFoundError)
    assert asyncio.get_running_loop() is not None


def test_remove_tree_counts_the_files(tmp_path: Path) -> None:
    folder = tmp_path / "person"
    (folder / "weekly").mkdir(parents=True)
    for name in ("2026-01-01.md", "weekly/2026-W01.md", ".lock"):
        (folder / name).write_text("x")
    assert remove_tree(folder) == 3
    assert not folder.exists()
    assert remove_tree(folder) == 0
