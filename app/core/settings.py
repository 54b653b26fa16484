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

from app.core import paths
from app.core.errors import ConfigError


@dataclass
class SglomniSettings:
    #: A remote/external server ("http://host:port"); empty: the app manages one.
    remote_url: str = ""
    #: Port of the managed server.
    port: int = field(default=8100, metadata={"min": 1, "max": 65535})
    #: Bind host of the managed server; loopback unless the user says otherwise.
    host: str = "127.0.0.1"
    #: Seconds a managed server may take to become healthy (cold boots compile kernels).
    start_timeout: float = field(default=1200.0, metadata={"min": 1})
    #: Server profile for models that have one ("" or "throughput").
    profile: str = ""


@dataclass
class WebSettings:
    """Defaults of `hub --web`, the hub served to a browser page."""

    #: Address the page is served on; only a loopback one here (another needs --host on the command line).
    host: str = "127.0.0.1"
    #: TCP port of the page (0: any free port).
    port: int = field(default=8080, metadata={"min": 0, "max": 65535})
    #: A fixed access token (a password) for the page; "" makes a fresh random one at every start.
    token: str = ""


@dataclass
class Settings:
    #: Backend used when --backend is not given; "" picks piper unless sglomni is configured.
    backend: str = ""
    #: Model key for backends with several models (sglomni catalog key).
    model: str = ""
    #: Voice when --voice is not given: a Piper voice name (see --list-voices) or a server's voice.
    voice: str = ""
    #: Speaking rate when --speed is not given (Piper): 1 is the voice's own, 1.25 a quarter faster.
    speed: float = field(default=1.0, metadata={"min": 0.5, "max": 2.0})
    #: Say each chapter's title before its text (--no-announce turns it off for one run).
    announce: bool = True
    #: Folder for finished audiobooks; "" means paths.output_dir().
    output_dir: str = ""
    #: Words per chunk; 0 means the backend's default.
    chunk_size: int = field(default=0, metadata={"min": 0})
    format: str = "m4b"
    #: An ffmpeg executable to use instead of the one bundled by imageio-ffmpeg.
    ffmpeg: str = ""
    #: Whisper model size for reference-clip transcripts.
    whisper_model: str = "tiny.en"
    #: Hear every chunk (--verify): "" on for server models and off for piper, "on", or "off".
    verify: str = ""
    #: Listen with this sglang-omni model started beside the TTS server (--asr-model); "" listens locally.
    asr_model: str = ""
    sglomni: SglomniSettings = field(default_factory=SglomniSettings)
    web: WebSettings = field(default_factory=WebSettings)

    def resolved_output_dir(self) -> Path:
        return Path(self.output_dir).expanduser() if self.output_dir else paths.output_dir()


#: What each annotation asks of a TOML value, as said in an error message.
_EXPECTED = {"str": "a string in quotes", "int": "a whole number", "float": "a number", "bool": "true or false"}


def _check_value(f: dataclasses.Field, value, key: str, path: Path):
    """Return `value` if it has the field's type and range; raise ConfigError naming key, file and type."""
    kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    ok = {
        "str": isinstance(value, str),
        # TOML booleans are Python bools, which are ints: true is not a port number.
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
    }.get(kind, True)
    if not ok:
        raise ConfigError(
            f"Setting '{key}' in {path} must be {_EXPECTED.get(kind, kind)}, not {type(value).__name__} {value!r}",
            hint="Fix the value, or delete the line to use the default")
    low, high = f.metadata.get("min"), f.metadata.get("max")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"at least {low}" if high is None else f"between {low} and {high}"
        raise ConfigError(f"Setting '{key}' in {path} must be {bounds}, not {value!r}",
                          hint="Fix the value, or delete the line to use the default")
    return float(value) if kind == "float" else value


def _from_dict(cls, data: dict, where: str, path: Path | None = None):
    path = path or paths.settings_file()
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(
            f"Unknown setting '{where}{unknown[0]}' in {path}",
            hint=f"Valid keys: {', '.join(sorted(known))}",
        )
    kwargs = {}
    for name, value in data.items():
        f = known[name]
        nested = f.default_factory if f.default_factory is not dataclasses.MISSING else None
        if nested is not None and dataclasses.is_dataclass(nested):
            if not isinstance(value, dict):
                raise ConfigError(f"Setting '{where}{name}' in {path} must be a [{name}] table")
            kwargs[name] = _from_dict(nested, value, f"{where}{name}.", path)
        else:
            kwargs[name] = _check_value(f, value, f"{where}{name}", path)
    return cls(**kwargs)


def load(path: Path | None = None) -> Settings:
    """Return the saved settings, or the defaults when there is no file."""
    path = path or paths.settings_file()
    if not path.exists():
        return Settings()
    if not path.is_file():
        raise ConfigError(f"Settings file {path} is not a file",
                          hint="Move it away; defaults are used when it is absent")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Settings file {path} is not valid TOML ({exc})",
                          hint="Fix or delete it; defaults are used when it is absent") from exc
    except OSError as exc:
        raise ConfigError(f"Cannot read the settings file {path} ({exc.strerror or exc})",
                          hint="Check its permissions, or move it away to use the defaults") from None
    try:
        return _from_dict(Settings, data, "", path)
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
