"""An independent ear for pitch: the median fundamental of a WAV's voiced frames (numpy only, no app code).

Autocorrelation of each 50 ms frame (by FFT, unbiased); of the lags whose correlation comes within
10% of the frame's best (60-400 Hz), the shortest wins, so a period's double (an octave down) is not
taken for it. Frames quieter than a tenth of the clip's level, or with no clear period, are unvoiced.
"""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np


def median_pitch(path: Path) -> float:
    """Return the median fundamental frequency (Hz) of the voiced frames of a 16-bit mono WAV."""
    with wave.open(str(path)) as wav:
        rate = wav.getframerate()
        x = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16).astype(np.float64)
    frame, hop = int(0.05 * rate), int(0.01 * rate)
    shortest, longest = int(rate / 400), int(rate / 60)
    starts = np.arange(0, len(x) - frame, hop)
    frames = np.stack([x[s:s + frame] for s in starts])
    frames -= frames.mean(axis=1, keepdims=True)
    level = np.sqrt(np.mean(frames ** 2, axis=1))
    spectrum = np.fft.rfft(frames, n=2 * frame, axis=1)
    acf = np.fft.irfft(np.abs(spectrum) ** 2, axis=1)[:, :frame]
    acf = acf / (acf[:, :1] + 1e-9) * (frame / (frame - np.arange(frame)))  # unbiased, 1 at lag 0
    window = acf[:, shortest:longest]
    best = window.max(axis=1)
    voiced = (level > 0.1 * np.sqrt(np.mean(x ** 2))) & (best > 0.6)
    lags = shortest + np.argmax(window >= 0.9 * best[:, None], axis=1)
    found = rate / lags[voiced]
    return float(np.median(found)) if len(found) else 0.0
