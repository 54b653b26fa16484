"""A written name: the pattern of a run of capitalised words after a maybe title ("Mr. Harlow", "Ellen Harlow"),
and how a match splits into its title and name words (app/cast/names.py and tagnames.py read names so)."""
from __future__ import annotations

import re

from app.cast.namedata import SAME_TITLE, TITLES

_TITLE_RE = "|".join(sorted(TITLES, key=len, reverse=True))
_TOKEN = r"(?:St\.?\s+)?(?:O['\u2019]|Mc|Mac|D['\u2019])?[A-Z][a-z\u00c0-\u024f]+(?:-[A-Z][a-z]+)?"
#: A run of capitalised words, maybe after a title: "Mr. Harlow", "Ellen Harlow", "Lady Honoria Pell".
MENTION = re.compile(
    rf"\b(?:(?P<title>{_TITLE_RE})\.?\s+)?(?P<name>{_TOKEN}(?:\s+(?:(?:de|van|von|du|de la|le|St\.)\s+)?{_TOKEN}){{0,3}})"
    r"(?:['\u2019]s?)?")


def title_key(raw: str | None) -> str | None:
    if not raw:
        return None
    title = raw.rstrip(".")
    return SAME_TITLE.get(title, title)


def split_mention(m: re.Match) -> tuple[str | None, tuple[str, ...]]:
    title = title_key(m.group("title"))
    # "St. John" is one given name (a saint's), not "St" and "John".
    name = re.sub(r"\bSt\.?\s+(?=[A-Z])", "St.\x00", m.group("name"))
    tokens = tuple(t.replace("\x00", " ") for t in name.split() if t[0].isupper() and t != "St.")
    return title, tokens
