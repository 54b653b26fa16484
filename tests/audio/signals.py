"""Real test signals: sine tones and silence written as WAV files."""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np


def tone(seconds: float, rate: int, freq: float = 440.0, amp: float = 0.3) -> np.ndarray:
    """Return a float sine tone."""
    t = np.arange(int(round(seconds * rate))) / rate
    return (amp * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def silence(seconds: float, rate: int) -> np.ndarray:
    return np.zeros(int(round(seconds * rate)), dtype=np.float32)


def write_wav(path: Path, samples: np.ndarray, rate: int, channels: int = 1) -> Path:
    """Write mono float samples as 16-bit PCM, copied to `channels` channels."""
    pcm = np.rint(np.clip(samples, -1, 1) * 32767).astype("<i2")
    if channels > 1:
        pcm = np.repeat(pcm[:, None], channels, axis=1)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return path


def read_pcm(path: Path) -> tuple[np.ndarray, int, int]:
    """Return (samples as float (frames, channels), rate, channels) of a 16-bit WAV."""
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2
        rate, channels = w.getframerate(), w.getnchannels()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768
    return data.reshape(-1, channels), rate, channels
