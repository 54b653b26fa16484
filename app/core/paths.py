"""Every directory the app uses, one function each.

Each honours an environment variable first, then a default under the app home.
The app home is the project checkout (AUDIOBOOK_HOME overrides it), because the
managed sglang-omni venv lives in `app/envs/` beside the code (see
app/docs/backend-sglomni.md) and a checkout is what users move around.
"""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def _env_path(name: str, default: Path) -> Path:
    value = os.environ.get(name)
    return Path(value).expanduser().resolve() if value else default


def home() -> Path:
    """Return the folder that holds settings, cache, output and logs."""
    return _env_path("AUDIOBOOK_HOME", PROJECT_ROOT)


def settings_file() -> Path:
    """Return the one settings file the CLI and the hub share."""
    return _env_path("AUDIOBOOK_SETTINGS", home() / "settings.toml")


def cache_dir() -> Path:
    """Return the folder of finished chunks (the resume cache)."""
    return _env_path("AUDIOBOOK_CACHE", home() / "cache")


def output_dir() -> Path:
    """Return the default folder for finished audiobooks."""
    return home() / "output"


def work_dir() -> Path:
    """Return the folder of per-book work files (chapter WAV/AAC, locks)."""
    return cache_dir() / "work"


def logs_dir() -> Path:
    """Return the folder of server and installer logs."""
    return _env_path("AUDIOBOOK_LOGS", home() / "logs")


def run_dir() -> Path:
    """Return the folder of pid files of servers this tool started."""
    return home() / "run"


def envs_dir() -> Path:
    """Return the folder of managed venvs (app/envs/sglomni) and pythons."""
    return _env_path("AUDIOBOOK_ENVS", PROJECT_ROOT / "app" / "envs")


def voices_dir() -> Path:
    """Return the folder of reference clips and their cached transcripts."""
    return _env_path("AUDIOBOOK_VOICES", PROJECT_ROOT / "voices")


def ensure(path: Path) -> Path:
    """Create `path` as a directory if needed and return it."""
    path.mkdir(parents=True, exist_ok=True)
    return path
