"""Fixtures: a throwaway managed venv whose `sgl-omni` is the server double, free ports, cleanup."""
from __future__ import annotations

import json
import os
import socket
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from app.core import proc
from app.backends.base import BackendOptions
from app.options import server_options
from app.backends.sglomni import pidfiles
from app.backends.sglomni import procgroup
from app.core.settings import Settings, SglomniSettings
from tests.support import install_fake_sgl_omni, tone_speech_without_verification

DOUBLE = Path(__file__).resolve().parent / "double" / "server.py"


def free_port() -> int:
    """Return a TCP port nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def fake_venv(tmp_path, monkeypatch):
    """Install the double as `sgl-omni` in a temp AUDIOBOOK_ENVS/sglomni/bin and isolate the app."""
    envs = tmp_path / "envs"
    exe = install_fake_sgl_omni(envs, DOUBLE, prelude="os.environ['SGO_DOUBLE_EXE'] = __file__\n")
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(envs))
    monkeypatch.setenv("AUDIOBOOK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUDIOBOOK_LOGS", str(tmp_path / "home" / "logs"))
    monkeypatch.setenv("SGO_DOUBLE_RECORD", str(tmp_path / "requests.jsonl"))
    monkeypatch.setenv("SGO_DOUBLE_SPEECH", "tone")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/leaked/cudnn")  # the server must not inherit it
    tone_speech_without_verification()
    for var in [v for v in os.environ if v.startswith("SGO_DOUBLE_") and v not in
                ("SGO_DOUBLE_RECORD", "SGO_DOUBLE_SPEECH")]:
        monkeypatch.delenv(var)
    yield exe
    from app.backends.sglomni import server
    pidfiles.stop_from_pidfile(timeouts=procgroup.StopTimeouts(1, 1, 2))


@pytest.fixture
def requests_log(tmp_path):
    """Return a function giving the requests the double recorded so far."""
    path = tmp_path / "requests.jsonl"

    def read(path_filter: str | None = None) -> list[dict]:
        if not path.exists():
            return []
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return [r for r in rows if path_filter is None or r["path"] == path_filter]

    return read


def resolved(options: BackendOptions, settings: Settings) -> BackendOptions:
    """Return `options` completed from `settings` by app.options, the way a run resolves them."""
    return server_options(settings, api_urls=options.api_urls, model=options.model, port=options.port,
                          profile=options.profile, concurrency=options.concurrency, voice=options.voice)


@pytest.fixture
def settings():
    """Return settings for a managed server on a free port with a short start timeout."""
    return Settings(sglomni=SglomniSettings(port=free_port(), start_timeout=20.0))


@pytest.fixture
def external_double(tmp_path):
    """Start the double directly (as a user would start sgl-omni by hand); return a starter."""
    started = []

    def start(model_name: str, model_path: str = "some/model", *, env: dict | None = None,
              port: int | None = None) -> str:
        port = port or free_port()
        log = open(tmp_path / f"external-{port}.log", "wb")
        p = proc.spawn([sys.executable, str(DOUBLE), "serve", "--model-path", model_path,
                        "--port", str(port), "--host", "127.0.0.1", "--model-name", model_name],
                       env=env, stdout=log, new_session=True)
        started.append((p, log))
        url = f"http://127.0.0.1:{port}"
        from app.core.http import probe_json
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            answer = probe_json(url, "/health", timeout=1)
            if answer and answer[1] and answer[1].get("status") == "healthy":
                return url
            time.sleep(0.05)
        raise RuntimeError("external double did not come up")

    yield start
    for p, log in started:
        try:
            os.killpg(p.pid, 9)
        except ProcessLookupError:
            pass
        p.wait(5)
        log.close()


def spec_with(key: str, **changes):
    """Return the catalog entry `key` with `changes` applied."""
    from app.backends.sglomni import catalog
    return replace(catalog.get(key), **changes)
