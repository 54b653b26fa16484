"""The body of one POST /v1/audio/speech, built from what the model's request builder takes.

Field names follow sglang-omni 0.1.9's serve/protocol.py (CreateSpeechRequest). Which
fields a model takes is the catalog entry's `request` (RequestFields, read from the
model's 0.1.9 request builder): a field the builder refuses is never sent, and a user
option it refuses or a field it requires and lacks is refused here, before any request,
in one line naming the option.
"""
from __future__ import annotations

import logging
from typing import Any

from app.backends.base import VoiceOptions
from app.backends.sglomni.catalog import IGNORED, REFUSED, REQUIRED, ModelSpec
from app.core.errors import BackendError, ConfigError

log = logging.getLogger(__name__)

#: sglang-omni 0.1.9 accepts language *names* (serve/protocol.py SUPPORTED_TTS_LANGUAGES,
#: case-insensitive) and refuses ISO codes with a 400, so `--language en` is mapped here.
_ISO_LANGUAGES = {"zh": "Chinese", "en": "English", "ja": "Japanese", "ko": "Korean", "de": "German",
                  "fr": "French", "ru": "Russian", "pt": "Portuguese", "es": "Spanish", "it": "Italian",
                  "auto": "Auto"}

#: The user options checked against the builder, with the flag that sets each.
_OPTIONS = (("instructions", "--instructions"), ("language", "--language"))


def language_name(value: str) -> str:
    """Return the server's name for an ISO 639-1 code ("en", "en-GB"); other values unchanged."""
    code = value.strip().lower().replace("_", "-").split("-")[0]
    return _ISO_LANGUAGES.get(code, value.strip()) if len(code) <= 4 else value.strip()


def sends_seed(spec: ModelSpec) -> bool:
    """Return whether requests for `spec` carry the sampling seed (ZONOS2 and Voxtral refuse one)."""
    return spec.request.seed != REFUSED


def check_options(spec: ModelSpec, voice: VoiceOptions) -> list[str]:
    """Refuse options the model's builder refuses or requires; return warnings for ignored ones."""
    fields = spec.request
    warnings = []
    for name, flag in _OPTIONS:
        how = getattr(fields, name)
        given = bool((getattr(voice, name) or "").strip())
        if given and how == REFUSED:
            raise ConfigError(f"{spec.key} does not take {flag}: sglang-omni 0.1.9 refuses it "
                              f"({fields.source})", hint=f"Run again without {flag}")
        if not given and how == REQUIRED:
            raise ConfigError(f"{spec.key} needs {flag}", hint=f"Pass {flag} \"...\" describing the voice")
        if given and how == IGNORED:
            warnings.append(f"{spec.key} ignores {flag} (its sglang-omni request builder does not read it)")
    if voice.clone is not None and fields.references == REFUSED:
        raise ConfigError(f"{spec.key} does not clone a voice: sglang-omni 0.1.9 refuses a reference clip",
                          hint="Run again without --clone, or pick a clone model (backends sglomni list)")
    return warnings


def require_transcript(spec: ModelSpec, transcript: str | None, *, can_transcribe: bool) -> None:
    """Refuse a clone without a transcript for a model whose builder requires ref_text."""
    if not spec.request.ref_text_required or (transcript and transcript.strip()):
        return
    why = ("the clip could not be transcribed here" if can_transcribe
           else "no speech recognizer is installed to transcribe the clip")
    raise ConfigError(f"{spec.key} needs the reference clip's transcript and {why}",
                      hint='Pass --transcription "the words spoken in the clip"')


def build_payload(spec: ModelSpec, voice: VoiceOptions, text: str, seed: int, *,
                  ref_audio: str | None = None, ref_text: str | None = None,
                  model_name: str | None = None) -> dict[str, Any]:
    """Return the POST /v1/audio/speech body (CreateSpeechRequest) for one chunk."""
    fields = spec.request
    payload: dict[str, Any] = {"input": text, "response_format": "wav", "stream": False}
    if sends_seed(spec):
        payload["seed"] = int(seed)
    if model_name:
        payload["model"] = model_name
    if voice.voice:
        payload["voice"] = voice.voice
    if voice.instructions and fields.instructions not in (IGNORED, REFUSED):
        payload["instructions"] = voice.instructions
    if voice.language and fields.language not in (IGNORED, REFUSED):
        payload["language"] = language_name(voice.language)
    if ref_audio is not None:
        payload["ref_audio"] = ref_audio
        if ref_text:
            payload["ref_text"] = ref_text
    elif (spec.reference_required or fields.references == REQUIRED) and not voice.voice:
        raise BackendError(f"{spec.key} clones a voice and needs a reference clip",
                           hint="Pass --clone voices/NAME.wav (and --transcription if you have it)")
    payload.update(dict(fields.extras))
    # User parameters last: an explicit choice beats the catalog default.
    payload.update({k: v for k, v in voice.params.items() if v is not None})
    if fields.max_new_tokens in (IGNORED, REFUSED):
        payload.pop("max_new_tokens", None)
    return payload


__all__ = ["build_payload", "check_options", "language_name", "require_transcript", "sends_seed"]
