"""A --clone clip's transcript (the ref_text a cloning model needs), cached next to the clip.

faster-whisper with the bundled tiny.en by default (app/listen/local.py);
openai-whisper when that is the only engine installed; None when neither is.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from app.listen import local
from app.listen.local import installed

log = logging.getLogger(__name__)


def transcript_path(clip: Path) -> Path:
    """Return where the clip's transcript is cached (voices/X.wav -> voices/X.transcript.txt)."""
    # `.transcript.txt`, not `.txt`: a user's own notes file beside the clip stays untouched.
    return clip.with_suffix(".transcript.txt")


def can_transcribe() -> bool:
    """Return whether a local Whisper engine is installed to transcribe a reference clip."""
    return installed("faster_whisper") or installed("whisper")


def _with_openai_whisper(clip: Path, model: str) -> str:
    import whisper

    return str(whisper.load_model(model).transcribe(str(clip))["text"]).strip()


def transcript_for(clip: Path, *, model: str = local.DEFAULT_MODEL) -> str | None:
    """Return the clip's transcript (cached, else transcribed locally), or None without a Whisper engine."""
    cached = transcript_path(clip)
    if cached.is_file() and cached.stat().st_mtime >= clip.stat().st_mtime:
        text = cached.read_text(encoding="utf-8").strip()
        if text:
            return text
    if installed("faster_whisper"):
        text = local.LocalWhisper(model).transcribe(clip).text
    elif installed("whisper"):
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
