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
