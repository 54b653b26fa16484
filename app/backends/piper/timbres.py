"""The timbre variants Piper offers a book's characters: the catalogue in timbres.toml, beside this file.

One Piper voice, moved in pitch, formants and brightness after synthesis (app/audio/timbre.py), gives
the characters voices a listener tells apart where no second voice is installed. The narrator keeps
the voice unmoved; a character's voice names its variant (VoiceOptions.timbre).
"""
from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.audio import timbre as timbre_shift
from app.audio.ffmpeg import ffmpeg_exe
from app.audio.timbre import Timbre
from app.core.errors import ConfigError

CATALOGUE_FILE = Path(__file__).with_name("timbres.toml")


@dataclass(frozen=True)
class Variant:
    """A named timbre of the catalogue, with the gender a listener takes it for."""

    name: str
    gender: str | None
    timbre: Timbre


@functools.cache
def catalogue() -> tuple[Variant, ...]:
    """Return the catalogue's variants in file order (as --cast auto hands them out)."""
    data = tomllib.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    return tuple(Variant(name, entry.get("gender"),
                         Timbre(float(entry["semitones"]), float(entry["formant"]), float(entry.get("tilt_db", 0))))
                 for name, entry in data.items())


def variant(name: str) -> Variant:
    """Return the variant called `name`; raise ConfigError listing the catalogue's names."""
    for v in catalogue():
        if v.name == name.strip().lower():
            return v
    raise ConfigError(f"Piper has no timbre '{name}'",
                      hint=f"Its timbres: {', '.join(v.name for v in catalogue())}")


def identity(name: str) -> dict[str, Any]:
    """Return what a chunk's cache key holds of variant `name`: its values, so a retuned variant re-renders."""
    found = variant(name)
    return {"name": found.name, "semitones": found.timbre.semitones, "formant": found.timbre.formant,
            "tilt_db": found.timbre.tilt_db}


def can_shift() -> bool:
    """Return whether variants can be made here (the bundled ffmpeg has the rubberband filter)."""
    try:
        return timbre_shift.has_rubberband(ffmpeg_exe())
    except ConfigError:
        return False


def shift(name: str, spoken: Path, out_path: Path, sample_rate: int) -> None:
    """Write `spoken` (Piper's WAV) moved by variant `name` to `out_path`."""
    timbre_shift.apply(variant(name).timbre, spoken, out_path, sample_rate, ffmpeg_exe())
