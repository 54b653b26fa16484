"""Pause at a named stage when AUDIOBOOK_TEST_PAUSE_AT names it, so fault tests can interrupt there.

Stages, in the order a run reaches them:
  "planned"     the book read and planned, nothing locked or rendered yet (app/pipeline/run.py)
  "stitch"      after each chunk appended to a chapter's encoder: a chapter half encoded
  "retake"      a take judged wrong is about to be rendered again (app/pipeline/synthesis.py)
  "encode"      a chapter's last chunk appended, its encoders not yet finished
  "mux"         the M4B written to its temp name, not yet moved into place (app/audio/export.py)
  "read-along"  the audio outputs written, the read-along and captions not yet (app/pipeline/outputs.py)
A pause given the run's stop flag ends as soon as a stop is asked for. Unset, it costs one
environment lookup.
"""
from __future__ import annotations

import os
import sys
import threading
import time

VAR = "AUDIOBOOK_TEST_PAUSE_AT"
#: Longest pause: a test that forgets to interrupt still finishes.
PAUSE_SECONDS = 30.0


def pause_at(stage: str, cancel: threading.Event | None = None) -> None:
    """Announce `stage` on stderr and wait (until `cancel` is set) if the test variable names it."""
    if os.environ.get(VAR) != stage:
        return
    print(f"test pause at {stage}", file=sys.stderr, flush=True)
    # Polled with sleeps: a stop-now's KeyboardInterrupt on the main thread must not land inside
    # Condition.wait (Event.wait), which can leave its lock released twice.
    deadline = time.monotonic() + PAUSE_SECONDS
    while time.monotonic() < deadline and not (cancel is not None and cancel.is_set()):
        time.sleep(0.02)
