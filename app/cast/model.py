"""The cast of a book as plain data: its characters and who says each quotation."""
from __future__ import annotations

from dataclasses import dataclass

#: How an attribution was made, best first.
METHODS = ("explicit", "anaphoric", "ranked", "turn-taking", "vocative", "guess")


@dataclass(frozen=True)
class Character:
    #: Main name, e.g. "Ellen Harlow".
    name: str
    #: Other names found for the same person, e.g. ("Nelly", "Miss Harlow").
    aliases: tuple[str, ...]
    #: "F", "M" or None where the text does not show it.
    gender: str | None
    #: Quotations attributed to them.
    lines: int


@dataclass(frozen=True)
class Quote:
    #: Chapter.index (1-based) of the app.book.model.Chapter the quote is in.
    chapter: int
    #: Index into that Chapter.paragraphs.
    paragraph: int
    #: Char offset of the quote, including its opening mark, in the paragraph text.
    start: int
    #: Char offset just past it, including its closing mark when it has one.
    end: int
    #: The quotation as printed, without its quotation marks.
    text: str
    #: A Character.name, or None (the narrator, or unknown).
    speaker: str | None
    #: One of METHODS.
    method: str
    #: 0..1.
    confidence: float
    #: The first-person narrator says it ("I said"): speaker is None, and it is not unknown.
    by_narrator: bool = False
    #: The speech verb of the quote's own tag ("whispered"), "" when it has none.
    verb: str = ""
    #: The tag's adverb of delivery ("angrily" in "shouted angrily"), "" when none.
    manner: str = ""


@dataclass(frozen=True)
class Cast:
    #: Most lines first.
    characters: tuple[Character, ...]
    #: Book order.
    quotes: tuple[Quote, ...]
    #: The narration is in the first person.
    first_person: bool
