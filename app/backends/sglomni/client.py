"""Requests to an sgl-omni server: the speech payload, WAV checks, retries, voices.

Field names follow sglang-omni 0.1.9's serve/protocol.py (CreateSpeechRequest)
and the routes of serve/openai_api.py. All HTTP goes through http.Endpoint.
"""
from __future__ import annotations

import base64
import ipaddress
import logging
import os
import mimetypes
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.backends.base import VoiceOptions
from app.backends.sglomni.catalog import ModelSpec
from app.backends.sglomni.http import Endpoint, parse_json, safe_url
from app.backends.sglomni.requests import build_payload, language_name  # noqa: F401 - re-exported
from app.audio.wav import WavInfo, read_info, validate_wav_bytes
from app.errors import BackendError, BadAudio, OutputError, ServerError, ServerUnavailable

log = logging.getLogger(__name__)

#: Upstream's scheduler message (scheduling/omni_scheduler.py request_kv_capacity_error).
KV_WINDOW_MARKER = "Request requires more tokens than the thinker KV cache can hold"
_KV_NUMBERS = re.compile(r"input_tokens=(\d+), max_new_tokens=(\d+), "
                         r"required_tokens=(\d+), kv_capacity=(\d+)")
_AUDIO_TYPES = {".wav": "audio/wav", ".flac": "audio/flac", ".mp3": "audio/mpeg",
                ".ogg": "audio/ogg", ".m4a": "audio/mp4"}


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded exponential backoff with full jitter for transient failures."""

    attempts: int = 4
    base: float = 1.0
    cap: float = 30.0

    def delay(self, attempt: int) -> float:
        """Return the pause before retry number `attempt` (1-based)."""
        return random.uniform(0, min(self.cap, self.base * 2 ** (attempt - 1)))


# --- reference clip -----------------------------------------------------------------------

def is_loopback(base_url: str) -> bool:
    """Return whether `base_url` points at this machine (so it can read our local files)."""
    host = (urlsplit(base_url).hostname or "").strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def reference_value(clip: Path, *, loopback: bool) -> str:
    """Return the `ref_audio` for `clip`: its absolute path for a loopback server, else a data URI."""
    clip = Path(clip).expanduser().resolve()
    if not clip.is_file():
        raise BackendError(f"Reference clip {clip} does not exist",
                           hint="Put 10-20 s of clean speech in voices/ and pass --clone voices/NAME.wav")
    if loopback:
        return str(clip)
    media = _AUDIO_TYPES.get(clip.suffix.lower()) or mimetypes.guess_type(clip.name)[0] or "audio/wav"
    return f"data:{media};base64,{base64.b64encode(clip.read_bytes()).decode('ascii')}"


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


# --- WAV ----------------------------------------------------------------------------------

def check_wav(data: bytes) -> WavInfo:
    """Return the WAV's format, or raise BadAudio for anything that is not complete WAV audio."""
    return validate_wav_bytes(data)


# --- the speech client --------------------------------------------------------------------

#: Status codes that mean "too much load" (or a failing server) rather than a bad request.
_BUSY = frozenset({429, 500, 502, 503, 504})


class SpeechClient:
    """Turns chunks into WAV files on one server; thread-safe."""

    def __init__(self, endpoint: Endpoint, spec: ModelSpec, voice: VoiceOptions, *,
                 ref_audio: str | None = None, ref_text: str | None = None, voice_name: str | None = None,
                 failover: bool = False, retry: RetryPolicy = RetryPolicy(),
                 sleep: Callable[[float], None] = time.sleep,
                 on_busy: Callable[[], None] | None = None):
        self.endpoint = endpoint
        #: Called on each 429/5xx answer: the server is saturated or failing (the
        #: pipeline's adaptive in-flight limit backs off on it).
        self.on_busy = on_busy
        self.spec = spec
        # An uploaded reference voice is named in "voice" and replaces ref_audio/ref_text.
        self.voice = replace(voice, voice=voice_name) if voice_name else voice
        #: Raise ServerUnavailable at once: another server of the pool takes the chunk.
        self.failover = failover
        self.ref_audio = ref_audio
        self.ref_text = ref_text
        self.retry = retry
        self._sleep = sleep

    def payload(self, text: str, seed: int) -> dict[str, Any]:
        """Return the request body for `text` at `seed`."""
        return build_payload(self.spec, self.voice, text, seed, ref_audio=self.ref_audio,
                             ref_text=self.ref_text)

    def synthesize(self, text: str, seed: int, out_path: Path) -> WavInfo:
        """Write `text` as WAV to `out_path`, retrying transient failures; return its format."""
        body = self.payload(text, seed)
        out_path = Path(out_path)
        part = out_path.with_name(f".{out_path.name}.{threading.get_ident()}.part")
        try:
            out_path.parent.mkdir(parents=True, exist_ok=True)
            info = self._fetch_with_retries(body, part)
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

    def _fetch_with_retries(self, body: dict[str, Any], part: Path) -> WavInfo:
        """Stream the answer to `body` into `part` and check it is whole WAV audio, retrying."""
        attempt = 0
        while True:
            attempt += 1
            try:
                self._post_with_refit(body, part)
                return read_info(part)
            except BackendError as exc:
                if self.on_busy is not None and isinstance(exc, ServerError) and (exc.status or 0) in _BUSY:
                    self.on_busy()
                if not exc.transient:
                    raise
                if attempt >= self.retry.attempts:
                    if not isinstance(exc, BadAudio):
                        # Retried here already: the pipeline must not multiply the attempts
                        # (4 x 4 requests and half a minute before a dead server is reported).
                        exc.retried = True
                    raise
                if self.failover and isinstance(exc, ServerUnavailable):
                    raise
                pause = self.retry.delay(attempt)
                log.warning("attempt %d/%d failed (%s); retrying in %.1f s",
                            attempt, self.retry.attempts, exc.message, pause)
                self._sleep(pause)

    def _post(self, body: dict[str, Any], dest: Path) -> None:
        try:
            self.endpoint.download("POST", "/v1/audio/speech", dest, json=body)
        except OSError as exc:
            raise OutputError(f"Cannot write {dest.parent}: {exc.strerror or exc}",
                              hint="Check free space and permissions of the cache folder") from exc

    def _post_with_refit(self, body: dict[str, Any], dest: Path) -> None:
        try:
            return self._post(body, dest)
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
            return self._post({**body, "max_new_tokens": fitted}, dest)
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


def list_models(endpoint: Endpoint) -> list[str]:
    """Return the model ids GET /v1/models reports."""
    data = endpoint.get_json("/v1/models")
    return [str(card["id"]) for card in (data.get("data") or []) if isinstance(card, dict) and "id" in card]


def list_voices(endpoint: Endpoint) -> dict[str, Any]:
    """Return GET /v1/audio/voices: {"voices": [...], "uploaded_voices": [...], "cache_stats": {...}}."""
    return endpoint.get_json("/v1/audio/voices")


def upload_voice(endpoint: Endpoint, name: str, clip: Path, *, consent: str = "owner",
                 ref_text: str | None = None, speaker_description: str | None = None) -> dict[str, Any]:
    """Upload `clip` as voice `name` (multipart POST /v1/audio/voices) and return its metadata."""
    clip = Path(clip)
    media = _AUDIO_TYPES.get(clip.suffix.lower(), "audio/wav")
    form = {"name": name, "consent": consent}
    if ref_text:
        form["ref_text"] = ref_text
    if speaker_description:
        form["speaker_description"] = speaker_description
    response = endpoint.request("POST", "/v1/audio/voices", control=True, data=form,
                                files={"audio_sample": (clip.name, clip.read_bytes(), media)})
    return parse_json(response, url=endpoint.base_url + "/v1/audio/voices")


def delete_voice(endpoint: Endpoint, name: str) -> bool:
    """Delete uploaded voice `name`; return False when the server does not have it."""
    try:
        endpoint.request("DELETE", f"/v1/audio/voices/{name}", control=True)
    except ServerError as exc:
        if exc.status == 404:
            return False
        raise
    return True


__all__ = ["RetryPolicy", "WavInfo", "SpeechClient", "build_payload", "check_wav", "reference_value",
           "resolve_transcript", "is_loopback", "parse_kv_window", "refit_max_new_tokens",
           "health", "list_models", "list_voices", "upload_voice", "delete_voice", "safe_url"]
