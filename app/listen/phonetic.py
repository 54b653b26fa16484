"""Whether two word spans sound alike: espeak-ng phonemes (Piper's bundled copy) and an edit distance.

A small recognizer writes what it heard in words it knows: tiny.en hears a clear
"by noon" as "I knew", "pier" as "peer". Those substitutions are the listener's
spelling of the right sounds, not words the narrator got wrong; the score
forgives a substituted span whose phonemes are this close. A skipped half, a
repeated phrase or another language changes the sounds far beyond it.
"""
from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)

#: Largest phoneme edit distance, as a share of the longer span, at which two spans sound alike.
#: Forgiven: "had turned"/"at turn" 0.17, "two days later"/"to daze leader" 0.27, "by noon"/"I knew"
#: 0.33. Not: "gulls"/"those" 0.75, "old grey"/"gray" 0.5, "he carried a small lamp"/"he carried" 0.6.
MAX_DISTANCE = 0.35
#: The looser bound for a word or two misheard between words heard right (see app/listen/score.py):
#: tiny.en's "solemnised"/"so ill anised" 0.5, "undoubted"/"anited" 0.5, "is"/"has" 0.5,
#: "Emma's"/"endless" 0.5. Not: "old grey boat"/"grey" 0.67, "heavy"/"happy" 0.67, "co"/"company" 0.86.
LOOSE_DISTANCE = 0.5
#: Stress and length marks: the same word said with another stress is the same word.
_MARKS = str.maketrans("", "", "ˈˌːˑ‿ ")
#: Sounds a small recognizer confuses at word ends and starts, folded to one: voiced and voiceless
#: pairs ("had" heard "at", "turned" heard "turn't"), and a dropped /h/.
_CONFUSABLE = str.maketrans({"b": "p", "d": "t", "ɡ": "k", "g": "k", "v": "f", "z": "s", "ð": "θ",
                             "ʒ": "ʃ", "ɾ": "t", "h": None})
#: espeak-ng voice for English; other languages use their ISO code, which is espeak-ng's voice name.
ENGLISH_VOICE = "en-us"

_lock = threading.Lock()  # espeak-ng is one global state in the C library
_phonemizer = None
_unavailable = False


def _espeak():
    global _phonemizer, _unavailable
    if _phonemizer is None and not _unavailable:
        try:
            from piper.phonemize_espeak import EspeakPhonemizer

            _phonemizer = EspeakPhonemizer()
        except Exception as exc:  # no espeak-ng: plain word comparison still works
            log.warning("espeak-ng unavailable (%s): near-homophones count as errors", exc)
            _unavailable = True
    return _phonemizer


def phonemes(words: list[str], language: str | None = None) -> str | None:
    """Return the phonemes of `words` without stress marks, or None when they cannot be had."""
    voice = ENGLISH_VOICE if (language or "en").lower().startswith("en") else language.lower()
    if not words:
        return None
    with _lock:
        espeak = _espeak()
        if espeak is None:
            return None
        try:
            sentences = espeak.phonemize(voice, " ".join(words))
        except Exception:  # an unknown espeak voice name
            return None
    return "".join("".join(s) for s in sentences).translate(_MARKS).strip(".,;:!?").translate(_CONFUSABLE)


def distance(said: list[str], heard: list[str], language: str | None = None) -> float | None:
    """Return the phoneme edit distance of two word spans (0 alike, 1 nothing alike), None without phonemes."""
    from rapidfuzz.distance import Levenshtein  # jiwer's own dependency

    if not said or not heard:
        return None
    a, b = phonemes(said, language), phonemes(heard, language)
    if not a or not b:
        return None
    return Levenshtein.normalized_distance(a, b)


def sound_alike(said: list[str], heard: list[str], language: str | None = None, *,
                limit: float = MAX_DISTANCE) -> bool:
    """Return whether the text's words `said` and the recognizer's `heard` are the same sounds."""
    found = distance(said, heard, language)
    return found is not None and found <= limit
