"""Turn raw extracted text into clean plain-text paragraphs."""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable

#: Characters that are invisible in print and only confuse a voice: soft hyphen,
#: zero-width space, word joiner, BOM, bidi marks and overrides. ZWJ/ZWNJ stay
#: because Persian, Indic scripts and emoji need them.
_INVISIBLE = dict.fromkeys(
    map(ord, "\u00ad\u200b\u2060\ufeff\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
    None,
)


def _keep(ch: str) -> str:
    """Return the character, a space for any whitespace, or nothing for a control character."""
    if ch.isspace():
        return " "
    cat = unicodedata.category(ch)
    # Cc: C0/C1 controls; Cs: lone surrogates; Cn: unassigned/noncharacters.
    if cat in ("Cc", "Cs", "Cn"):
        return ""
    return ch


def clean_text(text: str) -> str:
    """Return text as one line: NFC, no control or invisible characters, single spaces."""
    # str.split() folds the same whitespace as \s+ (Py_UNICODE_ISSPACE), several times faster on megabytes.
    # Folded first: a newline is not printable, and the per-character pass below would otherwise run on
    # nearly every paragraph of a plain-text book (20 of 22 s of reading Pepys's diary).
    text = " ".join(unicodedata.normalize("NFC", text).translate(_INVISIBLE).split())
    if not text.isprintable():
        text = " ".join("".join(_keep(ch) for ch in text).split())
    return text


def is_speakable(text: str) -> bool:
    """Return whether text has anything a voice can say (a letter or a digit)."""
    return any(ch.isalnum() for ch in text)


def clean_paragraphs(texts: Iterable[str]) -> tuple[str, ...]:
    """Return the cleaned paragraphs that have something to say."""
    out = []
    for text in texts:
        cleaned = clean_text(text)
        if is_speakable(cleaned):
            out.append(cleaned)
    return tuple(out)


def looks_binary(text: str) -> bool:
    """Return whether decoded text is mostly control characters (not a text file)."""
    sample = text[:20000]
    if not sample:
        return False
    bad = sum(1 for ch in sample if unicodedata.category(ch) == "Cc" and ch not in "\n\r\t\f\v")
    # A short text needs a higher share before it is judged: the cleaner copes with a few stray controls.
    return bad / len(sample) > (0.05 if len(sample) >= 1000 else 0.3)
