"""How one server gets the --clone clip: an uploaded voice named by the clip's hash, or inline.

Upstream (serve/speech_voices.py, speech_service.py) stores a multipart POST /v1/audio/voices
upload (audio_sample, name, consent, ref_text) and lowers a speech request whose "voice" is
that name, with no ref_audio, to the stored clip and its ref_text. Uploading once replaces
megabytes of base64 in every request. The cache identity never depends on this choice.
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.backends.sglomni import clips
from app.backends.sglomni.catalog import ModelSpec
from app.core.http import Endpoint
from app.core.errors import BackendError

log = logging.getLogger(__name__)

#: Catalog models whose upstream pipeline config lowers uploaded voices to reference audio
#: (supports_uploaded_voice_references() in models/*/config.py). ZONOS2, Voxtral and the
#: Qwen3 CustomVoice/VoiceDesign checkpoints keep the default False: a name would be ignored.
UPLOADED_VOICE_MODELS = frozenset({
    "qwen3_tts_0_6b_base", "qwen3_tts_1_7b_base", "higgs_audio_v3_tts", "moss_tts", "moss_tts_local",
    "moss_tts_local_voice_acting", "dots_tts_mf", "fish_s2_pro",
})
#: sglang_omni_router's ROUTE_METADATA_JSON_LIMIT_BYTES, and room for the rest of the body.
ROUTER_BODY_LIMIT, _BODY_SLACK = 1024 * 1024, 64 * 1024
#: Upstream's accepted reference length for uploads (MIN/MAX_REFERENCE_AUDIO_SECONDS).
_MIN_SECONDS, _MAX_SECONDS = 1.0, 30.0


@dataclass(frozen=True)
class Reference:
    """What a speech request carries for the clip on one server."""

    #: "uploaded" (voice names it), "inline" (data URI), "path" (a loopback server reads the file).
    how: str
    ref_audio: str | None = None
    ref_text: str | None = None
    voice: str | None = None


def voice_name(clip_sha256: str, transcript: str | None) -> str:
    """Return the upload name for a clip and transcript; the same inputs give the same name."""
    name = f"audiobook-{clip_sha256[:16]}"
    if transcript:
        name += "-" + hashlib.sha256(transcript.encode("utf-8")).hexdigest()[:8]
    return name


def inline(clip: Path, transcript: str | None, *, base_url: str) -> Reference:
    """Return the per-request reference: a local path for a loopback server, else a data URI."""
    loopback = clips.is_loopback(base_url)
    return Reference("path" if loopback else "inline",
                     ref_audio=clips.reference_value(clip, loopback=loopback), ref_text=transcript)


def behind_router(health: Any) -> int:
    """Return how many workers an sgl-omni router reports in its /health body, else 0."""
    if isinstance(health, dict) and "voice_routing" in health and "total_workers" in health:
        try:
            return int(health.get("routable_workers", health["total_workers"]))
        except (TypeError, ValueError):
            return 0
    return 0


def _clip_seconds(clip: Path) -> float | None:
    try:
        return clips.check_wav(clip.read_bytes()).seconds
    except Exception:  # not a WAV we can measure: let the server decide
        return None


def prepare(endpoint: Endpoint, spec: ModelSpec, clip: Path, clip_sha256: str, transcript: str | None, *,
            health: Any = None, upload: bool = True) -> Reference:
    """Return how requests to `endpoint` refer to `clip`, uploading it once when the server can.

    `health` is the server's /health body (None when it did not answer: no upload is tried).
    """
    fallback = inline(clip, transcript, base_url=endpoint.base_url)
    where = endpoint.base_url
    if not upload or spec.key not in UPLOADED_VOICE_MODELS or not isinstance(health, dict):
        return fallback
    workers = behind_router(health)
    if workers > 1:
        # The router pins every request naming an uploaded voice to one owner worker
        # (sglang_omni_router voice_routing.py), and so any JSON body over 1 MiB
        # (route_metadata.py): a small inline clip keeps all its workers busy.
        if fallback.how == "path" or len(fallback.ref_audio or "") + _BODY_SLACK <= ROUTER_BODY_LIMIT:
            log.info("%s is an sgl-omni router over %d workers: sending the clip %s", where, workers,
                     "by path" if fallback.how == "path" else "inline")
            return fallback
        log.warning("%s is an sgl-omni router: a clip this large pins every request to one of its %d "
                    "workers; use a shorter 16 kHz mono clip (under ~700 KB) or pass each server with "
                    "--api-url", where, workers)
    seconds = _clip_seconds(clip)
    if seconds is not None and not _MIN_SECONDS <= seconds <= _MAX_SECONDS:
        return fallback
    name = voice_name(clip_sha256, transcript)
    try:
        listed = clips.list_voices(endpoint)
        # sglang-omni lists {"uploaded_voices": [{"name": ...}]}; another server may answer a bare list.
        entries = listed.get("uploaded_voices") or [] if isinstance(listed, dict) else (
            listed if isinstance(listed, list) else [])
        uploaded = {str(v.get("name", "") if isinstance(v, dict) else v).lower() for v in entries}
        if name.lower() in uploaded:
            log.info("%s already has the clip as voice %s", where, name)
        else:
            clips.upload_voice(endpoint, name, clip, consent="owner", ref_text=transcript)
            log.info("uploaded the clip to %s as voice %s", where, name)
    except BackendError as exc:
        # No voice routes (404/405), a refused clip (4xx), a failing store (5xx): inline still works.
        log.info("%s did not take the clip as an uploaded voice (%s): sending it %s", where, exc.message,
                 "by path" if fallback.how == "path" else "inline")
        return fallback
    return Reference("uploaded", voice=name)


__all__ = ["Reference", "UPLOADED_VOICE_MODELS", "voice_name", "inline", "prepare", "behind_router"]
