"""The double's speech-shaping modes: chunks said wrong (SGO_DOUBLE_GARBLE*) and random gain (SGO_DOUBLE_GAIN_DB).

Kept apart from server.py so each mode is one small function; server.py calls
garble() for what to say and gain() for how loud, then speaks it with Piper.
"""
from __future__ import annotations

import os
import random


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


GARBLES = ("skip half", "repeat phrase", "silence")


def garble(state, text: str) -> tuple[str, float, str | None]:
    """Return (what to say, seconds of silence after it, which garble) for SGO_DOUBLE_GARBLE(_ALWAYS)."""
    words = text.split()
    always = env("SGO_DOUBLE_GARBLE_ALWAYS")
    with state.lock:
        first = text not in state.texts
        index = state.texts.setdefault(text, len(state.texts))
    every = int(env("SGO_DOUBLE_GARBLE", "0"))
    if always and always in text:
        kind = "skip half"
    elif every > 0 and first and index % every == every - 1 and len(words) >= 4:
        kind = GARBLES[(index // every) % len(GARBLES)]
    else:
        return text, 0.0, None
    return (*shape(text, kind), kind)


def shape(text: str, kind: str) -> tuple[str, float]:
    """Return (what to say, seconds of silence after it) for one of GARBLES."""
    words = text.split()
    half = len(words) // 2
    if kind == "skip half":
        return " ".join(words[:half]), 0.0
    if kind == "repeat phrase":
        phrase = words[max(0, half - 3):half]
        return " ".join(words[:half] + phrase + phrase + words[half:]), 0.0
    # Speech for the first half, then as long a silence as the second half would have taken.
    return " ".join(words[:half]), 0.4 * (len(words) - half)


def gain(text: str, n: int) -> float:
    """Return the linear gain SGO_DOUBLE_GAIN_DB gives this answer: 0 dB or -G dB, at random."""
    spread = float(env("SGO_DOUBLE_GAIN_DB", "0"))
    if spread <= 0:
        return 1.0
    return 10 ** (random.Random(f"{text}|{n}").choice((0.0, -spread)) / 20)
