"""Output formats: parsing `--format m4b,epub,vtt` and naming each output beside the others."""
from __future__ import annotations

from pathlib import Path

from app.errors import ConfigError

#: Every output a run can write, in the order they are listed in help and messages.
FORMATS = ("m4b", "mp3", "epub", "srt", "vtt")
#: What each format is, for help text and the hub.
DESCRIPTIONS = {
    "m4b": "M4B audiobook with chapters",
    "mp3": "MP3, one per chapter (a folder)",
    "epub": "read-along EPUB 3 (text + narration, Media Overlays)",
    "srt": "SRT captions, one cue per sentence",
    "vtt": "WebVTT captions, one cue per sentence",
}
#: Formats that need sentence timings, and so the AAC chapter encode whose timeline they follow.
READ_ALONG = frozenset({"epub", "srt", "vtt"})


def parse_formats(spec: str | None, default: str = "m4b") -> tuple[str, ...]:
    """Return the formats a comma-separated spec names, in its order, without repeats."""
    text = (spec or default or "m4b").strip()
    names = [part.strip().lower().lstrip(".") for part in text.split(",")]
    if not any(names):
        raise ConfigError("--format is empty", hint=f"Give one or more of: {', '.join(FORMATS)} (e.g. m4b,epub,vtt)")
    unknown = [n for n in names if n and n not in FORMATS]
    if unknown or "" in names:
        bad = ", ".join(repr(n) for n in unknown) or "an empty entry"
        raise ConfigError(f"--format {text!r}: unknown format {bad}. Valid formats: {', '.join(FORMATS)}",
                          hint="Separate formats with commas, e.g. --format m4b,epub,vtt")
    return tuple(dict.fromkeys(names))


def sibling_outputs(primary: Path, formats: tuple[str, ...]) -> dict[str, Path]:
    """Return each format's output path: siblings sharing the stem of `primary`.

    `primary` is `dir/Book.m4b` (or `dir/Book` for a folder of MP3s); the MP3
    folder is `dir/Book`, the others `dir/Book.epub`, `dir/Book.vtt`, ...
    """
    stem = primary.with_suffix("") if primary.suffix.lower().lstrip(".") in FORMATS else primary
    return {fmt: stem if fmt == "mp3" else stem.with_name(f"{stem.name}.{fmt}") for fmt in formats}
