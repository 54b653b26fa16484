"""Guess a book's language from its commonest words, for formats whose metadata often names none.

A PDF without /Lang, a DOCX without a language property: the spoken forms need the language (a
German book's numbers read in English are wrong), so the most frequent function words decide,
and only when one language clearly leads; otherwise the default stays English.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

#: The commonest short function words of each language (none shared between the lists).
_STOPWORDS = {
    "en": "the and of to in is that it was for with as his on be at by this had not are but from or have",
    "de": "der die und das ist nicht ein eine zu den von mit sich des auf für dem im auch es wird als",
    "fr": "le la les et des est une du dans qui pas pour sur au avec ce il sont par plus ne se",
    "es": "el los las del que y en es por una con para como más pero sus al lo se su",
    "it": "il di che è della per non una sono gli del le dei nel alla anche come più questo",
    "nl": "de het een van en is dat niet op zijn te voor met aan er ook als bij door wordt",
    "pt": "o os as da do que não uma em para com por mais dos das se na no ao",
    "ru": "и в не на что с по как это он она но из за от к то все его",
    "pl": "i w nie na się że z do jest to jak po ale od za co tak przez",
}
_LISTS = {lang: frozenset(words.split()) for lang, words in _STOPWORDS.items()}
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
#: Words looked at: enough for a clear lead, few enough to stay fast on a long book.
SAMPLE_WORDS = 20_000


def guess_language(paragraphs: Iterable[str], default: str = "en") -> str:
    """Return the primary language subtag whose function words the text uses most, or `default`."""
    counts: Counter = Counter()
    seen = 0
    for text in paragraphs:
        for word in _WORD.findall(text.lower()):
            seen += 1
            for lang, words in _LISTS.items():
                if word in words:
                    counts[lang] += 1
        if seen >= SAMPLE_WORDS:
            break
    if not counts:
        return default
    ranked = counts.most_common(2)
    best, score = ranked[0]
    runner = ranked[1][1] if len(ranked) > 1 else 0
    return best if score >= 0.08 * seen and score >= 1.5 * runner else default
