"""Fixtures for driving the hub: rendered text, a fake HF cache, the server double as sgl-omni."""
from __future__ import annotations

import hashlib
import os
import socket
import time
from pathlib import Path

import pytest

from tests.support import install_fake_sgl_omni

from app.backends.sglomni import pidfiles
from app.backends.sglomni import procgroup
from app.backends.sglomni import catalog

ROOT = Path(__file__).resolve().parents[2]
DOUBLE = ROOT / "tests" / "sglomni" / "double" / "server.py"

pytestmark = pytest.mark.hub


def screen_text(app) -> str:
    """Return what the active screen shows, as plain text lines."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def wait_for(pilot, condition, timeout: float = 20.0, what: str = "condition") -> None:
    """Let the app run until `condition()` is true, failing after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; screen:\n{screen_text(pilot.app)}")
        await pilot.pause(0.05)


def hub_cache() -> Path:
    """Return the HF hub cache the isolated HF_HOME points at."""
    return Path(os.environ["HF_HOME"]) / "hub"


def fake_repo(repo: str) -> Path:
    """Lay `repo` out in huggingface_hub's cache format (blob, snapshot symlink, refs/main)."""
    base = hub_cache() / ("models--" + repo.replace("/", "--"))
    content = f"weights of {repo}\n".encode()
    blob = hashlib.sha256(content).hexdigest()
    rev = hashlib.sha1(repo.encode()).hexdigest()
    (base / "blobs").mkdir(parents=True, exist_ok=True)
    (base / "blobs" / blob).write_bytes(content)
    snap = base / "snapshots" / rev
    snap.mkdir(parents=True, exist_ok=True)
    link = snap / "config.json"
    if not link.exists():
        link.symlink_to(Path("..") / ".." / "blobs" / blob)
    (base / "refs").mkdir(exist_ok=True)
    (base / "refs" / "main").write_text(rev)
    return base


def fake_download(key: str) -> None:
    """Put every repo of catalog entry `key` into the cache, as a finished download would."""
    for repo in catalog.get(key).all_repos:
        fake_repo(repo)


def free_port() -> int:
    """Return a TCP port nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port(monkeypatch) -> int:
    """Save settings with a free port for the managed server and a short start timeout."""
    from app.core import settings

    p = free_port()
    conf = settings.Settings()
    conf.sglomni.port = p
    conf.sglomni.start_timeout = 30.0
    conf.verify = "off"  # the double speaks a tone: nothing to hear
    settings.save(conf)
    return p


@pytest.fixture
def double_venv(tmp_path, monkeypatch):
    """Install the server double (tests/sglomni/double) as the managed venv's `sgl-omni`."""
    envs = tmp_path / "envs"
    exe = install_fake_sgl_omni(envs, DOUBLE)
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(envs))
    monkeypatch.setenv("SGO_DOUBLE_SPEECH", "tone")
    yield exe
    from app.backends.sglomni import server
    pidfiles.stop_from_pidfile(timeouts=procgroup.StopTimeouts(1, 1, 2))
