"""Metadata that names nothing: what producers write when the author gave no title or name."""
from __future__ import annotations

import re

from app.book.normalize import clean_text

#: Titles a producer writes for an untitled file: "Untitled", "Document1", a file name.
_TITLE = re.compile(r"^(?:untitled\b.*|title|document\s*\d*|unknown|none|microsoft word\s*-.*|.*\.(?:docx?|odt|"
                    r"tex|dvi|ps|pdf|txt|rtf|indd))$", re.I)
#: Authors a program fills in from the machine's account: "User", "Administrator", "Microsoft Office User".
_AUTHOR = re.compile(r"^(?:unknown|none|user|admin|administrator|author|owner|microsoft office user|"
                     r"python-docx|windows user|default|\W*)$", re.I)


def is_placeholder(value: str, stem: str = "") -> bool:
    """Return whether a metadata title says nothing: empty, "Untitled", "Document1", a file name."""
    v = clean_text(value or "").strip()
    return not v or bool(_TITLE.match(v)) or (bool(stem) and v.casefold() == stem.casefold())


def is_placeholder_author(value: str) -> bool:
    """Return whether a metadata author names no one: empty, "User", "Administrator"."""
    return bool(_AUTHOR.match(clean_text(value or "").strip()))
