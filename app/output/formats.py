"""Output formats: the one table of what a run can write, parsing `--format m4b,epub,vtt`, and
naming each output beside the others.

Everything that lists formats derives from OUTPUTS: the CLI's `--format` help and its errors,
the hub's choices (DESCRIPTIONS), outpath's suffix and folder rules, and the README row (a test compares it).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import ConfigError


@dataclass(frozen=True)
class OutputFormat:
    """One kind of output a run can write."""

    #: The name `--format` and settings use.
    name: str
    #: What it is, for the hub's choices.
    description: str
    #: What it is, in a few words, for `--help`.
    short: str
    #: The file suffix it is written under (the MP3 folder's files have it).
    suffix: str
    #: Whether a file's first bytes are this format: an existing file we may replace must be.
    looks_like: Callable[[bytes], bool]
    #: Whether it is the narration itself; the others are text timed on the audio.
    audio: bool = False
    #: Whether it is written as one folder of files (one per chapter) rather than one file.
    folder: bool = False
    #: Whether it needs sentence timings, and so the AAC chapter encode whose timeline it follows.
    read_along: bool = False


#: Every output a run can write, in the order help, the hub and messages list them; the first is the default.
OUTPUTS: dict[str, OutputFormat] = {f.name: f for f in (
    # ISO BMFF starts with an "ftyp" box; MP3 with an ID3 tag or a frame sync.
    OutputFormat("m4b", "M4B audiobook with chapters", "the default", ".m4b",
                 lambda head: head[4:8] == b"ftyp", audio=True),
    OutputFormat("mp3", "MP3, one per chapter (a folder)", "one per chapter, in a folder", ".mp3",
                 lambda head: head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0),
                 audio=True, folder=True),
    # A read-along EPUB is a zip; captions are text that starts with a header or a cue number.
    OutputFormat("epub", "read-along EPUB 3 (text + narration, Media Overlays)", "read-along EPUB 3", ".epub",
                 lambda head: head[:4] == b"PK\x03\x04", read_along=True),
    OutputFormat("srt", "SRT captions, one cue per sentence", "captions", ".srt",
                 lambda head: head.lstrip(b"\xef\xbb\xbf")[:1].isdigit(), read_along=True),
    OutputFormat("vtt", "WebVTT captions, one cue per sentence", "captions", ".vtt",
                 lambda head: head.lstrip(b"\xef\xbb\xbf").startswith(b"WEBVTT"), read_along=True),
)}
#: Format names, in order.
FORMATS = tuple(OUTPUTS)
#: What each format is, for the hub.
DESCRIPTIONS = {name: f.description for name, f in OUTPUTS.items()}
#: Formats that need sentence timings, and so the AAC chapter encode whose timeline they follow.
READ_ALONG = frozenset(name for name, f in OUTPUTS.items() if f.read_along)
#: Formats that are the narration itself (the rest are text beside it).
AUDIO_FORMATS = frozenset(name for name, f in OUTPUTS.items() if f.audio)
#: Formats written as one folder of files (one per chapter) rather than one file.
FOLDER_FORMATS = frozenset(name for name, f in OUTPUTS.items() if f.folder)
#: Output suffix -> the format written under it.
SUFFIX_FORMATS = {f.suffix: name for name, f in OUTPUTS.items()}
#: The example the help and hints give: an audiobook with its read-along text and captions.
EXAMPLE = "m4b,epub,vtt"


def format_help() -> str:
    """Return the `--format` help: every format with what it is, and an example."""
    listed = ", ".join(f"{name} ({f.short})" for name, f in OUTPUTS.items())
    return f"comma-separated outputs, siblings with one stem: {listed}; e.g. {EXAMPLE}"


def parse_formats(spec: str | None, default: str = "m4b") -> tuple[str, ...]:
    """Return the formats a comma-separated spec names, in its order, without repeats."""
    text = (spec or default or "m4b").strip()
    names = [part.strip().lower().lstrip(".") for part in text.split(",")]
    if not any(names):
        raise ConfigError("--format is empty", hint=f"Give one or more of: {', '.join(FORMATS)} (e.g. {EXAMPLE})")
    unknown = [n for n in names if n and n not in FORMATS]
    if unknown or "" in names:
        bad = ", ".join(repr(n) for n in unknown) or "an empty entry"
        raise ConfigError(f"--format {text!r}: unknown format {bad}. Valid formats: {', '.join(FORMATS)}",
                          hint=f"Separate formats with commas, e.g. --format {EXAMPLE}")
    return tuple(dict.fromkeys(names))


def sibling_outputs(primary: Path, formats: tuple[str, ...]) -> dict[str, Path]:
    """Return each format's output path: siblings sharing the stem of `primary`.

    `primary` is `dir/Book.m4b` (or `dir/Book` for a folder of MP3s); the MP3
    folder is `dir/Book`, the others `dir/Book.epub`, `dir/Book.vtt`, ...
    """
    stem = primary.with_suffix("") if primary.suffix.lower().lstrip(".") in FORMATS else primary
    return {fmt: stem if fmt == "mp3" else stem.with_name(f"{stem.name}.{fmt}") for fmt in formats}
