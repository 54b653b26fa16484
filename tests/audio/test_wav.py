"""WAV header reading and validation of server bodies."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from app.audio.wav import FORMAT_FLOAT, duration, read_info, validate_wav_bytes
from app.core.errors import BadAudio

from .signals import tone, write_wav


def test_read_info_and_duration(tmp_path):
    path = write_wav(tmp_path / "a.wav", tone(1.5, 22050), 22050, channels=2)
    info = read_info(path)
    assert (info.sample_rate, info.channels, info.sample_width, info.frames) == (22050, 2, 2, 33075)
    assert duration(path) == pytest.approx(1.5)


def test_valid_bytes_pass(tmp_path):
    data = write_wav(tmp_path / "a.wav", tone(0.5, 16000), 16000).read_bytes()
    assert validate_wav_bytes(data).frames == 8000


@pytest.mark.parametrize(
    "body, words",
    [
        (b"<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", "HTML"),
        (b'{"error": "out of memory"}', "JSON"),
        (b"", "empty"),
    ],
)
def test_non_wav_bodies_rejected(body, words):
    with pytest.raises(BadAudio, match=words):
        validate_wav_bytes(body)


def test_truncated_body_rejected(tmp_path):
    data = write_wav(tmp_path / "a.wav", tone(0.5, 16000), 16000).read_bytes()
    with pytest.raises(BadAudio, match="truncated"):
        validate_wav_bytes(data[: len(data) // 2])
    with pytest.raises(BadAudio, match="truncated"):
        validate_wav_bytes(data[:30])


def test_header_only_rejected(tmp_path):
    data = write_wav(tmp_path / "a.wav", tone(0.5, 16000), 16000).read_bytes()
    with pytest.raises(BadAudio):
        validate_wav_bytes(data[:44])


def test_streaming_size_placeholder_accepted(tmp_path):
    """A server streaming WAV writes 0xFFFFFFFF as the data size; the real length is the body's."""
    data = bytearray(write_wav(tmp_path / "a.wav", tone(0.5, 16000), 16000).read_bytes())
    data[40:44] = struct.pack("<I", 0xFFFFFFFF)
    assert validate_wav_bytes(bytes(data)).frames == 8000


def float_wav(frames: np.ndarray, rate: int) -> bytes:
    """Return a 32-bit IEEE-float WAV in WAVE_FORMAT_EXTENSIBLE form, as some servers send."""
    body = frames.astype("<f4").tobytes()
    guid_float = struct.pack("<H", 3) + b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
    fmt = struct.pack("<HHIIHHHHI", 0xFFFE, 1, rate, rate * 4, 4, 32, 22, 32, 4) + guid_float
    return (b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(body)) + b"WAVE"
            + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(body)) + body)


def test_extensible_float_understood():
    info = validate_wav_bytes(float_wav(tone(0.25, 24000), 24000))
    assert info.format_tag == FORMAT_FLOAT and info.sample_width == 4 and info.frames == 6000


def test_mulaw_rejected():
    fmt = struct.pack("<HHIIHH", 7, 1, 8000, 8000, 1, 8)
    data = b"RIFF" + struct.pack("<I", 36 + 100) + b"WAVEfmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", 100) + bytes(100)
    with pytest.raises(BadAudio, match="not PCM"):
        validate_wav_bytes(data)
