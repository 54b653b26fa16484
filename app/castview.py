"""The cast of a book as both faces show it: each character, its lines and the voice it gets.

`--export-cast` (with --cast: each character's voice too), `--preview-cast NAME` and
the hub's Cast screen all call these functions.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app import settings as settings_mod
from app.backends.base import VoiceOptions
from app.convert import ConvertRequest, build_backend, cast_file_for, find_book_cast, read_book
from app.errors import InputError
from app.pipeline import events as ev


@dataclass(frozen=True)
class CastRow:
    """One character as shown: its name, lines, gender and voice, and the first line it says."""

    name: str
    aliases: tuple[str, ...]
    gender: str | None
    lines: int
    #: How its voice is described ("voice Vivian", "speed 0.86", "the narrator's voice").
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
             f"clone {Path(voice.clone).name}" if voice.clone and voice.clone != run.clone else "",
             f"\u201c{voice.instructions}\u201d" if voice.instructions and voice.instructions != run.instructions else "",
             f"speed {voice.speed:g}" if voice.speed is not None and voice.speed != run.speed else ""]
    return ", ".join(p for p in parts if p) or "the narrator's voice"


def cast_view(req: ConvertRequest, conf: settings_mod.Settings | None = None) -> CastView:
    """Return the characters of `req.book` and, with `req.cast`, the voice each gets on the chosen backend."""
    from app.pipeline import casting

    conf = conf or settings_mod.load()
    book = read_book(req)
    notes: list[str] = []
    listener = _collect(notes)
    cast = find_book_cast(req, book, listener)
    voices: dict[str, VoiceOptions] = {}
    run = VoiceOptions()
    if req.cast:
        backend = build_backend(req, conf)
        built, more = casting.build(cast, cast_file_for(req, cast, backend, listener), backend, book)
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
    from app.pipeline import casting
    from app.preview import preview

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
        built, _ = casting.build(cast, cast_file_for(req, cast, backend), backend, book)
        voice = built.voice_for(match[name])
    return preview(req, line, conf, voice=voice)


def _collect(lines: list[str]) -> ev.Listener:
    def listen(event) -> None:
        if isinstance(event, ev.Message):
            lines.append(event.text)
    return listen
