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
_COMPOUND = re.compile(r"([A-Za-z\u00c0-\u024f\u0400-\u04ff]+)[-\u2010]([A-Za-z\u00c0-\u024f\u0400-\u04ff]+)")
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f\u0400-\u04ff]+")


def vocabulary(lines: Iterable[Line]) -> tuple[set[str], set[str]]:
    """Return the words and the hyphenated compounds the book writes inside its lines."""
    plain: set[str] = set()
    compounds: set[str] = set()
    for ln in lines:
        inner = ln.text[:-1] if ln.text.endswith(("-", "\u2010")) else ln.text
        for a, b in _COMPOUND.findall(inner):
            compounds.add(f"{a}-{b}".casefold())
            compounds.add(f"{a}-".casefold())  # the head: "pseudo-" of "pseudo-packages"
        plain.update(w.casefold() for w in _WORD.findall(inner))
    return plain, compounds


def join_lines(left: str, right: str, plain: set[str], compounds: set[str]) -> str:
    """Return two lines of one paragraph as one, a word hyphenated across them joined."""
    if soft_hyphen_end(left):
        return left[:-1] + right
    m = _WORD_END.search(left)
    n = _WORD_START.match(right)
    if m and n:
        a, b = m.group(1), n.group(1)
        whole = (a + b).casefold()
        if (f"{a}-{b}".casefold() in compounds or f"{a}-".casefold() in compounds) and whole not in plain:
            return left + right  # the book writes this compound with its hyphen
        return left[:-1] + right
    if ends_in_address(left):
        # "https://www." + "debian.org/" is one address; "https://x.org/" + "for more" is not.
        return left + right if goes_on_address(right) else f"{left} {right}"
    if left.endswith(("-", "\u2010", "/")) and right[:1].isalnum():
        return left + right  # "non-" + "English", "and/" + "or"
    return f"{left} {right}"
