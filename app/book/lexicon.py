"""Pronunciation lexicons: the book's own hints (EPUB 3 PLS, ssml:ph) and the user's file.

A book hint carries an alias (text to say instead of the word), phonemes in
IPA, or both. The phonemes are used where the backend takes them (Piper: its
`[[ phonemes ]]` input); elsewhere the alias is said, and a word with only
phonemes stays as printed, since a respelling guessed from IPA would mislead a
voice more than the printed word does. X-SAMPA hints are not converted. The
user's lexicon (word -> how to say it) is applied last and wins over everything.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import NamedTuple

from lxml import etree

from app.core import paths
from app.book.normalize import clean_text
from app.core.errors import InputError

#: The default user lexicon in the app home; --lexicon FILE adds to it (and wins).
LEXICON_FILE = "lexicon.toml"
#: A user lexicon larger than this is not a hand-edited word list.
MAX_LEXICON_BYTES = 2 * 1024 * 1024
_PLS_NS = "http://www.w3.org/2005/01/pronunciation-lexicon"


def default_lexicon_file() -> Path:
    """Return the user's lexicon file in the app home (it need not exist)."""
    return paths.home() / LEXICON_FILE


def load_user_lexicon(path: Path) -> dict[str, str]:
    """Return the words of a TOML lexicon: top-level `word = "how to say it"` or a [words] table."""
    path = Path(path).expanduser()
    hint = f'Write one line per word, like  Hermione = "her-MY-oh-nee"  (see {LEXICON_FILE} in README.md)'
    try:
        if path.stat().st_size > MAX_LEXICON_BYTES:
            raise InputError(f"Lexicon {path} is over {MAX_LEXICON_BYTES} bytes", hint=hint)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"Lexicon {path} does not exist", hint="Check the path given to --lexicon") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"Cannot read lexicon {path}: {exc}", hint=hint) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"Lexicon {path} is not valid TOML: {exc}", hint=hint) from None
    table = data.get("words", data) if isinstance(data.get("words"), dict) else data
    words: dict[str, str] = {}
    for word, say in table.items():
        if not isinstance(say, str) or not clean_text(word):
            raise InputError(f"Lexicon {path}: {word!r} must map to a string, not {type(say).__name__}", hint=hint)
        words[clean_text(word)] = clean_text(say)
    return words


class Hint(NamedTuple):
    """How the book says a word: an alias, IPA phonemes, or both ("" when absent)."""

    alias: str = ""
    ipa: str = ""


def parse_pls(data: bytes, name: str) -> dict[str, Hint]:
    """Return grapheme -> hint for the lexemes of a W3C PLS document (IPA phonemes only)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return {}  # a broken hint file must not cost the user the book
    default_alphabet = (root.get("alphabet") or "").lower()
    words: dict[str, Hint] = {}
    for lexeme in root.iter(f"{{{_PLS_NS}}}lexeme", "lexeme"):
        alias = next((clean_text("".join(a.itertext())) for a in lexeme.iter(f"{{{_PLS_NS}}}alias", "alias")), "")
        ipa = ""
        for phoneme in lexeme.iter(f"{{{_PLS_NS}}}phoneme", "phoneme"):
            if (phoneme.get("alphabet") or default_alphabet).lower() == "ipa":
                ipa = clean_text("".join(phoneme.itertext()))
                break
        if not alias and not ipa:
            continue
        for grapheme in lexeme.iter(f"{{{_PLS_NS}}}grapheme", "grapheme"):
            word = clean_text("".join(grapheme.itertext()))
            if word:
                words[word] = Hint(alias, ipa)
    return words


def book_hints(pls: dict[str, Hint], ssml_ph: dict[str, str]) -> tuple[tuple[str, str, str], ...]:
    """Return the book's hints as (word, alias, ipa) rows: PLS entries, their phonemes replaced by ssml:ph."""
    merged_hints = dict(pls)
    for word, ipa in ssml_ph.items():
        merged_hints[word] = Hint(merged_hints.get(word, Hint()).alias, ipa)
    return tuple((word, hint.alias, hint.ipa) for word, hint in merged_hints.items())


def user_words(*user_files: Path | None) -> dict[str, str]:
    """Return the words of each given user lexicon file, later files winning."""
    words: dict[str, str] = {}
    for path in user_files:
        if path is not None:
            words.update(load_user_lexicon(path))
    return words
