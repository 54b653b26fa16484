"""Show the book as written while timing follows what was spoken.

The pipeline may narrate a spoken form of the text ("21" read as "twenty-one",
a lexicon's phonemes): the sentences are timed on the chunks that were
spoken, but a reader must see the book's own words. Paragraphs correspond one
to one (chunks never cross a paragraph); inside a paragraph the written
sentences replace the spoken ones one to one when they are as many, else the
paragraph becomes one element timed from its first spoken sentence to its last.
"""
from __future__ import annotations

import dataclasses
import re
from itertools import groupby

from app.book.chunking import split_sentences
from app.output.timing import ChapterTiming, Sentence


def show_written(timing: ChapterTiming, paragraphs: tuple[str, ...], language: str = "en") -> ChapterTiming:
    """Return the timing with each sentence's text taken from the written paragraphs where they match."""
    spoken = [list(group) for _, group in groupby(timing.sentences, key=lambda s: s.paragraph)]
    if len(spoken) != len(paragraphs):
        # The spoken form drops paragraphs with nothing to say ("* * *"); so do we.
        paragraphs = tuple(p for p in paragraphs if re.search(r"\w", p))
    if len(spoken) != len(paragraphs):
        return timing  # not the same chapter structure: keep the spoken text rather than misplace words
    shown: list[Sentence] = []
    for sentences, paragraph in zip(spoken, paragraphs):
        written = split_sentences(paragraph, language) or [paragraph]
        if [s.text for s in sentences] == written:
            shown += sentences
        elif len(written) == len(sentences):
            shown += [dataclasses.replace(s, text=text) for s, text in zip(sentences, written)]
        else:
            first, last = sentences[0], sentences[-1]
            shown.append(dataclasses.replace(first, text=" ".join(written), end=last.end))
    return dataclasses.replace(timing, sentences=shown)
