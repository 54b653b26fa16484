"""Options resolved once: the command line (or the hub's form), then settings.toml, then the default.

This is the one place that decides each value. It records where every value
came from, so a message can say "--port 8100 (from settings.toml)". Backends
receive the result (BackendOptions) and never read settings themselves.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

from app.backends.base import BackendOptions, VoiceOptions
from app.book.model import Book
from app.core.errors import ConfigError, InputError
from app.core.settings import Settings
from app.core.urls import check_server_url

#: Where a value came from, as messages say it.
COMMAND_LINE = "command line"
HUB_FORM = "hub form"
SETTINGS = "settings.toml"
DEFAULT = "default"

#: The defaults of options that have no setting (the others default in app.core.settings).
DEFAULT_PORT = Settings().sglomni.port
DEFAULT_HOST = Settings().sglomni.host
DEFAULT_START_TIMEOUT = Settings().sglomni.start_timeout


class Resolver:
    """Pick each value from the face, then the settings, then the default, noting the source."""

    def __init__(self, face: str = COMMAND_LINE):
        self.face = face
        self.sources: dict[str, str] = {}

    def pick(self, name: str, option: Any, setting: Any = None, default: Any = None) -> Any:
        """Return the first of `option`, `setting`, `default` that is set ("" and 0 in settings mean unset).

        A setting equal to the default is reported as the default: the file may not even exist.
        """
        if option not in (None, "", ()):
            self.sources[name] = self.face
            return option
        if setting not in (None, "", 0) and setting != default:
            self.sources[name] = SETTINGS
            return setting
        self.sources[name] = DEFAULT
        return default


@dataclass(frozen=True)
class RunOptions:
    """What a conversion runs with, decided once; `sources` says where each value came from."""

    backend: str
    backend_options: BackendOptions
    #: Words per chunk; None: the backend's default.
    chunk_size: int | None
    sources: Mapping[str, str]

    def explain(self, name: str, value: Any, flag: str | None = None) -> str:
        """Return e.g. "--chunk-size 40 (from settings.toml)"."""
        return f"{flag or '--' + name.replace('_', '-')} {value} (from {self.sources.get(name, DEFAULT)})"


def choose_backend(resolver: Resolver, backend: str | None, conf: Settings, *, wants_server: bool) -> str:
    """Return the backend: the option, the setting, else sglomni when a server is asked for, else piper."""
    name = resolver.pick("backend", backend, conf.backend)
    if name:
        return name
    return "sglomni" if wants_server or conf.sglomni.remote_url else "piper"


def server_options(conf: Settings, *, face: str = COMMAND_LINE, api_urls: tuple[str, ...] = (),
                   model: str | None = None, port: int | None = None, host: str | None = None,
                   profile: str | None = None, concurrency: int | None = None,
                   voice: VoiceOptions = VoiceOptions(), use_remote: bool = True) -> BackendOptions:
    """Return the options of a server backend (and of `backends sglomni ...` commands).

    --api-url beats the remote URL setting; without either the backend manages its own
    server on the resolved port and host. `use_remote` False leaves the remote URL setting
    out (a run on another backend, or a command about the local server).
    """
    r = Resolver(face)
    if api_urls:
        urls = tuple(check_server_url(u, what="--api-url") for u in api_urls)
        r.sources["api_urls"] = face
    elif use_remote and conf.sglomni.remote_url:
        urls = (check_server_url(conf.sglomni.remote_url, what="The remote URL setting"),)
        r.sources["api_urls"] = SETTINGS
    else:
        urls = ()
    if port is not None and not 1 <= port <= 65535:
        raise InputError(f"--port must be between 1 and 65535, not {port}")
    options = BackendOptions(
        model=r.pick("model", model, conf.model) or None,
        voice=voice,
        api_urls=urls,
        concurrency=r.pick("concurrency", concurrency),
        port=r.pick("port", port, conf.sglomni.port, DEFAULT_PORT),
        host=str(r.pick("host", host, conf.sglomni.host, DEFAULT_HOST)).strip().strip("[]"),  # "[::]" and "::" alike
        profile=r.pick("profile", profile, conf.sglomni.profile) or None,
        start_timeout=float(r.pick("start_timeout", None, conf.sglomni.start_timeout, DEFAULT_START_TIMEOUT)),
        sources=r.sources,
    )
    return options


#: The voice's own speaking rate.
DEFAULT_SPEED = Settings().speed


def speaking_rate(r: Resolver, speed: float | None, conf: Settings, backend: str) -> float | None:
    """Return the speaking rate for `backend` (None: the voice's own); one line for --speed where it has none.

    sglang-omni 0.1.9 takes a `speed` field, but applies it by resampling the
    finished audio (every voice higher and faster, a chipmunk), and no catalog
    model takes a rate of its own: a server voice keeps its rate. The `speed`
    setting is Piper's: a run on a server leaves it out rather than fail.
    """
    rate = r.pick("speed", speed, conf.speed, DEFAULT_SPEED)
    if backend != "piper":
        if r.sources["speed"] != SETTINGS and rate != DEFAULT_SPEED:
            raise ConfigError(f"--speed applies to the Piper voice only: the {backend} models take no speaking rate",
                              hint="Drop --speed for this backend")
        return None
    return None if rate == DEFAULT_SPEED else float(rate)


def announce_titles(req: Any, conf: Settings) -> bool:
    """Return whether each chapter's title is said first: --no-announce, else the announce setting.

    Not through Resolver.pick: false is a value here, not "unset".
    """
    return req.announce if req.announce is not None else conf.announce


def resolve_run(req: Any, conf: Settings, *, face: str = COMMAND_LINE) -> RunOptions:
    """Return the options of conversion request `req` (app.convert.ConvertRequest) under `conf`."""
    r = Resolver(face)
    name = choose_backend(r, req.backend, conf, wants_server=bool(req.api_urls or req.model))
    clone = Path(req.clone).expanduser() if req.clone else None
    if clone is not None and not clone.is_file():
        raise InputError(f"Reference clip {clone} does not exist",
                         hint="Put clips in voices/ and pass --clone voices/NAME.wav")
    voice = VoiceOptions(
        voice=r.pick("voice", req.voice, conf.voice) or None,
        instructions=req.instructions,
        clone=clone,
        transcription=req.transcription,
        language=req.language,
        whisper_model=r.pick("whisper_model", req.whisper_model, conf.whisper_model) or None,
        speed=speaking_rate(r, req.speed, conf, name),
        params=dict(req.params),
    )
    options = server_options(conf, face=face, api_urls=tuple(req.api_urls), model=req.model, port=req.port,
                             host=req.host, profile=req.profile, concurrency=req.concurrency, voice=voice,
                             use_remote=name == "sglomni")
    chunk_size = r.pick("chunk_size", req.chunk_size, conf.chunk_size)
    sources = {**r.sources, **options.sources}
    options = replace(options, sources=sources)
    return RunOptions(backend=name, backend_options=options, chunk_size=chunk_size or None, sources=sources)


# -- what the book lacks: --series, --series-index, --narrator, --year ----------------------------

#: A series position: a whole or decimal number ("2", "1.5"), as Audiobookshelf's sequence takes it.
_SERIES_INDEX = re.compile(r"^\d{1,6}(?:\.\d{1,3})?$")
_YEAR = re.compile(r"^\d{1,4}$")


def with_book_details(book: Book, *, series: str | None = None, series_index: str | None = None,
                      narrator: str | None = None, year: str | None = None) -> Book:
    """Return `book` with what the options give in place of what it says (each checked first)."""
    changes: dict[str, str] = {}
    if series is not None:
        if not series.strip():
            raise InputError("--series is empty", hint="Give the series name, e.g. --series \"The Expanse\"")
        changes["series"] = " ".join(series.split())
    if series_index is not None:
        value = series_index.strip()
        if not _SERIES_INDEX.match(value):
            raise InputError(f"--series-index {series_index!r} is not a position in a series",
                             hint="Give a number like 2 or 1.5")
        if not (series or book.meta.series):
            raise InputError("--series-index without a series: the book names none",
                             hint="Add --series \"NAME\"")
        changes["series_index"] = value if "." in value else str(int(value))
    if narrator is not None:
        if not narrator.strip():
            raise InputError("--narrator is empty", hint="Give who reads it, or leave it out for the voice's name")
        changes["narrator"] = " ".join(narrator.split())
    if year is not None:
        value = year.strip()
        if not _YEAR.match(value) or int(value) < 1:
            raise InputError(f"--year {year!r} is not a year", hint="Give the year the work was first published, e.g. 1843")
        changes["year"] = value
    if not changes:
        return book
    return replace(book, meta=replace(book.meta, **changes))


def voice_narrator(backend: str, voice_name: str, options: BackendOptions) -> str:
    """Return who reads the book when --narrator does not say: the voice ("en_US-joe-medium (Piper)"),
    a server's voice and model ("alice (moss_tts_local)"), a cloned clip by its file name."""
    if backend == "piper":
        return f"{voice_name} (Piper)"
    voice = options.voice.voice or (options.voice.clone.stem if options.voice.clone else "")
    model = options.model or ""
    if voice and model:
        return f"{voice} ({model})"
    return voice or model or voice_name or backend
