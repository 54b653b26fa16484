"""The cast file (--cast FILE.toml): a voice for the narrator and for each character.

    [narrator]
    instructions = "A calm, warm narrator"
    [character."Ellen Harlow"]
    instructions = "A young woman, lively and quick-witted"   # or voice = "Vivian",
    [character."Mr. Harlow"]                                   # or clone = "voices/liz.wav"
    voice = "Uncle_Fu"                                         #    (+ transcription)
    speed = 0.9

Every key of an entry is optional; an entry says only what differs from the run's
own voice (--voice, --instructions, ...). A clone path is read relative to the cast
file's folder, else to the current folder. Whether the model can honour an entry is
the backend's to say (app/convert.py asks it before any synthesis).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from app.core.errors import InputError

#: A cast file larger than this is not one (a thousand characters fit in 200 KB).
MAX_CAST_FILE_BYTES = 1024 * 1024
#: Piper's speaking rates (app/backends/piper/backend.py SPEED_RANGE), checked here to fail before reading a book.
SPEED_RANGE = (0.5, 2.0)


@dataclass(frozen=True)
class VoiceEntry:
    """One role's voice: only what differs from the run's own voice is set."""

    #: A preset speaker (sglomni) or an installed Piper voice.
    voice: str | None = None
    #: Voice design / performance direction.
    instructions: str | None = None
    #: A reference clip to clone, and its transcript.
    clone: Path | None = None
    transcription: str | None = None
    #: A speaker of a multi-speaker Piper voice, by name or number.
    speaker: str | None = None
    #: Speaking rate (Piper): 1 is the voice's own.
    speed: float | None = None
    #: A timbre variant of the voice (Piper: "deep", "alto", ...; --list-voices names them).
    timbre: str | None = None

    def describe(self) -> str:
        """Return the entry as a short phrase for messages and the hub ("voice Vivian, speed 0.9")."""
        parts = [f"voice {self.voice}" if self.voice else "",
                 f"speaker {self.speaker}" if self.speaker else "",
                 f"timbre {self.timbre}" if self.timbre else "",
                 f"clone {self.clone.name}" if self.clone else "",
                 f"\u201c{self.instructions}\u201d" if self.instructions else "",
                 f"speed {self.speed:g}" if self.speed is not None else ""]
        return ", ".join(p for p in parts if p) or "the run's voice"


_KEYS = tuple(f.name for f in fields(VoiceEntry))


@dataclass(frozen=True)
class CastFile:
    """Who speaks in which voice: the narrator's entry and each character's, by name."""

    narrator: VoiceEntry | None
    #: (character name, entry) in file order.
    characters: tuple[tuple[str, VoiceEntry], ...]

    def entry(self, name: str) -> VoiceEntry | None:
        return dict(self.characters).get(name)


def load(path: Path) -> CastFile:
    """Read and check a cast file; raise InputError naming the file, the entry and what to write."""
    path = Path(path).expanduser()
    hint = "See the README's 'A cast of voices' for the file's form"
    try:
        if path.stat().st_size > MAX_CAST_FILE_BYTES:
            raise InputError(f"Cast file {path} is larger than {MAX_CAST_FILE_BYTES // 1024} KB: not a cast file",
                             hint=hint)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"Cast file {path} does not exist",
                         hint="Pass --cast auto, or write one (--export-cast lists the characters)") from None
    except UnicodeDecodeError:
        raise InputError(f"Cast file {path} is not UTF-8 text", hint=hint) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"Cast file {path} is not valid TOML ({exc})", hint=hint) from None
    except OSError as exc:
        raise InputError(f"Cannot read cast file {path} ({exc.strerror or exc})", hint=hint) from None
    return parse(data, path)


def parse(data: dict[str, Any], path: Path) -> CastFile:
    """Return the CastFile of parsed TOML `data` read from `path`."""
    hint = "See the README's 'A cast of voices' for the file's form"
    unknown = sorted(set(data) - {"narrator", "character"})
    if unknown:
        raise InputError(f"Cast file {path}: unknown table [{unknown[0]}]; use [narrator] and "
                         f"[character.\"Name\"]", hint=hint)
    narrator = _entry(data["narrator"], "[narrator]", path) if "narrator" in data else None
    table = data.get("character", {})
    if not isinstance(table, dict):
        raise InputError(f"Cast file {path}: 'character' must be tables like [character.\"Name\"]", hint=hint)
    characters = tuple((name.strip(), _entry(value, f'[character."{name}"]', path)) for name, value in table.items())
    if any(not name for name, _ in characters):
        raise InputError(f"Cast file {path}: a character has an empty name", hint=hint)
    return CastFile(narrator, characters)


def _entry(value: Any, where: str, path: Path) -> VoiceEntry:
    """Return one table as a VoiceEntry, checking every key's type."""
    if not isinstance(value, dict):
        raise InputError(f"Cast file {path}: {where} must be a table of voice settings",
                         hint="e.g. voice = \"Vivian\" or instructions = \"...\" under it")
    for key in value:
        if key not in _KEYS:
            raise InputError(f"Cast file {path}: {where} has unknown key '{key}'",
                             hint=f"An entry takes {', '.join(_KEYS)}")
    text = {}
    for key in ("voice", "instructions", "transcription", "timbre"):
        if key in value:
            if not isinstance(value[key], str) or not value[key].strip():
                raise InputError(f"Cast file {path}: {where} {key} must be non-empty text")
            text[key] = value[key].strip()
    speaker = value.get("speaker")
    if speaker is not None:
        if isinstance(speaker, bool) or not isinstance(speaker, (str, int)) or not str(speaker).strip():
            raise InputError(f"Cast file {path}: {where} speaker must be a speaker's name or number")
        speaker = str(speaker).strip()
    speed = value.get("speed")
    if speed is not None:
        low, high = SPEED_RANGE
        if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not low <= speed <= high:
            raise InputError(f"Cast file {path}: {where} speed must be a number from {low:g} to {high:g}, "
                             f"not {speed!r}", hint="1 is the voice's own rate")
        speed = float(speed)
    clone = _clip(value["clone"], where, path) if "clone" in value else None
    if "transcription" in text and clone is None:
        raise InputError(f"Cast file {path}: {where} has a transcription but no clone",
                         hint="The transcription is the words spoken in the clone clip")
    return VoiceEntry(clone=clone, speaker=speaker, speed=speed, **text)


def _clip(value: Any, where: str, path: Path) -> Path:
    """Return the clone clip's path: beside the cast file, else from the current folder."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"Cast file {path}: {where} clone must be the path of a WAV clip")
    raw = Path(value.strip()).expanduser()
    for candidate in ([raw] if raw.is_absolute() else [path.parent / raw, raw]):
        if candidate.is_file():
            return candidate.resolve()
    raise InputError(f"Cast file {path}: {where} clone clip {value} does not exist",
                     hint=f"Give the clip's path relative to {path.parent} or an absolute one")
