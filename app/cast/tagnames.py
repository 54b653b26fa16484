"""Names written in speech tags ("said Whitcombe", "Moss said"): a tag shows a person speaking, so its word
is a name even where the book's other evidence would not make it one (app/cast/names.py asks)."""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from app.cast.mention import MENTION, split_mention
from app.cast.namedata import NOT_NAMES, PLACE_WORDS, TITLES

#: Words that start sentences in front of names ("When Ellen"): dropped from a run's front.
COMMON_STARTS = frozenset("But And When Then So If As Poor Dear Oh Ah Yes No Well Now Why What".split())


#: A word that is a speech tag's whole subject this often ("said Moss", "Moss said") is someone's name.
_HEARD_TAGS = 3


def heard(bare: Iterable[str], midsentence: Counter) -> set[str]:
    """Return the words the book makes a speech tag's whole subject at least _HEARD_TAGS times.

    Such a word is a name even where the book also writes it in lower case ("moss", "the moss") or in a thing's
    name ("the Green Moss Inn"): a place or a thing says nothing. The word must also stand capitalised inside
    sentences as often ("We said" opens a sentence; "said Moss" is mid-sentence), and be no pronoun or title.
    """
    said: Counter = Counter()
    for words in bare:
        m = MENTION.fullmatch(words.strip())
        if m:
            title, tokens = split_mention(m)
            if not title and len(tokens) == 1:
                said[tokens[0]] += 1
    return {tok for tok, n in said.items() if n >= _HEARD_TAGS and midsentence[tok] >= _HEARD_TAGS
            and tok not in NOT_NAMES and tok not in TITLES and tok not in PLACE_WORDS}


def tag_forms(tagged: Iterable[str], lower: Counter, heard: set[str] = frozenset()) -> set[tuple[str | None, tuple[str, ...]]]:
    """Return the name forms of the names written in speech tags, less the words any sentence starts with."""
    out = set()
    for words in tagged:
        m = MENTION.match(words)
        if not m:
            continue
        title, tokens = split_mention(m)
        if not title:
            # "Then Hartley said": "Then" opens the sentence, it is not part of the name.
            while tokens and tokens[0] not in heard and (lower[tokens[0].lower()] or tokens[0] in NOT_NAMES | COMMON_STARTS):
                tokens = tokens[1:]
        if tokens and not any(t in NOT_NAMES or (not title and t in TITLES) for t in tokens):
            out.add((title, tokens))
    return out
