"""The resume cache: keys, atomic puts, corruption detection."""
from __future__ import annotations

import wave

import numpy as np
import pytest

from app.core.errors import BadAudio
from app.pipeline.cache import ChunkCache, chunk_key, chunk_seed
from app.pipeline.quality import check_chunk_audio


def _tone(path, seconds=1.0, rate=22050, amp=0.3):
    t = np.arange(int(seconds * rate)) / rate
    data = (amp * 32767 * np.sin(2 * np.pi * 220 * t)).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes(data.tobytes())
    return path


def test_key_changes_with_everything_that_shapes_the_audio():
    base = chunk_key("Hello there.", 1, {"backend": "piper", "voice": "joe"})
    assert chunk_key("Hello  there.\n", 1, {"backend": "piper", "voice": "joe"}) == base  # whitespace only
    assert chunk_key("Hello there!", 1, {"backend": "piper", "voice": "joe"}) != base
    assert chunk_key("Hello there.", 2, {"backend": "piper", "voice": "joe"}) != base
    assert chunk_key("Hello there.", 1, {"backend": "piper", "voice": "amy"}) != base
    assert chunk_seed("Hello there.") == chunk_seed(" Hello there. ")


def test_put_then_get_and_corruption_is_detected(tmp_path):
    cache = ChunkCache(tmp_path)
    key = chunk_key("text", 1, {})
    tmp = _tone(cache.temp_path(key))
    stored = cache.put(key, tmp)
    assert not tmp.exists()
    assert cache.get(key) == stored
    data = bytearray(stored.read_bytes())
    data[-10] ^= 0xFF
    stored.write_bytes(bytes(data))
    assert cache.get(key) is None          # detected...
    assert not stored.exists()             # ...and dropped so it is rendered again


def test_quality_check_rejects_silence_runaway_and_truncation(tmp_path):
    ok = check_chunk_audio(_tone(tmp_path / "ok.wav", 2.0), "Five words are spoken here.")
    assert ok.seconds == pytest.approx(2.0)
    with pytest.raises(BadAudio, match="Silent"):
        check_chunk_audio(_tone(tmp_path / "s.wav", 2.0, amp=0.0), "Five words are spoken here.")
    with pytest.raises(BadAudio, match="Runaway"):
        check_chunk_audio(_tone(tmp_path / "r.wav", 60.0), "Too long.")
    with pytest.raises(BadAudio, match="too short"):
        check_chunk_audio(_tone(tmp_path / "t.wav", 0.2), "this chunk has many words to say aloud today")
    broken = tmp_path / "b.wav"
    broken.write_bytes(b"<html>502 Bad Gateway</html>")
    with pytest.raises(BadAudio):
        check_chunk_audio(broken, "Anything.")
