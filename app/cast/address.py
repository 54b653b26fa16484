"""Whom a quotation speaks to: a name addressed in it ("Hester, you must not"), and the gender a form of
address shows ("Yes, sir." is said to a man)."""
from __future__ import annotations

import re

_VOCATIVE_BEFORE = re.compile(r"(?:[,!?;\u2014]\s*|-\s*|\b(?:dear|dearest|my|oh|Oh|O|ah|Ah|poor|good)\s+)$")
_VOCATIVE_AFTER = re.compile(r"^\s*(?:[,.!?;\u2014]|-|$)")
#: A name opening a quote is addressed when what follows it is spoken to them ("Hester, you must not").
_OPENING_VOCATIVE_NEXT = re.compile(
    r"^\s*(?:!|,\s*(?:you|your|do|did|don't|pray|what|how|why|come|let|look|tell|will|would|can|could|is|are|"
    r"dear|my|oh|I\s+(?:am|beg|must|say|hope|think|wish|assure|do|have|should|shall|will|know)|we|have|never|"
    r"here|there|listen|wait|stop|go|please|be|take|give|only|now|then|yes|no|well|indeed))\b")


#: Words after "Name," that make the name a subject, not someone addressed ("Mr. Varley, who is...").
_NOT_AFTER_VOCATIVE = frozenset("is was has had will would says said and or who whom whose that which being having I".split())


def is_vocative(quote: str, start: int, end: int) -> bool:
    """Return whether the name at quote[start:end] is someone spoken to."""
    # Only the few characters around the name matter (and a huge quoted paragraph stays linear).
    if start == 0 or not quote[max(0, start - 4):start].strip(" \u2014-\"'") and start < 4:
        rest = quote[end:end + 40]
        if _OPENING_VOCATIVE_NEXT.match(rest):
            return True
        m = re.match(r"^\s*,\s*(\w+)", rest)
        return bool(m) and m.group(1) not in _NOT_AFTER_VOCATIVE
    return bool(_VOCATIVE_BEFORE.search(quote[max(0, start - 12):start]) and _VOCATIVE_AFTER.match(quote[end:end + 4]))


#: Forms of address that show the gender of the one spoken to ("Yes, sir." is said to a man).
_ADDRESS = {"M": "sir|papa|father|uncle|my lord|my boy|my son|brother|mister|grandpapa|grandfather",
            "F": "madam|ma'am|mamma|mama|mother|aunt|my lady|my girl|my daughter|sister|grandmamma|grandmother"}
_ADDRESS_FORMS = {g: re.compile(rf"(?:^|[,!?;\u2014-]\s*)(?:{words})(?=\s*(?:[,.!?;:\u2014-]|$))", re.IGNORECASE)
                  for g, words in _ADDRESS.items()}


def address_gender(quote: str) -> str | None:
    """Return the gender a quote's form of address shows of whom it speaks to ("Come, sir," -> "M"), or None
    when it has none or both."""
    found = [g for g, pattern in _ADDRESS_FORMS.items() if pattern.search(quote)]
    return found[0] if len(found) == 1 else None
