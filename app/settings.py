"""The one settings file (TOML) that the CLI reads and the hub edits.

Command-line options override these for one run. Unknown keys are kept out:
a typo in the file is reported, not silently ignored.
"""
from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from app import paths
from app.errors import ConfigError


@dataclass
class SglomniSettings:
    #: A remote/external server ("http://host:port"); empty: the app manages one.
    remote_url: str = ""
    #: Port of the managed server.
    port: int = 8100
    #: Bind host of the managed server; loopback unless the user says otherwise.
    host: str = "127.0.0.1"
    #: Seconds a managed server may take to become healthy (cold boots compile kernels).
    start_timeout: float = 1200.0
    #: Server profile for models that have one ("" or "throughput").
    profile: str = ""


@dataclass
class Settings:
    #: Backend used when --backend is not given; "" picks piper unless sglomni is configured.
    backend: str = ""
    #: Model key for backends with several models (sglomni catalog key).
    model: str = ""
    voice: str = ""
    #: Folder for finished audiobooks; "" means paths.output_dir().
    output_dir: str = ""
    #: Words per chunk; 0 means the backend's default.
    chunk_size: int = 0
    format: str = "m4b"
    #: An ffmpeg executable to use instead of the one bundled by imageio-ffmpeg.
    ffmpeg: str = ""
    #: Whisper model size for reference-clip transcripts.
    whisper_model: str = "tiny.en"
    #: Hear every chunk (--verify): "" on for server models and off for piper, "on", or "off".
    verify: str = ""
    sglomni: SglomniSettings = field(default_factory=SglomniSettings)

    def resolved_output_dir(self) -> Path:
        return Path(self.output_dir).expanduser() if self.output_dir else paths.output_dir()


def _from_dict(cls, data: dict, where: str):
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(
            f"Unknown setting '{where}{unknown[0]}' in {paths.settings_file()}",
            hint=f"Valid keys: {', '.join(sorted(known))}",
        )
    kwargs = {}
    for name, value in data.items():
        f = known[name]
        nested = f.default_factory if f.default_factory is not dataclasses.MISSING else None
        if nested is not None and dataclasses.is_dataclass(nested):
            if not isinstance(value, dict):
                raise ConfigError(f"Setting '{where}{name}' in {paths.settings_file()} must be a [{name}] table")
            kwargs[name] = _from_dict(nested, value, f"{where}{name}.")
        else:
            kwargs[name] = value
    return cls(**kwargs)


def load(path: Path | None = None) -> Settings:
    """Return the saved settings, or the defaults when there is no file."""
    path = path or paths.settings_file()
    if not path.exists():
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Settings file {path} is not valid TOML ({exc})",
                          hint="Fix or delete it; defaults are used when it is absent") from exc
    try:
        return _from_dict(Settings, data, "")
    except TypeError as exc:
        raise ConfigError(f"Settings file {path} has a malformed section ({exc})") from exc


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write `settings` atomically with user-only permissions and return the path."""
    path = path or paths.settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            tomli_w.dump(dataclasses.asdict(settings), fh)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path
