"""Convert a book: the one function the CLI and the hub both call.

It resolves settings and options into a backend and a plan, asks the caller
the questions only a person can answer (through callbacks), and runs the
pipeline. It prints nothing: progress goes to the listener.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from app import options as options_mod
from app.core import settings as settings_mod
from app.audio.ffmpeg import ffmpeg_exe
from app.backends import warm_backend
from app.backends.base import Backend
from app.book import chapter_spec_is_empty
from app.book.export_text import write_markdown
from app.book.model import Book
from app.book.spoken import base_code, display_name
from app.core.errors import ConfigError, InputError, environment_error
from app.pipeline import events as ev
from app.output.formats import parse_formats, sibling_outputs
from app.pipeline import outpath
from app.pipeline.adaptive import InFlightLimit
from app.pipeline.plan import RunPlan, make_plan
from app.pipeline.planmemo import MEMO_NAME, PlanMemo
from app.pipeline.run import Converter
from app.pipeline.stopping import StopControl
from app.pipeline.verify import DEFAULT_TAKES, VerifySettings
from app.pipeline.workdir import book_work_dir
from app.audio.master import DEFAULT_LUFS, LUFS_RANGE, Target
from app.listen.local import DEFAULT_MODEL, LocalWhisper
from app.options import RunOptions
from app.request import (
    ConvertRequest,
    _read_selection,
    build_backend,
    check_numbers,
    read_book,
    resolve_options,
    speaker_for,
)
from app.castview import cast_for, find_book_cast, spoken_with_speakers


#: Answer to "chunk size exceeds what the model can say in one request".
ClampAnswer = str  # "set" | "keep" | "cancel"


def export_text(req: ConvertRequest, path: Path, conf: settings_mod.Settings | None = None) -> Path:
    """Write exactly what would be spoken, chapter by chapter, as Markdown; return the file."""
    book = read_book(req)
    speaker = speaker_for(req, book, build_backend(req, conf or settings_mod.load()))
    titles = {c.index: speaker(c.title) for c in book.chapters}
    spoken, speakers = spoken_with_speakers(book, speaker, find_book_cast(req, book))
    return write_markdown(spoken, path, titles, speakers)




def language_warning(book_language: str, voice_language: str | None, voice: str) -> str | None:
    """Return one line when the voice does not speak the book's language, else None."""
    if not voice_language or not book_language or base_code(book_language) == base_code(voice_language):
        return None
    return (f"warning: the book is in {display_name(book_language)} but the voice {voice} speaks "
            f"{display_name(voice_language)}; pass --voice with a {display_name(book_language).split()[0]} voice, "
            f"or --language {base_code(voice_language)} if the book is in fact in that language")


def _warm(req: ConvertRequest, conf: settings_mod.Settings) -> None:
    """Start loading the backend's voice on another core while the book is read and planned (issue 16, P5).

    Only for a book never started here (or --no-cache): a re-run may find every chapter encoded and
    need no voice at all (P4), and a resumed one pays the load once more, as before. Options that do
    not resolve are left to the checks after the book is read, in their usual order.
    """
    if not req.no_cache and book_work_dir(Path(req.book).expanduser()).exists():
        return
    try:
        # A run its options refuse must not first wait for a voice load (the refusal waited for it).
        check_numbers(req)
        if req.chapters is not None and chapter_spec_is_empty(req.chapters):
            return
        options = resolve_options(req, conf)
    except Exception:  # noqa: BLE001 - said again, in order, by resolve_options below
        return
    warm_backend(options.backend, options.backend_options)


def verify_settings(req: ConvertRequest, conf: settings_mod.Settings, backend: Backend,
                    book: Book, options: RunOptions | None = None) -> VerifySettings | None:
    """Return how chunks are heard, or None when verification is off.

    On by default for server models (language models skip, stutter and trail off); off for
    the embedded Piper voice, which reads its phonemes deterministically and would only pay
    a Whisper pass per chunk on the same CPU it synthesizes on.
    """
    setting = (conf.verify or "").strip().lower()
    if setting not in ("", "on", "off"):
        raise ConfigError(f"Setting verify = '{conf.verify}' is not one of on, off or empty",
                          hint="Use \"on\", \"off\", or \"\" for the backend's default")
    default = backend.name != "piper" if not setting else setting == "on"
    enabled = req.verify if req.verify is not None else default
    if not enabled:
        return None
    takes = req.verify_takes if req.verify_takes is not None else DEFAULT_TAKES
    if takes < 1:
        raise InputError(f"--verify-takes must be at least 1, not {takes}")
    language = (book.language or "").split("-")[0].lower() or None
    asr_model = req.asr_model or conf.asr_model
    options = options or resolve_options(req, conf)
    if req.asr_url:
        from app.backends.sglomni.asr import ServerTranscriber

        transcriber = ServerTranscriber(req.asr_url)
    elif asr_model:
        from app.backends.sglomni import catalog
        from app.backends.sglomni.asr import ManagedTranscriber

        transcriber = ManagedTranscriber(catalog.get_asr(asr_model),
                                         start_timeout=options.backend_options.start_timeout)
    else:
        transcriber = LocalWhisper(options.backend_options.voice.whisper_model or DEFAULT_MODEL)
    return VerifySettings(transcriber, max_takes=takes, language=language)


def master_target(req: ConvertRequest, backend: Backend | None = None) -> Target | None:
    """Return the chapters' loudness target, or None with --no-master (with the backend's limiter makeup)."""
    if not req.master:
        return None
    lufs = DEFAULT_LUFS if req.loudness is None else req.loudness
    low, high = LUFS_RANGE
    if not low <= lufs <= high:
        raise InputError(f"--loudness {lufs:g} is outside {low:g} to {high:g} LUFS",
                         hint="Audiobook platforms ask for about -23 to -18; the default is -20")
    makeup = backend.limiter_makeup_db if backend is not None else None
    return Target(lufs=lufs) if makeup is None else Target(lufs=lufs, makeup_db=makeup)


@dataclass
class Prepared:
    """A book read and planned, ready for a Converter."""

    plan: RunPlan
    verify: VerifySettings | None
    master: Target | None


def prepare(req: ConvertRequest, conf: settings_mod.Settings, get_backend: Callable[[RunOptions], Backend], *,
            listener: ev.Listener = ev.ignore,
            confirm_clamp: Callable[[int, int], ClampAnswer] = lambda size, cap: "set") -> Prepared:
    """Check the request, read the book and plan its run (the backend is asked for after the book is read)."""
    outpath.never_an_input(req.output, [req.book])
    formats = choose_formats(req, conf)
    check_numbers(req)
    book, full = _read_selection(req, conf)
    # Every output is a sibling of one stem, named after the first format's own path
    # (`--output dir/Book.m4b --format m4b,vtt` -> dir/Book.m4b and dir/Book.vtt).
    label = outpath.selection_label(book, full)
    if req.library is not None:
        # With --output too (a queue renames a book whose title another of its books has: the CLI
        # refuses both), the book's own folder is taken by that other book, so it gets the next one.
        primary, moved = outpath.library_primary(req.library, book, formats, label=label,
                                                 taken=req.output is not None)
        if moved:
            listener(ev.Message(moved))
    else:
        primary = outpath.resolve_output(book, outpath.primary_path(req.output, formats[0]),
                                         conf.resolved_output_dir(), formats[0], label=label)
    outputs = sibling_outputs(primary, formats)
    for kind, path in outputs.items():
        outpath.check_output(path, kind, inputs=[req.book])
    output = outputs[formats[0]]
    # The audio the run encodes for its first output: an MP3 folder, else AAC (M4B, read-along).
    fmt = "mp3" if formats[0] == "mp3" else "m4b"
    options = resolve_options(req, conf)
    backend = get_backend(options)
    chunk_size = options.chunk_size or backend.default_chunk_size
    cap = backend.max_chunk_words
    if cap is not None and chunk_size > cap:
        answer = confirm_clamp(chunk_size, cap)
        if answer == "cancel":
            raise InputError("Cancelled before starting", hint=f"Run again with --chunk-size {cap}")
        if answer == "set":
            chunk_size = cap
            listener(ev.Message(f"Chunk size set to {cap} words for this run (the model's request window)."))
    if not book.meta.narrator:
        narrator = options_mod.voice_narrator(options.backend, backend.voice_name, options.backend_options)
        book = replace(book, meta=replace(book.meta, narrator=narrator))
    speaker = speaker_for(req, book, backend)
    warning = language_warning(req.language or book.language, backend.voice_language, backend.voice_name)
    if warning:
        listener(ev.Message(warning))
    # Chapters planned by an earlier run with the same text and settings are not planned again.
    memo = PlanMemo.disabled() if req.no_cache else PlanMemo(book_work_dir(book.source) / MEMO_NAME)
    casting = cast_for(req, book, backend, listener) if req.cast else None
    plan = make_plan(book, backend.identity(), chunk_size=chunk_size, fmt=fmt, output=output, speaker=speaker,
                     formats=formats, memo=memo, casting=casting)
    if req.library is not None:
        plan = replace(plan, library=Path(req.library).expanduser())
    return Prepared(plan, verify_settings(req, conf, backend, book, options), master_target(req, backend))


def run_prepared(prepared: Prepared, backend: Backend, req: ConvertRequest, conf: settings_mod.Settings, *,
                 listener: ev.Listener = ev.ignore, stop: StopControl | None = None,
                 limit: InFlightLimit | None = None) -> Path:
    """Run a planned book on `backend` and return its first output; OSErrors become the app's errors."""
    verify = prepared.verify
    converter = Converter(prepared.plan, backend, ffmpeg=ffmpeg_exe(conf.ffmpeg), listener=listener,
                          no_cache=req.no_cache, stop=stop or StopControl(),
                          verify=verify, master=prepared.master, limit=limit)
    try:
        return converter.run()
    except OSError as exc:  # a read-only home, a file where a folder should be, a full disk: both faces say so
        error = environment_error(exc)
        if error is None:
            raise
        raise error from exc
    finally:
        if verify is not None:
            verify.transcriber.close()  # a listening server started for this run stops with it


def convert(
    req: ConvertRequest,
    *,
    listener: ev.Listener = ev.ignore,
    confirm_clamp: Callable[[int, int], ClampAnswer] = lambda size, cap: "set",
    cancel: threading.Event | None = None,
    conf: settings_mod.Settings | None = None,
    stop: StopControl | None = None,
) -> Path:
    """Convert `req.book` and return the first requested output (M4B file, MP3 folder, EPUB, ...)."""
    conf = conf or settings_mod.load()
    _warm(req, conf)
    built: list[Backend] = []

    def get_backend(options: RunOptions) -> Backend:
        built.append(build_backend(req, conf, options))
        return built[0]

    prepared = prepare(req, conf, get_backend, listener=listener, confirm_clamp=confirm_clamp)
    return run_prepared(prepared, built[0], req, conf, listener=listener, stop=stop or StopControl(cancel))


def choose_formats(req: ConvertRequest, conf: settings_mod.Settings) -> tuple[str, ...]:
    """Return the formats to write: --format, else the --output suffix's, else the settings' list.

    A --output suffix that is not among --format is an error naming both (issue 11).
    """
    if req.fmt:
        return tuple(outpath.choose_formats(list(parse_formats(req.fmt)), req.output, "m4b"))
    by_suffix = outpath.choose_formats(None, req.output, "")[0]
    return (by_suffix,) if by_suffix else parse_formats(None, conf.format)
