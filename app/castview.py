"""The cast in a conversion: found in the book (or its Markdown marks, or asked of a language
model), given voices (a cast file or --cast auto), checked by the backend, and shown.

app/convert.py plans a cast run with cast_for; `--export-cast` (with --cast: each
character's voice too), `--export-text`'s speaker marks, `--preview-cast NAME` and the
hub's Cast screen call the rest: both faces, the same functions.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

from app.backends.base import Backend, VoiceOptions
from app.book.formats.mdrender import speaker_marks
from app.book.model import Book
from app.book.normalize import is_speakable
from app.book.spoken import Speaker
from app.cast.export import cast_to_json
from app.cast.marks import cast_from_marks
from app.cast.segments import join, spoken_segments
from app.cast import castfile, find_cast, llm, voices
from app.core.errors import InputError, ServerUnavailable, environment_error
from app.core.files import write_bytes_atomic
from app.core.urls import check_server_url
from app.core import paths
from app.core import settings as settings_mod
from app.pipeline import casting
from app.pipeline import events as ev
from app.preview import preview
from app.request import ConvertRequest, build_backend, read_book


def spoken_with_speakers(book: Book, speaker: Speaker, cast) -> tuple[Book, dict]:
    """Return the book in spoken form and, for --export-text, its paragraphs' pieces with their speakers.

    A paragraph with an attributed quotation is spoken piece by piece, as a cast run speaks it
    (app/pipeline/plan.py), so the file read back is the text that run would say.
    """

    by_paragraph: dict[tuple[int, int], list] = {}
    for q in cast.quotes:
        if q.speaker:
            by_paragraph.setdefault((q.chapter, q.paragraph), []).append(q)
    chapters, speakers = [], {}
    for chapter in book.chapters:
        paragraphs = []
        for n, written in enumerate(chapter.paragraphs):
            quotes = by_paragraph.get((chapter.index, n))
            if not quotes:
                said = speaker(written)
                if is_speakable(said):
                    paragraphs.append(said)
                continue
            pieces = spoken_segments(written, quotes, speaker)
            if pieces:
                speakers[(chapter.index, len(paragraphs))] = [(t, seg.speaker, seg.spaced) for t, seg in pieces]
                paragraphs.append(join(pieces))
        if paragraphs:
            chapters.append(dataclasses.replace(chapter, paragraphs=tuple(paragraphs)))
    return dataclasses.replace(book, chapters=tuple(chapters), language=speaker.language.code), speakers


#: A Markdown file larger than this is not read again for its speaker marks.
MAX_MARKED_BYTES = 64 * 1024 * 1024


def find_book_cast(req: ConvertRequest, book: Book | None = None, listener: ev.Listener = ev.ignore):
    """Return the cast of the book `req` converts (its chapters as they are planned).

    A Markdown book with speaker marks (--export-text's) has the cast its marks say;
    any other book, the one found in its text (app/cast).
    """

    book = book if book is not None else read_book(req)
    source = Path(book.source)
    if source.suffix.lower() in (".md", ".markdown") and source.is_file() \
            and source.stat().st_size <= MAX_MARKED_BYTES:
        marks = speaker_marks(source.read_text(encoding="utf-8", errors="replace"))
        if marks:
            cast, lost = cast_from_marks(book, marks)
            if lost:
                listener(ev.Message(f"{lost} speaker marks of {source.name} match no text of the chapters read"))
            return cast
    cast = find_cast(book)
    return refine_cast(req, book, cast, listener) if req.cast_llm else cast


def refine_cast(req: ConvertRequest, book: Book, cast, listener: ev.Listener = ev.ignore):
    """Return `cast` with the unsure attributions asked of the language model at `req.cast_llm`."""

    url = check_server_url(req.cast_llm, what="--cast-llm")
    client = llm.ChatClient(url, paths.cache_dir() / "cast-llm")
    try:
        refined, changed = llm.refine(book, cast, client)
    except ServerUnavailable:  # the HTTP door names an sgl-omni server: say which server this is
        raise ServerUnavailable(f"The language model server at {url} does not answer",
                                hint="Start it, or drop --cast-llm to keep the rules' attributions") from None
    finally:
        client.close()
    asked = sum(1 for q in refined.quotes if q.method == "llm")
    listener(ev.Message(f"Cast: the language model ({client.model_name or 'no model'}) answered for {asked} unsure "
                        f"quotations and changed {changed}"))
    return refined


def export_cast(req: ConvertRequest, path: Path) -> Path:
    """Write the characters and quotations found in the book as JSON (--export-cast); return the file."""
    book = read_book(req)
    cast = find_book_cast(req, book)
    found = cast_to_json(cast)
    if req.cast:  # with --cast: the voice each character gets, as the run would give it
        chosen = {row.name: row.voice for row in cast_view(req, book=book, cast=cast).rows}
        for character in found["characters"]:
            character["voice"] = chosen.get(character["name"], "")
    data = json.dumps(found, ensure_ascii=False, indent=1)
    path = Path(path).expanduser()
    try:
        write_bytes_atomic(path, data.encode("utf-8") + b"\n")
    except OSError as exc:
        raise environment_error(exc) or InputError(f"Cannot write {path} ({exc.strerror or exc})") from exc
    return path


def cast_file_for(req: ConvertRequest, cast, backend: Backend, listener: ev.Listener = ev.ignore):
    """Return the cast file `req.cast` names, or the one --cast auto makes from what `backend` offers."""
    if req.cast != "auto":
        return castfile.load(Path(req.cast))
    offer = backend.voice_offer()
    if backend.name == "piper" and not offer.presets and offer.timbres:
        listener(ev.Message(f"Piper has one voice here ({backend.voice_name}): characters get timbre variants of it "
                            f"(pitch and formants moved), the narrator the voice as it is"))
    elif backend.name == "piper" and not offer.presets:
        listener(ev.Message(f"Piper has one voice here ({backend.voice_name}): characters differ only by speed "
                            f"and delivery; install another voice or a multi-speaker one for distinct voices "
                            f"(--list-voices)"))
    assignment = voices.auto_cast(cast, offer, req.cast_voices)  # the backend's VoiceOffer is the cast's Offer (app/core/voiceoffer.py)
    for note in assignment.notes:
        listener(ev.Message(note))
    return assignment.cast


def cast_for(req: ConvertRequest, book: Book, backend: Backend, listener: ev.Listener = ev.ignore):
    """Return the run's casting: who says each quote of `book` and in which voice, checked by `backend`."""

    cast = find_book_cast(req, book, listener)
    built, notes = casting.build(cast, cast_file_for(req, cast, backend, listener), backend)
    for note in notes:
        listener(ev.Message(note))
    voiced = len(built.voices)
    listener(ev.Message(f"Cast: {voiced} of {len(cast.characters)} characters in voices of their own, "
                        f"{sum(1 for q in cast.quotes if built.role(q.speaker))} of {len(cast.quotes)} quotations"))
    return built


@dataclass(frozen=True)
class CastRow:
    """One character as shown: its name, lines, gender and voice, and the first line it says."""

    name: str
    aliases: tuple[str, ...]
    gender: str | None
    lines: int
    #: How its voice is described ("voice Vivian", "timbre alto", "the narrator's voice").
    voice: str
    #: Its first quotation as printed (without marks), for a preview.
    first_line: str | None


@dataclass(frozen=True)
class CastView:
    rows: tuple[CastRow, ...]
    #: What a user should know (shared voices, names not found, a single Piper voice).
    notes: tuple[str, ...]
    quotes: int


def describe_voice(voice: VoiceOptions | None, run: VoiceOptions) -> str:
    """Return a voice as a short phrase, naming only what differs from the run's own."""
    if voice is None or voice == run:
        return "the narrator's voice"
    parts = [f"voice {voice.voice}" if voice.voice and voice.voice != run.voice else "",
             f"speaker {voice.speaker}" if voice.speaker and voice.speaker != run.speaker else "",
             f"timbre {voice.timbre}" if voice.timbre and voice.timbre != run.timbre else "",
             f"clone {Path(voice.clone).name}" if voice.clone and voice.clone != run.clone else "",
             f"\u201c{voice.instructions}\u201d" if voice.instructions and voice.instructions != run.instructions else "",
             f"speed {voice.speed:g}" if voice.speed is not None and voice.speed != run.speed else ""]
    return ", ".join(p for p in parts if p) or "the narrator's voice"


def cast_view(req: ConvertRequest, conf: settings_mod.Settings | None = None, *, book: Book | None = None,
              cast=None) -> CastView:
    """Return the characters of `req.book` and, with `req.cast`, the voice each gets on the chosen backend.

    `book` and `cast`, when the caller has them, are not read and found again.
    """

    conf = conf or settings_mod.load()
    book = book if book is not None else read_book(req)
    notes: list[str] = []
    listener = _collect(notes)
    cast = cast if cast is not None else find_book_cast(req, book, listener)
    voices: dict[str, VoiceOptions] = {}
    run = VoiceOptions()
    if req.cast:
        backend = build_backend(req, conf)
        built, more = casting.build(cast, cast_file_for(req, cast, backend, listener), backend)
        notes += more
        voices, run = dict(built.voices), built.run_voice
    first: dict[str, str] = {}
    for q in cast.quotes:
        if q.speaker and q.speaker not in first:
            first[q.speaker] = q.text
    rows = tuple(CastRow(c.name, c.aliases, c.gender, c.lines,
                         describe_voice(voices.get(c.name), run) if req.cast else "",
                         first.get(c.name)) for c in cast.characters)
    return CastView(rows, tuple(notes), len(cast.quotes))


def preview_line(req: ConvertRequest, name: str, conf: settings_mod.Settings | None = None) -> Path:
    """Speak character `name`'s first line in its cast voice into a WAV (see app.preview); return it."""

    conf = conf or settings_mod.load()
    book = read_book(req)
    cast = find_book_cast(req, book)
    match, _ = casting.match_names(cast, [name])
    if name not in match:
        known = ", ".join(c.name for c in cast.characters[:6]) or "none"
        raise InputError(f"No character {name!r} in this book (characters: {known})",
                         hint="--export-cast lists the characters")
    line = next((q.text for q in cast.quotes if q.speaker == match[name]), None)
    if not line:
        raise InputError(f"{match[name]} says nothing in the chapters read", hint="Choose another character")
    voice = None
    if req.cast:
        backend = build_backend(req, conf)
        built, _ = casting.build(cast, cast_file_for(req, cast, backend), backend)
        voice = built.voice_for(match[name])
    return preview(req, line, conf, voice=voice)


def _collect(lines: list[str]) -> ev.Listener:
    def listen(event) -> None:
        if isinstance(event, ev.Message):
            lines.append(event.text)
    return listen
