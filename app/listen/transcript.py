"""What a recognizer heard: text, language and word timings; the timing sidecar's format."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol
from pathlib import Path

#: Version of the timing sidecar's layout (documented in app/docs/verification.md).
TIMINGS_VERSION = 1


@dataclass(frozen=True)
class Word:
    """One recognized word and when it was said, in seconds from the chunk's start."""

    text: str
    start: float
    end: float
    probability: float | None = None


@dataclass(frozen=True)
class Segment:
    """One recognized phrase and its span, in seconds from the chunk's start."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class Transcript:
    """What was heard in one clip."""

    text: str
    words: tuple[Word, ...] = ()
    segments: tuple[Segment, ...] = ()
    #: ISO code the recognizer detected (None when it cannot tell, e.g. an English-only model).
    language: str | None = None
    language_probability: float | None = None
    #: Seconds of audio that were heard.
    duration: float | None = None

    def timings(self) -> dict[str, Any]:
        """Return the JSON-ready timing sidecar: words and segments with start/end seconds."""
        return {"version": TIMINGS_VERSION, "text": self.text, "language": self.language,
                "duration": self.duration,
                "words": [asdict(w) for w in self.words],
                "segments": [asdict(s) for s in self.segments]}


class Transcriber(Protocol):
    """Anything that turns a WAV file into a Transcript (local Whisper, a server route)."""

    #: A short description that goes into the verification settings' fingerprint.
    identity: str

    def transcribe(self, wav: Path, *, language: str | None = None) -> Transcript:
        """Return what is said in `wav`; `language` is an ISO code hint or None."""
        ...

    def close(self) -> None:
        """Release what the transcriber holds (a connection pool, a server it started)."""
        ...


__all__ = ["Segment", "Transcriber", "Transcript", "Word", "TIMINGS_VERSION", "field"]
