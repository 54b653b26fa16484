"""The cast of a book as plain data: characters, quotations and who says each."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Character:
    """One speaking character: the name used for it, its other names, its gender where the text shows it."""

    name: str
    aliases: tuple[str, ...]
    #: "F", "M" or None when the text does not show it.
    gender: str | None
    #: Quotations attributed to it.
    lines: int


@dataclass(frozen=True)
class Quote:
    """One quotation in the text and who says it."""

    #: Chapter.index (1-based).
    chapter: int
    #: Index into Chapter.paragraphs.
    paragraph: int
    #: Character offsets in the paragraph, including the quotation marks.
    start: int
    end: int
    #: The quotation without its marks.
    text: str
    #: A Character.name, or None (the narrator or unknown).
    speaker: str | None
    #: How the speaker was found ("explicit", "turn-taking", ...).
    method: str
    confidence: float


@dataclass(frozen=True)
class Cast:
    #: Most lines first.
    characters: tuple[Character, ...]
    #: Book order.
    quotes: tuple[Quote, ...]
    #: The narrator says "I": the narrator's quotes are the narrator's, not a character's.
    first_person: bool
