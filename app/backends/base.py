"""The interface every TTS backend implements, and what the pipeline may ask of it.

A backend turns one chunk of text into one WAV file. It knows nothing of
books, chapters, caches or the CLI: the pipeline calls it, never the other way.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from app.core.voiceoffer import VoiceOffer
from app.core.errors import ConfigError


@dataclass(frozen=True)
class VoiceOptions:
    """What the user asked the voice to be; each backend uses what applies."""

    #: A preset or uploaded voice name (--voice).
    voice: str | None = None
    #: Voice design / performance direction (--instructions).
    instructions: str | None = None
    #: A reference clip to clone (--clone), and its transcript (--transcription).
    clone: Path | None = None
    transcription: str | None = None
    language: str | None = None
    #: Whisper model that transcribes a --clone clip without --transcription
    #: (a size such as "base.en", or a local CTranslate2 model folder).
    whisper_model: str | None = None
    #: Speaking rate (--speed): 1 is the voice's own, 1.5 half as fast again; None: the voice's own.
    speed: float | None = None
    #: A speaker of a multi-speaker Piper voice, by name or number (a cast file's `speaker`).
    speaker: str | None = None
    #: A timbre variant of the voice (Piper: moved pitch and formants, app/backends/piper/timbres.toml).
    timbre: str | None = None
    #: Extra backend-specific parameters; part of the cache key.
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Delivery:
    """How a dialogue tag says a line ("Whispering."), as plain voice options: no backend knows the cast."""

    #: The words of the direction, for a model that reads instructions.
    words: str
    #: Speaking rate relative to the voice's (below 1: slower for a hushed tag), or None: the same rate.
    pace: float | None = None


class Backend(ABC):
    """A source of speech. Used as a context manager around a run."""

    #: Registry name (--backend).
    name: str = ""

    @property
    @abstractmethod
    def default_chunk_size(self) -> int:
        """Return the chunk size in words that suits this backend/model."""

    @property
    def max_chunk_words(self) -> int | None:
        """Return a hard cap on words per request, or None."""
        return None

    @property
    def voice_language(self) -> str | None:
        """Return the language tag the voice speaks ("en_US"), or None when it speaks what it is given."""
        return None

    @property
    def voice_name(self) -> str:
        """Return the voice's name for messages."""
        return self.name

    def phoneme_markup(self, ipa: str) -> str | None:
        """Return IPA phonemes written as this backend reads them inside text, or None if it takes none."""
        return None

    @property
    def limiter_makeup_db(self) -> float | None:
        """Return the loudness (dB) the chapter limiter takes off this voice, if measured; None for the default.

        Given back before the limiter, so that a chapter meets its loudness on its first encode rather than
        being encoded twice after its last chunk (app/audio/master.py).
        """
        return None

    @property
    def concurrency(self) -> int:
        """Return how many synthesize() calls the pipeline may run at once."""
        return 1

    @property
    def adaptive(self) -> bool:
        """Return whether `concurrency` is a ceiling the pipeline may search below, not a pinned value."""
        return False

    @abstractmethod
    def identity(self) -> dict[str, Any]:
        """Return everything besides the text and seed that affects the audio.

        It goes into every chunk's cache key: change any of it and the chunk
        is rendered again.
        """

    @property
    def run_voice(self) -> VoiceOptions:
        """Return the voice the run speaks in (--voice, --instructions, ...): a cast's roles start from it."""
        return VoiceOptions()

    def identity_for(self, voice: VoiceOptions) -> dict[str, Any]:
        """Return the identity (see identity()) of a chunk spoken in `voice` instead of the run's own.

        A backend that speaks in one voice only raises ConfigError; `voice` equal to the
        run's own voice must give identity() itself, so a cast keeps the narration's cache.
        """

        raise ConfigError(f"The {self.name} backend speaks in one voice only: it cannot read a cast",
                          hint="Run without --cast")

    def deliver(self, voice: VoiceOptions, delivery: Delivery) -> VoiceOptions | None:
        """Return `voice` shaped by a dialogue tag's delivery ("Whispering.", slower), or None when it cannot be."""
        return None

    def check_voice(self, voice: VoiceOptions, role: str) -> list[str]:
        """Refuse (ConfigError naming `role`) a voice this backend cannot speak in; return warnings."""
        self.identity_for(voice)
        return []

    def voice_offer(self) -> VoiceOffer:
        """Return what this backend can give characters (--cast auto)."""
        return VoiceOffer()

    def describe(self) -> str:
        """Return how a run's header names this backend (and its model, where it has one)."""
        return self.name

    def start(self) -> None:
        """Get ready to synthesize (load a voice, boot or find a server)."""

    def stop(self) -> None:
        """Release what start() took (stop a server this backend started)."""

    #: Whether abort() ends synthesize() calls in flight at once (a server's requests can be cut;
    #: a local voice's computation cannot, so a stop waits for it to finish its chunk).
    cuts_in_flight: bool = False

    def abort(self) -> None:
        """Cut synthesize() calls in flight, from another thread (the user stopped the run now).

        The default does nothing: a local voice finishes the chunk it is computing.
        """

    @abstractmethod
    def synthesize(self, text: str, seed: int, out_path: Path,
                   voice: VoiceOptions | None = None) -> list[float] | None:
        """Write `text` spoken as a WAV file at `out_path`, in `voice` (a cast's role) or the run's own.

        An engine that speaks sentence by sentence (Piper) returns the second
        each sentence starts at in that WAV, which makes read-along timing
        exact; others return None.

        Raise app.core.errors.BackendError (or a subclass) on failure; set
        `.transient` on errors worth retrying. Must be thread-safe when
        `concurrency` > 1.
        """

    def __enter__(self) -> "Backend":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass(frozen=True)
class BackendOptions:
    """Everything a user chose that a backend factory needs."""

    model: str | None = None
    voice: VoiceOptions = field(default_factory=VoiceOptions)
    #: External servers (--api-url, repeatable). Empty: the backend manages its own.
    api_urls: tuple[str, ...] = ()
    #: Requests in flight; None lets the backend decide (adaptive for servers).
    concurrency: int | None = None
    #: Managed-server port and bind host.
    port: int | None = None
    host: str = "127.0.0.1"
    #: A named server profile (sglomni: "throughput" for MOSS-TTS-Local).
    profile: str | None = None
    #: Seconds a managed server may take to become healthy (cold boots compile kernels).
    start_timeout: float = 1200.0
    #: Where each value came from, by field name: "command line", "hub form", "settings.toml", "default".
    #: Filled by app.options (the one resolver); backends read it only to explain themselves.
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def source(self, name: str) -> str:
        """Return where option `name` came from ("default" when nobody said)."""
        return self.sources.get(name, "default")

    def explain(self, name: str, flag: str | None = None) -> str:
        """Return e.g. "--port 8100 (from settings.toml)" for messages."""
        value = getattr(self, name)
        return f"{flag or '--' + name.replace('_', '-')} {value} (from {self.source(name)})"
