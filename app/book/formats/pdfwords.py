"""Words a PDF hyphenates across its lines: "exam-" + "ple" is "example", unless the book writes
"exam-ple" mid-line elsewhere and never "example" (a compound keeps its hyphen); an address broken after
a slash or a dot goes on unbroken.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from app.book.formats.pdflayout import Line, soft_hyphen_end
from app.book.formats.pdfxref import ends_in_address, goes_on_address

_WORD_END = re.compile(r"([A-Za-z\u00c0-\u024f\u0400-\u04ff]+)[-\u2010]$")
_WORD_START = re.compile(r"^([a-z\u00df-\u024f\u0430-\u04ff]+)")
_ANY_START = re.compile(r"^([A-Za-z\u00c0-\u024f\u0400-\u04ff]+)")
_COMPOUND = re.compile(r"([A-Za-z\u00c0-\u024f\u0400-\u04ff]+)[-\u2010]([A-Za-z\u00c0-\u024f\u0400-\u04ff]+)")
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f\u0400-\u04ff]+")


def vocabulary(lines: Iterable[Line]) -> tuple[set[str], set[str]]:
    """Return the words and the hyphenated compounds the book writes inside its lines."""
    plain: set[str] = set()
    compounds: set[str] = set()
    broken = False
    for ln in lines:
        inner = ln.text
        if broken:  # the tail of a word broken at the line before is no word of its own ("tures")
            inner = _WORD_START.sub("", inner, count=1)
        broken = inner.endswith(("-", "\u2010")) or soft_hyphen_end(inner)
        if broken:  # nor its head ("struc-")
            inner = _WORD_END.sub("", inner[:-1] + "-")
        for a, b in _COMPOUND.findall(inner):
            compounds.add(f"{a}-{b}".casefold())
            compounds.add(f"{a}-".casefold())  # the head: "pseudo-" of "pseudo-packages"
        plain.update(w.casefold() for w in _WORD.findall(inner))
    return plain, compounds


def is_compound(a: str, b: str, plain: set[str], compounds: set[str]) -> bool:
    """Return whether "a-" at a line's end and "b" at the next line's start are a compound, not one word."""
    if (a + b).casefold() in plain:
        return False  # the book writes it as one word
    if f"{a}-{b}".casefold() in compounds:
        return True  # and so with its hyphen
    # A head the book hyphenates elsewhere ("non-" of "non-empty") before a word it writes alone ("negative").
    return f"{a}-".casefold() in compounds and b.casefold() in plain


def join_lines(left: str, right: str, plain: set[str], compounds: set[str]) -> str:
    """Return two lines of one paragraph as one, a word hyphenated across them joined."""
    soft = soft_hyphen_end(left)
    m = _WORD_END.search(left[:-1] + "-" if soft else left)
    n = _ANY_START.match(right)
    if m and n:
        # PDFium marks every hyphen at a line's end as the typesetter's, a compound's too ("non-" + "zero"):
        # the book's own words say which it is.
        a, b = m.group(1), n.group(1)
        if is_compound(a, b, plain, compounds):
            return left[:-1] + "-" + right  # the book writes this compound with its hyphen
        if b[:1].isupper() and (not soft or not b.isupper()):
            return left[:-1] + "-" + right  # no word breaks before a capital: "Half-" + "Installed", "non-" + "English"
        return left[:-1] + right
    if soft:
        return left[:-1] + right
    if ends_in_address(left):
        # "https://www." + "debian.org/" is one address; "https://x.org/" + "for more" is not.
        return left + right if goes_on_address(right) else f"{left} {right}"
    if left.endswith(("-", "\u2010", "/")) and right[:1].isalnum():
        return left + right  # "non-" + "English", "and/" + "or"
    return f"{left} {right}"
