"""Fixtures for the cast tests: a short book with dialogue, the sglomni double started by hand."""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from app.core import proc
from tests.sglomni.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
DOUBLE = ROOT / "tests" / "sglomni" / "double" / "server.py"

#: Three speakers, tags after and before quotes, an interrupted quote, a whisper and a narration-only paragraph.
STORY = """The Visit

Chapter One

The rain had not stopped all day. Hartley stood by the window and watched the street below.

"Someone is coming up the stairs, and she is in a hurry," said Hartley.

"How can you possibly tell that from here?" said Whitcombe.

"The third step creaks," said Hartley, "and it has creaked twice in one second."

The door opened and a tall woman came in, shaking the water from her coat.

"Please, I need your help tonight," whispered Maud.
"""

#: The quotations of STORY as printed, in book order, with their speakers (the second part of the
#: interrupted quote is Hartley's: his tag stands between its two parts).
QUOTES = [("Someone is coming up the stairs, and she is in a hurry,", "Hartley"),
          ("How can you possibly tell that from here?", "Whitcombe"),
          ("The third step creaks,", "Hartley"),
          ("and it has creaked twice in one second.", "Hartley"),
          ("Please, I need your help tonight,", "Maud")]


@pytest.fixture
def story(tmp_path) -> Path:
    path = tmp_path / "story.txt"
    path.write_text(STORY, encoding="utf-8")
    return path


@pytest.fixture
def double(tmp_path):
    """Start the sglomni double by hand (as a user starts sgl-omni); return start(model_name) -> URL."""
    started = []

    def start(model_name: str) -> str:
        port = free_port()
        log = open(tmp_path / f"double-{port}.log", "wb")
        env = {**os.environ, "SGO_DOUBLE_RECORD": str(tmp_path / "requests.jsonl"), "SGO_DOUBLE_SPEECH": "tone"}
        p = proc.spawn([sys.executable, str(DOUBLE), "serve", "--model-path", "some/model", "--port", str(port),
                        "--host", "127.0.0.1", "--model-name", model_name], env=env, stdout=log,
                       new_session=True)
        started.append((p, log))
        url = f"http://127.0.0.1:{port}"
        from app.core.http import probe_json
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            answer = probe_json(url, "/health", timeout=1)
            if answer and answer[1] and answer[1].get("status") == "healthy":
                return url
            assert p.poll() is None, (tmp_path / f"double-{port}.log").read_text()
            time.sleep(0.05)
        raise RuntimeError("the double did not come up")

    yield start
    for p, log in started:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(5)
        log.close()


@pytest.fixture
def speech_requests(tmp_path):
    """Return a function giving the /v1/audio/speech bodies the double saw."""
    import json

    def read() -> list[dict]:
        path = tmp_path / "requests.jsonl"
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []
        return [r["json"] for r in rows if r.get("path") == "/v1/audio/speech" and "json" in r]

    return read
