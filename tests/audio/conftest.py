"""Fixtures for the audio tests (the root conftest isolates the app home)."""
from __future__ import annotations

import pytest

from app.audio.ffmpeg import ffmpeg_exe


@pytest.fixture(scope="session")
def ff() -> str:
    return ffmpeg_exe()
