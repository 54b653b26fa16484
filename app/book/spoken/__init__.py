"""Spoken forms: text written out as a voice should say it, before any backend sees it.

One module per concern (numbers, dates, sterling, fractions, labels, roman, links,
symbols), the words of
each language as data (languages.py). The passes run in a fixed order: the
lexicon first (a user's word beats every rule), then links (which contain dots
and slashes the later passes would read), then the most specific number forms
(times, dates, money) before the general ones (plain cardinals).
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable

from app.book.model import Book
from app.book.normalize import clean_text, is_speakable
from app.book.spoken import dates, fractions, labels, links, numbers, older, roman, sterling, symbols
from app.book.spoken.languages import LANGUAGES, Language, base_code, display_name, language_for
from app.book.spoken.links import LINK_MODES

__all__ = ["LANGUAGES", "LINK_MODES", "Language", "Speaker", "base_code", "display_name", "language_for", "speak"]


#: Private-use characters stand in for lexicon replacements while the rules run, so that
#: what a lexicon says is said exactly (no rule rewrites "Drive" or "[[ ˈnaɪki ]]").
_PLACEHOLDER = 0xE000
_PLACEHOLDERS = 0xF8FF - 0xE000 + 1
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
#: Text the number passes have work in: a digit of any script, a vulgar fraction, a pound sign.
_NUMERIC = re.compile("[\\d\u00bc-\u00be\u2150-\u215e\u00a3\u2044]")


class Speaker:
    """Write out text in one language, with the book's hints and the user's lexicon on top.

    `phonemes` turns IPA into the backend's phoneme markup, or returns None
    when the backend takes none; the book's hints are then said by their alias.
    """

    def __init__(self, language: str | None = "en", lexicon: dict[str, str] | None = None, *,
                 hints: Iterable[tuple[str, str, str]] = (), phonemes: Callable[[str], str | None] | None = None,
                 links: str = "read"):
        if links not in LINK_MODES:
            raise ValueError(f"links must be one of {LINK_MODES}, not {links!r}")
        self.language: Language = language_for(language)
        self.links = links
        self.lexicon: dict[str, str] = {}
        for word, alias, ipa in hints:
            said = (phonemes(ipa) if ipa and phonemes else None) or alias
            if said:
                self.lexicon[word] = said
        self.lexicon.update(lexicon or {})
        self._folded = {word.casefold(): said for word, said in self.lexicon.items()}
        self._lexicon_re = _lexicon_pattern(self.lexicon)

    def __call__(self, text: str) -> str:
        """Return one paragraph in spoken form."""
        lang = self.language
        said: list[str] = []
        text = _PRIVATE_USE.sub("", text)  # icon-font glyphs: nothing to say, and the placeholders' range
        if self._lexicon_re is not None:
            def hold(m: re.Match) -> str:
                if len(said) >= _PLACEHOLDERS:
                    return m[0]  # a paragraph with thousands of lexicon words: the rest read as printed
                said.append(self._say_word(m[0]))
                return chr(_PLACEHOLDER + len(said) - 1)

            text = self._lexicon_re.sub(hold, text)
        text = links.links(text, lang, self.links)
        text = older.notes_and_illustrations(roman.section_number(older.plain_emphasis(text), lang))
        text = symbols.bullets(text)
        # Not only digits: "½" and "¾" are numbers, and "£ s. d." is money without one.
        digits = bool(lang.n2w) and _NUMERIC.search(text) is not None
        if digits or "&" in text:
            text = older.older_forms(text, lang)
            digits = bool(lang.n2w) and _NUMERIC.search(text) is not None
        if digits:
            text = dates.times(text, lang)
        text = symbols.abbreviations(text, lang)
        if digits:
            # Most prose has no digits: these passes are skipped for it (a cached re-run re-plans the book).
            text = sterling.sterling(text, lang)  # "£5 10s. 6d." and "8½d." before money and fractions
            text = fractions.fractions(text, lang)  # "4½", "2 1/4" before dates ("May 1⁄2") and "3/4"
            text = dates.numeric_dates(text, lang)
            text = dates.written_dates(text, lang)
            text = numbers.money(text, lang)
            text = numbers.percent(text, lang)
            text = numbers.units(text, lang)
            text = numbers.fractions(text, lang)
            text = labels.labels(text, lang)
            text = numbers.multipliers(text, lang)
        text = roman.romans(text, lang)
        if digits:
            text = numbers.ordinals(text, lang)
            text = numbers.years(text, lang)
            text = numbers.ranges(text, lang)
            text = numbers.plain(text, lang)
            text = numbers.leftover(text, lang)
        text = symbols.symbols(text, lang)
        if said:
            text = _PRIVATE_USE.sub(lambda m: said[ord(m[0]) - _PLACEHOLDER], text)
        return clean_text(text)

    def _say_word(self, word: str) -> str:
        """Return what the lexicon says for a word: its exact entry, else the entry matching without case."""
        return self.lexicon.get(word) or self._folded.get(word.casefold(), word)

    def book(self, book: Book) -> Book:
        """Return the book with every paragraph in spoken form (empty ones dropped)."""
        chapters = []
        for chapter in book.chapters:
            paragraphs = tuple(p for p in map(self, chapter.paragraphs) if is_speakable(p))
            chapters.append(dataclasses.replace(chapter, paragraphs=paragraphs))
        return dataclasses.replace(book, chapters=tuple(c for c in chapters if c.paragraphs),
                                   language=self.language.code)


def _lexicon_pattern(lexicon: dict[str, str]) -> re.Pattern | None:
    """Return a regex for every lexicon word as a whole word, longest first, case-insensitive."""
    if not lexicon:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(lexicon, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def speak(text: str, language: str | None = "en", lexicon: dict[str, str] | None = None) -> str:
    """Return text written out as it should be spoken."""
    return Speaker(language, lexicon)(text)
