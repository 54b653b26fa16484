"""Fixtures of the stopping matrix: one small book, the held double, and what a stopped run must leave."""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from app.backends.sglomni import pidfiles
from app.core import proc
from tests.faults.books import book
from tests.faults.conftest import cli, fault_env, fault_log, requests_log_path  # noqa: F401  (fixtures)
from tests.sglomni.conftest import free_port
from tests.support import processes_running_from

DOUBLE = Path(__file__).resolve().parent / "double.py"

#: The book's chunks at CHUNK_SIZE: two spoken titles and three sentences per chapter.
CHAPTERS, SENTENCES, CHUNK_SIZE = 2, 3, 12
TOTAL_CHUNKS = CHAPTERS * (SENTENCES + 1)
#: The request held in flight: chapter 1's last sentence, so the rest of the book is done around it.
HELD = "part one the river passed the church"  # as spoken: numbers are words
#: Seconds a stop may take past what it announced (issue 35: the announced time is an upper bound).
SLACK = 1.0
#: What a stop that names no time promises: "Stopping now" ends within 2 s (the README).
AT_ONCE = 1.0


def bound(announced: float) -> float:
    """Return the seconds a stop announced as `announced` (0: a stop-now) may take: the promise + 1 s."""
    return (announced or AT_ONCE) + SLACK


#: The double's first boot line, logged once its SIGINT and SIGTERM handlers are in place.
BOOTING_LINE = "Loading pipeline config"


def booting(port: int) -> bool:
    """Return whether the managed server on `port` is spawned and booting: its pid file is written and the
    double has logged its first boot line, after installing its signal handlers. A pause point: a stop sent
    as soon as the pid file appears can land while the interpreter is still starting, and twice in fresh-home
    rehearsals such a stop waited out the 20 s SIGINT grace (the cause was not pinned down)."""
    rec = pidfiles.read_pidfile(port)
    if rec is None:
        return False
    try:
        return BOOTING_LINE in Path(rec.log_path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


class HeldDouble:
    """An external fault double (tests/stopping/double.py) holding the request for HELD until released."""

    def __init__(self, folder: Path, env: dict):
        self.events = folder / "held.jsonl"
        self.release_file = folder / "release"
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        full = {"STOP_HOLD": HELD, "STOP_EVENTS": str(self.events), "STOP_RELEASE": str(self.release_file), **env}
        with open(folder / f"double-{port}.out", "wb") as log:
            self.proc = proc.spawn([sys.executable, str(DOUBLE), "serve", "--model-path", "some/model",
                                    "--port", str(port), "--host", "127.0.0.1", "--model-name", "moss_tts_local"],
                                   env=full, stdout=log, new_session=True)
        from app.core.http import probe_json
        deadline = time.monotonic() + 30
        while not ((answer := probe_json(self.url, "/health", timeout=1)) and answer[1]
                   and answer[1].get("status") == "healthy"):
            assert self.proc.poll() is None and time.monotonic() < deadline, "the held double did not come up"
            time.sleep(0.05)

    def held(self) -> bool:
        return self.events.exists() and any(json.loads(line).get("held") for line in self.events.read_text().splitlines())

    def release(self) -> float:
        """Let the held request answer; return when."""
        self.release_file.write_text("go")
        return time.monotonic()

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(5)


@pytest.fixture
def held_double(tmp_path):
    """Start a held double: `held_double(answer="500")`; every one started is killed at the end."""
    started: list[HeldDouble] = []

    def start(answer: str = "500", **env) -> HeldDouble:
        started.append(HeldDouble(tmp_path, {"STOP_HOLD_ANSWER": answer, **env}))
        return started[-1]

    yield start
    for d in started:
        d.close()


@pytest.fixture
def small_book(tmp_path) -> Path:
    """Return the matrix's book: 2 chapters of a spoken title and 3 distinct sentences (8 chunks)."""
    return book(tmp_path, CHAPTERS, SENTENCES)


def answered(fault_log) -> list[str]:
    """Return the input of every request the double answered with audio."""
    return [r["input"] for r in fault_log() if r["fault"] is None]


def temp_files(*folders: Path) -> list[Path]:
    """Return every temp file a run leaves while it works (partial chunks, encodes, logs, muxes)."""
    return [p for f in folders if f.exists() for p in f.rglob("*")
            if ".part" in p.name or ".tmp" in p.name or p.name.endswith(".log") and "logs" not in p.parts]


def encoded_chapters(home: Path) -> dict[str, int]:
    """Return {encoded chapter file: mtime_ns} of every book's work folder: finished encodes only, whose
    record beside them is written last (a chapter encoded twice for its loudness is in place before that)."""
    from app.core import paths

    return {p.name: p.stat().st_mtime_ns for p in paths.work_dir().rglob("chapters/*.aac")
            if not p.name.startswith(".") and p.with_suffix(".json").exists()}


def left_running(*folders: Path) -> list[int]:
    """Return live processes whose command line names one of `folders` (encoders, servers)."""
    return [pid for f in folders for pid in processes_running_from(f)]
