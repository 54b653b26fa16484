"""Pronunciation lexicons: the book's own hints (EPUB 3 PLS, ssml:ph) and the user's file.

Every backend here takes text, not phonemes, so a hint becomes text: a PLS
lexeme's <alias> when it has one; a phoneme-only hint (PLS <phoneme> or an
ssml:ph attribute) leaves the word as printed, since a respelling guessed from
IPA would mislead a voice more than the printed word does. The user's lexicon
(word -> how to say it) is applied last and wins over everything.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from lxml import etree

from app import paths
from app.book.normalize import clean_text
from app.errors import InputError

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


def parse_pls(data: bytes, name: str) -> dict[str, str]:
    """Return grapheme -> alias for the lexemes of a W3C PLS document that carry an <alias>."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return {}  # a broken hint file must not cost the user the book
    words: dict[str, str] = {}
    for lexeme in root.iter(f"{{{_PLS_NS}}}lexeme", "lexeme"):
        alias = next((clean_text("".join(a.itertext())) for a in lexeme.iter(f"{{{_PLS_NS}}}alias", "alias")), "")
        if not alias:
            continue
        for grapheme in lexeme.iter(f"{{{_PLS_NS}}}grapheme", "grapheme"):
            word = clean_text("".join(grapheme.itertext()))
            if word:
                words[word] = alias
    return words


def merged(book_hints: dict[str, str], *user_files: Path | None) -> dict[str, str]:
    """Return the book's hints overridden by each existing user lexicon file in turn."""
    words = dict(book_hints)
    for path in user_files:
        if path is not None:
            words.update(load_user_lexicon(path))
    return words
