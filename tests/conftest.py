"""Isolate every test from the user's real settings, caches and network config."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Variables a test must never inherit from the developer's shell.
_SCRUBBED = ("AUDIOBOOK_SETTINGS", "AUDIOBOOK_CACHE", "AUDIOBOOK_LOGS", "AUDIOBOOK_ENVS",
             "AUDIOBOOK_VOICES", "AUDIOBOOK_DEBUG", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
             "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Point the app home, HF cache and XDG dirs at a fresh temp folder."""
    home = tmp_path_factory.mktemp("home")
    for var in _SCRUBBED:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AUDIOBOOK_HOME", str(home))
    monkeypatch.setenv("HF_HOME", str(home / "hf"))
    # HF_HUB_CACHE (and the older TRANSFORMERS_CACHE) win over HF_HOME: a developer's own
    # setting must not let a test read or fill the real Hugging Face cache. Removed rather
    # than set, so a test (or a subprocess) that passes its own HF_HOME gets HF_HOME/hub.
    for var in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "TRANSFORMERS_CACHE", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg-cache"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    return home


@pytest.fixture
def app_python() -> str:
    """Return the interpreter that runs the app (the one running the tests)."""
    return sys.executable


@pytest.fixture
def run_cli(app_python):
    """Run `audiobook.py ARGS` as a real subprocess and return the CompletedProcess."""
    import subprocess

    def _run(*args: str, timeout: float = 300, env: dict | None = None, input: str | None = None):
        full_env = dict(os.environ)
        full_env.update(env or {})
        return subprocess.run([app_python, str(ROOT / "audiobook.py"), *map(str, args)],
                              capture_output=True, text=True, timeout=timeout, env=full_env,
                              input=input, cwd=ROOT)

    return _run
