"""Pause at a named stage when AUDIOBOOK_TEST_PAUSE_AT names it, so fault tests can interrupt there.

Stages: "stitch" (a chapter half assembled) and "mux" (the M4B written to its temp
name, not yet moved into place). Unset, it costs one environment lookup.
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
    if cancel is not None:
        cancel.wait(PAUSE_SECONDS)
    else:
        time.sleep(PAUSE_SECONDS)
