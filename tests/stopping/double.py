"""The fault double (tests/faults/double.py) with a request held until the test lets it go.

Every FAULT_* and SGO_DOUBLE_* variable still works; added:

  STOP_HOLD=TEXT        a speech request whose input contains TEXT is held: its start is written to
                        STOP_EVENTS as a JSON line {"held": input}, then it waits until the file
                        STOP_RELEASE exists (at most 120 s)
  STOP_HOLD_ANSWER=500  a held request then answers HTTP 500 (default: its usual answer);
                   =400  HTTP 400 with REFUSAL as its message (a permanent error: the run ends)

Only the first such request is held; later ones (a re-run's) are answered as usual.

A held request is a stage the test chooses, reached without racing the run: it stays in flight
until the test has signalled the run and seen its answer.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.faults import double as faults  # noqa: E402  (installs the fault double's handlers)
from tests.sglomni.double import server as base  # noqa: E402

#: The message of a held request's 400 answer.
REFUSAL = "This input cannot be spoken by the held double"
#: Longest hold: a test that forgets to release still ends.
HOLD_SECONDS = 120.0

_faulty_speech = base.Handler._speech
_lock = threading.Lock()
_held: list[str] = []


def _speech(self, p: dict):
    text = p.get("input") if isinstance(p.get("input"), str) else ""
    hold = os.environ.get("STOP_HOLD")
    with _lock:
        first = bool(hold) and hold in text and not _held
        if first:
            _held.append(text)
    if first:
        with open(os.environ["STOP_EVENTS"], "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"held": text}) + "\n")
        release = Path(os.environ["STOP_RELEASE"])
        deadline = time.monotonic() + HOLD_SECONDS
        while not release.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        if os.environ.get("STOP_HOLD_ANSWER") == "500":
            faults._log({"n": -1, "input": text, "seed": p.get("seed"), "fault": "held-500"})
            return self._json(500, base.error_payload("Error generating speech: engine step failed",
                                                      error_type="server_error", code=None))
        if os.environ.get("STOP_HOLD_ANSWER") == "400":
            faults._log({"n": -1, "input": text, "seed": p.get("seed"), "fault": "held-400"})
            return self._json(400, base.error_payload(REFUSAL))
    return _faulty_speech(self, p)


base.Handler._speech = _speech

if __name__ == "__main__":
    sys.exit(base.main())
