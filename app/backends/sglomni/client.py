"""Requests to an sgl-omni server: the speech payload, WAV checks, voices (no retries: the pipeline owns them).

Field names follow sglang-omni 0.1.9's serve/protocol.py (CreateSpeechRequest)
and the routes of serve/openai_api.py. All HTTP goes through http.Endpoint.
"""
from __future__ import annotations

import base64
import logging
import os
import re
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.backends.base import VoiceOptions
from app.backends.sglomni.catalog import ModelSpec
from app.core.http import Endpoint, safe_url
from app.audio.bounds import max_answer_bytes, max_speech_seconds
from app.backends.sglomni.requests import build_payload, language_name  # noqa: F401 - re-exported
from app.audio.wav import WavInfo, read_info
from app.core.errors import BadAudio, OutputError, ServerError
from app.core.files import sha256_file
from app.backends.sglomni import reference
from app.backends.sglomni.clips import (  # noqa: F401 - re-exported: client.list_voices(...) etc.
    AUDIO_TYPES, check_wav, is_loopback, list_voices, reference_value, upload_voice)

log = logging.getLogger(__name__)

#: Upstream's scheduler message (scheduling/omni_scheduler.py request_kv_capacity_error).
KV_WINDOW_MARKER = "Request requires more tokens than the thinker KV cache can hold"
_KV_NUMBERS = re.compile(r"input_tokens=(\d+), max_new_tokens=(\d+), "
                         r"required_tokens=(\d+), kv_capacity=(\d+)")



def resolve_transcript(voice: VoiceOptions, *, whisper_model: str | None = None) -> str | None:
    """Return the clip's transcript: --transcription, else local Whisper, else None with a warning."""
    if voice.clone is None:
        return None
    if voice.transcription and voice.transcription.strip():
        return voice.transcription.strip()
    from app.listen import clip
    try:
        text = clip.transcript_for(Path(voice.clone), model=whisper_model) \
            if whisper_model else clip.transcript_for(Path(voice.clone))
    except Exception as exc:  # the transcript is optional: a Whisper failure must not block the run
        log.warning("transcribing %s failed (%s)", voice.clone, exc)
        text = None
    if text and text.strip():
        return text.strip()
    log.warning("no transcript for %s: sending the clip without ref_text lowers cloning quality "
                "(pass --transcription)", voice.clone)
    return None


# --- payload ------------------------------------------------------------------------------

def parse_kv_window(message: str) -> tuple[int, int, int, int] | None:
    """Return (input_tokens, max_new_tokens, required_tokens, kv_capacity) from upstream's message."""
    m = _KV_NUMBERS.search(message)
    return tuple(int(g) for g in m.groups()) if m else None  # type: ignore[return-value]


def refit_max_new_tokens(message: str) -> int | None:
    """Return the max_new_tokens that fits the window the server reported, or None."""
    numbers = parse_kv_window(message)
    if numbers is None:
        return None
    input_tokens, max_new, _required, capacity = numbers
    fitted = capacity - input_tokens
    return fitted if 0 < fitted < max_new else None


# --- the speech client --------------------------------------------------------------------

class SpeechClient:
    """Turns chunks into WAV files on one server; thread-safe.

    One call is one request (plus the Higgs refit, a protocol step): a failure
    leaves as the HTTP module's classified error, and the pipeline alone decides
    whether and when to send the chunk again.
    """

    def __init__(self, endpoint: Endpoint, spec: ModelSpec, voice: VoiceOptions, *,
                 ref_audio: str | None = None, ref_text: str | None = None, voice_name: str | None = None):
        self.endpoint = endpoint
        self.spec = spec
        # An uploaded reference voice is named in "voice" and replaces ref_audio/ref_text.
        self.voice = replace(voice, voice=voice_name) if voice_name else voice
        self.ref_audio = ref_audio
        self.ref_text = ref_text
        #: The run's own clip, whose reference (uploaded or inline) this server already has.
        self._own_clip = Path(voice.clone).resolve() if voice.clone else None
        #: A cast's other clips, as this server receives them (reference.Reference), by clip.
        self._clips: dict[Path, Any] = {}
        self._clips_lock = threading.Lock()

    def payload(self, text: str, seed: int, voice: VoiceOptions | None = None) -> dict[str, Any]:
        """Return the request body for `text` at `seed`, in `voice` (a cast's role) or the run's own."""
        if voice is None:
            return build_payload(self.spec, self.voice, text, seed, ref_audio=self.ref_audio,
                                 ref_text=self.ref_text)
        clip = Path(voice.clone).resolve() if voice.clone else None
        if clip is not None and clip == self._own_clip:
            # The run's own clip: as this server already has it (an uploaded voice, or inline).
            same = replace(voice, voice=self.voice.voice) if self.voice.voice != voice.voice else voice
            return build_payload(self.spec, same, text, seed, ref_audio=self.ref_audio, ref_text=self.ref_text)
        if clip is None:
            return build_payload(self.spec, voice, text, seed)
        ref = self._cast_reference(clip, voice.transcription)
        if ref.voice:  # uploaded once to this server: named, as the run's own clip is
            return build_payload(self.spec, replace(voice, voice=ref.voice), text, seed)
        return build_payload(self.spec, voice, text, seed, ref_audio=ref.ref_audio, ref_text=ref.ref_text)

    def _cast_reference(self, clip: Path, transcript: str | None):
        """Return how this server gets a cast character's clip: uploaded once where it can, else inline."""
        with self._clips_lock:
            if clip not in self._clips:
                self._clips[clip] = reference.prepare(self.endpoint, self.spec, clip, sha256_file(clip), transcript,
                                                      health={})
            return self._clips[clip]

    def _forget_upload(self, clip: Path, transcript: str | None) -> bool:
        """Switch a cast clip this server no longer knows by name to inline; return whether it was uploaded."""
        with self._clips_lock:
            ref = self._clips.get(clip)
            if ref is None or not ref.voice:
                return False
            # Inline as a data URI: every server decodes one (a bare path depends on its media policy).
            media = AUDIO_TYPES.get(clip.suffix.lower(), "audio/wav")
            self._clips[clip] = replace(ref, how="inline", voice=None, ref_text=transcript,
                                        ref_audio=f"data:{media};base64,{base64.b64encode(clip.read_bytes()).decode()}")
            return True

    def synthesize(self, text: str, seed: int, out_path: Path, voice: VoiceOptions | None = None) -> WavInfo:
        """Write `text` as WAV to `out_path` and return its format; nothing unchecked reaches it."""
        try:
            return self._synthesize(text, seed, out_path, voice)
        except ServerError as exc:
            clip = Path(voice.clone).resolve() if voice is not None and voice.clone else None
            if clip is None or exc.status not in (400, 404, 422) or "voice" not in exc.message.lower() \
                    or not self._forget_upload(clip, voice.transcription):
                raise
            log.warning("%s no longer knows the voice of %s (%s): sending the clip inline", self.endpoint.base_url,
                        clip.name, exc.message)
        return self._synthesize(text, seed, out_path, voice)

    def _synthesize(self, text: str, seed: int, out_path: Path, voice: VoiceOptions | None) -> WavInfo:
        body = self.payload(text, seed, voice)
        out_path = Path(out_path)
        part = out_path.with_name(f".{out_path.name}.{threading.get_ident()}.part")
        # The answer is bounded by what the text can plausibly take: a runaway, trickling or
        # endless answer is cut instead of holding a worker or filling the disk.
        budget = {"max_bytes": max_answer_bytes(text),
                  "seconds": self.endpoint.timeouts.read + max_speech_seconds(text)}
        try:
            out_path.parent.mkdir(parents=True, exist_ok=True)
            self._post_with_refit(body, part, budget)
            info = read_info(part)
            if info.seconds > max_speech_seconds(text):
                raise BadAudio(f"Runaway audio: {info.seconds:.0f} s for a chunk of {len(text.split())} words")
            try:
                os.replace(part, out_path)
            except OSError as exc:
                raise OutputError(f"Cannot write {out_path}: {exc.strerror or exc}",
                                  hint="Check free space and permissions of the cache folder") from exc
        finally:
            part.unlink(missing_ok=True)
        if (info.sample_rate, info.channels) != (self.spec.sample_rate, self.spec.channels):
            log.debug("%s answered %d Hz/%d ch (catalog: %d Hz/%d ch)", self.spec.key, info.sample_rate,
                      info.channels, self.spec.sample_rate, self.spec.channels)
        return info

    def _post(self, body: dict[str, Any], dest: Path, budget: dict[str, Any]) -> None:
        try:
            self.endpoint.download("POST", "/v1/audio/speech", dest, json=body, **budget)
        except OSError as exc:
            raise OutputError(f"Cannot write {dest.parent}: {exc.strerror or exc}",
                              hint="Check free space and permissions of the cache folder") from exc

    def _post_with_refit(self, body: dict[str, Any], dest: Path, budget: dict[str, Any]) -> None:
        try:
            return self._post(body, dest, budget)
        except ServerError as exc:
            if exc.status != 400 or KV_WINDOW_MARKER not in exc.message:
                raise
            fitted = refit_max_new_tokens(exc.message)
            if fitted is None:
                raise ServerError(f"{self.spec.key} cannot fit this request in its generation window "
                                  f"({exc.message})", status=400, transient=False,
                                  hint="Use a shorter reference clip (10-20 s) or a smaller chunk size") from None
        log.info("refitting max_new_tokens to %d for the server's KV window and resending once", fitted)
        # Resend once with the fitted budget: the same request is never retried as-is.
        try:
            return self._post({**body, "max_new_tokens": fitted}, dest, budget)
        except ServerError as exc:
            if KV_WINDOW_MARKER in exc.message:
                raise ServerError(f"{self.spec.key} rejected the request again after refitting "
                                  f"max_new_tokens to {fitted}", status=exc.status, transient=False,
                                  hint="Use a shorter reference clip or a smaller chunk size") from None
            raise


# --- discovery and voices -----------------------------------------------------------------

def health(endpoint: Endpoint) -> dict[str, Any]:
    """Return GET /health's JSON ({"status": "healthy", "stages": [...], ...}), any status code."""
    try:
        return endpoint.get_json("/health")
    except ServerError as exc:
        if exc.status == 503:
            return {"status": "starting"}
        raise


__all__ = ["WavInfo", "SpeechClient", "build_payload", "check_wav", "reference_value",
           "resolve_transcript", "is_loopback", "parse_kv_window", "refit_max_new_tokens",
           "health", "list_voices", "upload_voice", "safe_url"]
