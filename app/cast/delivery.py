"""Delivery from the dialogue tag: `whispered`, `shouted angrily`, `said softly` become a line's direction.

Only the tag touching the quotation is read (the narration right after it, else right
before it, up to the next quotation or sentence end), so a verb further on in the
narration does not colour the line.
"""
from __future__ import annotations

import re

#: Dialogue verbs that say how a line is spoken, and the direction each gives.
VERBS = {
    "whisper": "Whispering", "murmur": "Murmuring softly", "mutter": "Muttering under the breath",
    "mumble": "Mumbling", "shout": "Shouting", "yell": "Yelling", "bellow": "Bellowing", "roar": "Roaring",
    "scream": "Screaming", "shriek": "Shrieking", "exclaim": "Exclaiming", "sob": "Sobbing",
    "laugh": "Laughing", "giggle": "Giggling", "chuckle": "Chuckling", "sigh": "With a sigh",
    "snap": "Snapping sharply", "growl": "Growling", "hiss": "Hissing", "stammer": "Stammering",
    "stutter": "Stammering", "plead": "Pleading", "beg": "Pleading", "whimper": "Whimpering",
    "groan": "Groaning", "gasp": "Gasping", "sneer": "Sneering", "wail": "Wailing", "weep": "Weeping",
    "breathe": "Breathing the words", "call": "Calling out", "demand": "Demanding", "cry": "Crying out",
}
#: Tag verbs that say nothing of delivery but may carry an adverb (`said softly`).
PLAIN = ("say", "said", "ask", "reply", "answer", "add", "continue", "observe", "remark", "repeat")
_INFLECTED = {"cried": "cry", "cries": "cry", "wept": "weep", "begged": "beg", "sobbed": "sob",
              "snapped": "snap", "said": "say", "says": "say"}
_WORD = re.compile(r"[A-Za-z]+")
#: Words of the tag read: the tag is the few words touching the quote.
_TAG_WORDS = 6
_STOP = re.compile(r"[.!?;\u201c\u201d\"]")
#: -ly words that are not manners of speaking.
_NOT_ADVERBS = frozenset({"only", "early", "family", "lonely", "daily", "holy", "lovely", "silly", "likely",
                          "really", "nearly", "presently", "finally", "suddenly", "immediately", "fly",
                          "reply", "apply", "supply", "ally", "belly", "jolly", "lily", "molly", "sally",
                          "emily", "kelly", "holly", "polly", "billy", "willy", "italy", "july"})


#: How a delivery moves the speaking rate, for a voice that takes no instructions (Piper): slower for
#: the hushed and the grieving, faster for the loud and the hurried.
_SLOWER = ("Whispering", "Murmuring", "Muttering", "Mumbling", "Sobbing", "Weeping", "Pleading", "Groaning",
           "Whimpering", "Wailing", "Stammering", "With a sigh", "Breathing", "Slowly", "Softly", "Quietly",
           "Gently", "Sadly", "Wearily")
_FASTER = ("Shouting", "Yelling", "Bellowing", "Roaring", "Screaming", "Shrieking", "Exclaiming", "Snapping",
           "Crying out", "Calling out", "Demanding", "Quickly", "Hurriedly", "Breathlessly", "Eagerly", "Excitedly",
           "Angrily", "Impatiently")
#: The factor each moves the rate by: heard, yet the character's own rate stays recognisable.
PACE_STEP = 0.1


def pace_of(direction: str | None) -> float | None:
    """Return the factor a direction moves the speaking rate by (0.9 hushed, 1.1 loud), or None."""
    if not direction:
        return None
    if direction.startswith(_SLOWER) or any(f" {w.lower()}" in direction for w in _SLOWER[-7:]):
        return 1 - PACE_STEP
    if direction.startswith(_FASTER) or any(f" {w.lower()}" in direction for w in _FASTER[-6:]):
        return 1 + PACE_STEP
    return None


def _stem(word: str) -> str:
    w = word.lower()
    if w in _INFLECTED:
        return _INFLECTED[w]
    for suffix in ("ed", "es", "s", "ing"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 2:
            base = w[: -len(suffix)]
            for candidate in (base, base + "e", base[:-1] if len(base) > 2 and base[-1] == base[-2] else base):
                if candidate in VERBS or candidate in PLAIN:
                    return candidate
    return w


def _direction(words: list[str]) -> str | None:
    """Return the direction a tag's words give ("Whispering angrily."), or None."""
    verb = adverb = None
    for w in words:
        stem = _stem(w)
        if verb is None and stem in VERBS:
            verb = VERBS[stem]
        elif verb is None and stem in PLAIN:
            verb = ""
        elif w.lower().endswith("ly") and len(w) > 4 and w.lower() not in _NOT_ADVERBS and adverb is None:
            adverb = w.lower()
    if verb is None or (not verb and adverb is None):
        return None
    phrase = " ".join(p for p in (verb, adverb) if p)
    return phrase[0].upper() + phrase[1:] + "."


def direction_for(paragraph: str, start: int, end: int, next_start: int | None = None,
                  prev_end: int = 0) -> str | None:
    """Return the delivery the tag beside the quote at [start, end) gives, or None.

    `next_start`/`prev_end` bound the tag at the neighbouring quotations.
    """
    after = paragraph[end:next_start if next_start is not None else len(paragraph)]
    stop = _STOP.search(after)
    words = _WORD.findall(after[:stop.start()] if stop else after)[:_TAG_WORDS]
    found = _direction(words)
    if found is None:
        before = paragraph[prev_end:start]
        cut = max((m.end() for m in _STOP.finditer(before)), default=0)
        found = _direction(_WORD.findall(before[cut:])[-_TAG_WORDS:])
    return found
