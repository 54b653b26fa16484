"""The sgl-omni double with answers a real-world proxy or foreign server gives (issue 17).

Run exactly like tests/sglomni/double/server.py; these variables choose the hostility:

  HOSTILE_VOICES_LIST=1   GET /v1/audio/voices answers a bare JSON list of names
  HOSTILE_REDIRECT=1      POST /v1/audio/speech answers 302 to a login page
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.sglomni.double import server as base  # noqa: E402

_original_get = base.Handler.do_GET
_original_speech = base.Handler._speech


def do_GET(self):
    if os.environ.get("HOSTILE_VOICES_LIST") == "1" and self.path.split("?")[0] == "/v1/audio/voices":
        return self._json(200, ["alloy", {"name": "narrator"}, "echo"])
    return _original_get(self)


def _speech(self, p: dict):
    if os.environ.get("HOSTILE_REDIRECT") == "1":
        return self._send(302, b"<html>Moved</html>", "text/html", headers={"Location": "/login?next=speech"})
    return _original_speech(self, p)


base.Handler.do_GET = do_GET
base.Handler._speech = _speech

if __name__ == "__main__":
    sys.exit(base.main())
