"""Isolate every sglomni-models test from the real app home, venvs and HF cache."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("AUDIOBOOK_HOME", str(home))
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(home / "envs"))
    monkeypatch.setenv("AUDIOBOOK_LOGS", str(home / "logs"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    yield
