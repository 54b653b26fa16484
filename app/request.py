"""What a face asks for (ConvertRequest), and what every facade builds from it first.

The command line and the hub fill a ConvertRequest; app/convert.py, app/castview.py and
app/preview.py read its book, build its backend and its speaker with these functions, so the
three facades share them without importing each other in a circle.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from app import options as options_mod
from app.audio.cover import read_cover
from app.audio.ffmpeg import ffmpeg_exe
from app.backends import create_backend
from app.backends.base import Backend
from app.book import ReadOptions, load_book, select_chapters
from app.book import lexicon as lexicon_mod
from app.book.model import Book, Chapter
from app.book.spoken import Speaker
from app.core import settings as settings_mod
from app.core.errors import InputError
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
    #: --cast auto: at most this many distinct character voices (None: as many as the backend offers).
    cast_voices: int | None = None


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


def build_backend(req: ConvertRequest, conf: settings_mod.Settings,
                  options: RunOptions | None = None) -> Backend:
    """Return the backend `req` asks for, configured by the options resolved once."""
    options = options or resolve_options(req, conf)
    return create_backend(options.backend, options.backend_options)
