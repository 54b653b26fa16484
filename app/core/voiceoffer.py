"""What a backend can give a book's characters (--cast auto): plain data on the shared ground floor.

It is the backend interface's answer (Backend.voice_offer, app/backends/base.py) and what
app/cast/voices.py assigns voices from. It lives here, importing nothing of the app, because
backends may not import app/cast and app/cast may not import backends (ARCHITECTURE.md): one
definition both sides may use.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class VoiceOffer:
    """The voices a backend can give characters."""

    #: (voice, speaker, gender): sglomni presets, installed Piper voices or a multi-speaker voice's
    #: speakers (speaker None for a voice of one), gender "F"/"M" where known.
    presets: tuple[tuple[str, str | None, str | None], ...] = ()
    #: The model designs a voice from a description (instructions).
    design: bool = False
    #: The backend varies the speaking rate per request (Piper).
    speed: bool = False
    #: (name, gender): timbre variants of the narrator's voice (Piper: pitch and formants moved), each
    #: a voice a listener tells apart from the others and from the narrator's.
    timbres: tuple[tuple[str, str | None], ...] = ()
    #: Reference clips a clone model could use (the voices folder), when it needs one.
    clips: tuple[Path, ...] = ()
    #: The narrator's preset voice (not given to a character), and its speaking rate.
    narrator_voice: str | None = None
    narrator_speed: float = 1.0
    #: A tag's delivery can shape a line (Backend.deliver): instructions per request, or Piper's rate.
    directions: bool = False
