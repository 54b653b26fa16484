"""Convert a book: the one function the CLI and the hub both call.

It resolves settings and options into a backend and a plan, asks the caller
the questions only a person can answer (through callbacks), and runs the
pipeline. It prints nothing: progress goes to the listener.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from app import options as options_mod
from app.core import settings as settings_mod
from app.audio.ffmpeg import ffmpeg_exe
from app.backends import create_backend, warm_backend
from app.backends.base import Backend
from app.book import ReadOptions, load_book, select_chapters
from app.book import lexicon as lexicon_mod
from app.book.export_text import write_markdown
from app.audio.cover import read_cover
from app.book.model import Book, Chapter
from app.book.spoken import Speaker, base_code, display_name
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


@dataclass
class ConvertRequest:
    """What a user asked for; None means "from settings, else the default"."""

    book: Path
    #: A file, or a folder when it ends in "/" (kept as the user wrote it: Path drops the slash).
    output: Path | str | None = None
    backend: str | None = None
    model: str | None = None
    chunk_size: int | None = None
    chapters: str | None = None
    fmt: str | None = None
    no_cache: bool = False
    title: str | None = None
    author: str | None = None
    voice: str | None = None
    instructions: str | None = None
    clone: Path | None = None
    transcription: str | None = None
    language: str | None = None
    whisper_model: str | None = None
    api_urls: tuple[str, ...] = ()
    concurrency: int | None = None
    port: int | None = None
    host: str | None = None
    profile: str | None = None
    #: Read front and back matter (licence, index, title pages) too.
    include_matter: bool = False
    #: How code blocks are read: "mention" (default), "skip" or "read".
    code: str = "mention"
    #: A lexicon file (word -> how to say it) on top of the app home's lexicon.toml.
    lexicon: Path | None = None
    #: "read" URLs and emails ("a link to debian dot org") or "skip" them.
    links: str = "read"
    params: dict = field(default_factory=dict)
    #: Hear every chunk and re-render what was said wrong; None: on for sglomni, off for piper.
    verify: bool | None = None
    #: Takes a chunk may get before it is reported as failing.
    verify_takes: int | None = None
    #: A server's /v1/audio/transcriptions to listen with, instead of local faster-whisper.
    asr_url: str | None = None
    #: A listening model of the sglomni catalog, started beside the TTS server for the run.
    asr_model: str | None = None
    #: Chapter loudness target (LUFS); mastering off with master=False.
    loudness: float | None = None
    master: bool = True
    #: Speaking rate (Piper's length_scale); None: the settings' speed.
    speed: float | None = None
    #: A picture for the M4B/EPUB cover instead of the book's own.
    cover: Path | None = None
    #: Say each chapter's title first; None: the settings' announce.
    announce: bool | None = None
    #: What the book lacks (--series, --series-index, --narrator, --year); None: the book's own.
    series: str | None = None
    series_index: str | None = None
    narrator: str | None = None
    year: str | None = None
    #: A library folder to file the finished audiobook in (DIR/Author/[Series/][N - ]Title/), or None.
    library: Path | None = None
    #: Which face asked ("command line" or "hub form"): messages name where a value came from.
    face: str = options_mod.COMMAND_LINE
    #: A voice per character: a cast file (FILE.toml) or "auto"; None: one narrator reads the book.
    cast: str | None = None
    #: An OpenAI-compatible server whose language model attributes the quotations the rules leave unsure.
    cast_llm: str | None = None


#: Answer to "chunk size exceeds what the model can say in one request".
ClampAnswer = str  # "set" | "keep" | "cancel"


def check_numbers(req: ConvertRequest) -> None:
    """Raise InputError for a numeric option outside its range (before any work starts)."""
    if req.chunk_size is not None and req.chunk_size < 1:
        raise InputError(f"--chunk-size must be a positive number of words, not {req.chunk_size}")
    if req.concurrency is not None and req.concurrency < 1:
        raise InputError(f"--concurrency must be at least 1 request in flight, not {req.concurrency}",
                         hint="Omit it to let the client adapt")
    if req.port is not None and not 1 <= req.port <= 65535:
        raise InputError(f"--port must be between 1 and 65535, not {req.port}")


def resolve_options(req: ConvertRequest, conf: settings_mod.Settings) -> RunOptions:
    """Return the run's options: `req` (from the command line or the hub form), then `conf`, then defaults."""
    return options_mod.resolve_run(req, conf, face=req.face)


def choose_backend_name(req: ConvertRequest, conf: settings_mod.Settings) -> str:
    """Return the backend to use: the option, the setting, else sglomni when configured, else piper."""
    return resolve_options(req, conf).backend


def read_book(req: ConvertRequest) -> Book:
    """Load the book and apply --chapters."""
    return _read_selection(req)[0]


def _read_selection(req: ConvertRequest, conf: settings_mod.Settings | None = None) -> tuple[Book, Book]:
    """Return (the chapters to convert, the whole book), with --cover and --no-announce applied."""
    conf = conf or settings_mod.load()
    options = ReadOptions(include_matter=req.include_matter, code=req.code, language=req.language)
    full = load_book(req.book, title=req.title, author=req.author, options=options)
    full = options_mod.with_book_details(full, series=req.series, series_index=req.series_index,
                                         narrator=req.narrator, year=req.year)
    announce = options_mod.announce_titles(req, conf)
    cover = read_cover(req.cover, ffmpeg_exe(conf.ffmpeg)) if req.cover is not None else None
    if not announce or cover is not None:
        full = replace(without_headings(full) if not announce else full, cover=cover or full.cover)
    if req.chapters is None:  # --chapters "" is a mistake, not "all of them"
        return full, full
    return select_chapters(full, req.chapters), full


def without_headings(book: Book) -> Book:
    """Return the book with each chapter's spoken heading left out (its marker keeps the title)."""
    def quiet(ch: Chapter) -> Chapter:
        heading = ch.paragraphs[0].casefold().rstrip(".") == ch.title.casefold().rstrip(".")
        return replace(ch, paragraphs=ch.paragraphs[1:]) if heading and len(ch.paragraphs) > 1 else ch

    return replace(book, chapters=tuple(quiet(c) for c in book.chapters))


def speaker_for(req: ConvertRequest, book: Book, backend: Backend | None = None) -> Speaker:
    """Return the spoken-forms writer: the book's language (or --language), its hints, the user's lexicons.

    The backend says whether it takes phonemes (Piper does): then the book's
    IPA hints are passed on as phonemes, else their aliases are said.
    """
    home_file = lexicon_mod.default_lexicon_file()
    words = lexicon_mod.user_words(home_file if home_file.is_file() else None, req.lexicon)
    if req.links not in ("read", "skip"):
        raise InputError(f"--links must be 'read' or 'skip', not {req.links!r}")
    return Speaker(req.language or book.language, words, hints=book.lexicon,
                   phonemes=backend.phoneme_markup if backend is not None else None, links=req.links)


def export_text(req: ConvertRequest, path: Path, conf: settings_mod.Settings | None = None) -> Path:
    """Write exactly what would be spoken, chapter by chapter, as Markdown; return the file."""
    book = read_book(req)
    speaker = speaker_for(req, book, build_backend(req, conf or settings_mod.load()))
    titles = {c.index: speaker(c.title) for c in book.chapters}
    from app.castview import find_book_cast, spoken_with_speakers

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
        options = resolve_options(req, conf)
    except Exception:  # noqa: BLE001 - said again, in order, by resolve_options below
        return
    warm_backend(options.backend, options.backend_options)


def build_backend(req: ConvertRequest, conf: settings_mod.Settings,
                  options: RunOptions | None = None) -> Backend:
    """Return the backend `req` asks for, configured by the options resolved once."""
    options = options or resolve_options(req, conf)
    return create_backend(options.backend, options.backend_options)


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
    if req.cast:
        from app.castview import cast_for
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
