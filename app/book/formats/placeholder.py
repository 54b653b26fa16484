"""Metadata that names nothing: what producers write when the author gave no title or name."""
from __future__ import annotations

import re

from app.book.narration.cleanup import is_matter_title
from app.book.normalize import clean_text

#: Titles a producer writes for an untitled file: "Untitled", "Document1", a file name.
_TITLE = re.compile(r"^(?:untitled\b.*|title|document\s*\d*|unknown|none|microsoft word\s*-.*|.*\.(?:docx?|odt|"
                    r"tex|dvi|ps|pdf|txt|rtf|indd)|[\W_]*)$", re.I)
#: Authors a program fills in from the machine's account: "User", "Administrator", "Microsoft Office User".
_AUTHOR = re.compile(r"^(?:unknown|none|user|admin|administrator|author|owner|microsoft office user|"
                     r"python-docx|windows user|default|\W*|\w|"
                     # Windows' built-in accounts, which a file written in a sandbox or by a service carries:
                     # "WDAGUtilityAccount" (Windows Defender Application Guard), "DefaultAccount", "Guest".
                     r"wdagutilityaccount|defaultaccount|guest|"
                     # Windows names a Microsoft-account login so where no name was given (in the system's
                     # language): "Microsoft account", "Учетная запись Майкрософт", "Microsoft-Konto".
                     r"microsoft account|compte microsoft|cuenta de microsoft|microsoft-konto|"
                     r"account microsoft|учетная запись (?:майкрософт|microsoft))$", re.I)
#: A heading longer than this is a paragraph set as a heading: it names no document.
TITLE_MAX_WORDS = 20


def is_placeholder(value: str, stem: str = "") -> bool:
    """Return whether a metadata title says nothing: empty, "Untitled", "Document1", a file name."""
    v = clean_text(value or "").strip()
    return not v or bool(_TITLE.match(v)) or (bool(stem) and v.casefold() == stem.casefold())


def is_placeholder_author(value: str) -> bool:
    """Return whether a metadata author names no one: empty, "User", "Administrator"."""
    return bool(_AUTHOR.match(clean_text(value or "").strip()))


def names_document(text: str) -> bool:
    """Return whether a heading can name its document when the metadata names none: it says something
    (a letter), is no paragraph set as a heading, and is no matter heading ("Contents", "Index")."""
    t = clean_text(text or "").strip()
    return bool(re.search(r"[^\W\d_]", t)) and len(t.split()) <= TITLE_MAX_WORDS and not is_matter_title(t)
