"""Delivery from the dialogue tag: `whispered`, `shouted angrily`, `said softly` become a line's direction.

The tag is the engine's: find_cast reads each quotation's own tag and keeps its verb and
adverb (Quote.verb, Quote.manner; app/cast/tags.py), so a verb further on in the narration
does not colour the line and the tag is parsed in one place only. Here they are only worded
as a direction, and for a voice that takes no instructions, as a speaking rate.
"""
from __future__ import annotations

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


def direction_of(verb: str, manner: str = "") -> str | None:
    """Return the direction a tag's speech verb and adverb give ("Whispering angrily.", "Softly."), or None.

    A verb that says how a line is spoken gives its direction; any other speech verb (`said`,
    `retorted`) only carries its adverb; no adverb and such a verb, or no tag: None.
    """
    words = verb.split()
    # "cried out", "called out": the verb is the first word.
    given = VERBS.get(_stem(words[0])) if words else None
    if not given and not manner:
        return None
    phrase = " ".join(p for p in (given, manner.lower()) if p)
    return phrase[0].upper() + phrase[1:] + "."
