"""Reported speech in any order: the sentence beside a quotation that says who spoke it without a tag's word
order ("Hugh bent towards Wenna and said,", "was uttered by Maud", "Tamsin's remark was"). app/cast/tags.py
reads the tags proper; these are the fallback when no tag names anyone, found by the sentence's subject.
"""
from __future__ import annotations

import re
from typing import Callable

from app.cast.names import MENTION
from app.cast.namedata import ABBREVIATED
from app.cast.tags import NAME, SPEECH_VERBS, Tag


#: Words that show a sentence reports speech even without a tag's word order ("and saying,", "was uttered
#: by Catherine", "was her reply").
_SPEECH_WORDS = re.compile(
    r"\b(?:" + "|".join(sorted(set(SPEECH_VERBS), key=len, reverse=True)) +
    r"|saying|crying|replying|answering|asking|exclaiming|returning|continuing|adding|observing|remarking|"
    r"whispering|shouting|muttering|murmuring|calling|beginning|repeating|declaring|inquiring|enquiring|"
    r"protesting|explaining|insisting|urging|sighing|laughing|screaming|stammering|faltering|suggesting|"
    r"demanding|uttered|uttering|reply|answer|exclamation|rejoinder|retort|greeted|addressed|accosted|"
    r"speaking|spoke|speech|words|remark|comment|observation|response|reasoning|declaration|injunction|went\s+on|broke\s+in|put\s+in|burst\s+out)\b")
_SENTENCE_GAP = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"\u201c\u2018'])")
_ABBREVIATION = re.compile(r"(?:\b(?:" + "|".join(sorted(ABBREVIATED | {"St", "Messrs", "Mesdames"}, key=len, reverse=True))
                           + r")|\b[A-Z])\.$")
_SUBJECT_WORD = re.compile(rf"{NAME}|\b[Hh]e\b|\b[Ss]he\b|\bI\b")
#: A word right before a name that makes it no subject ("bent towards Wenna and said").
#: Where a new clause starts, with a subject of its own.
_CLAUSE_BREAK = re.compile(r"(?:,\s+(?:when|while|whereupon|till|until|and|but|then)|;|\sthat(?=\s+[A-Z]))\s+")
_OBJECT_MARK = frozenset("""to towards toward with at of from for by on upon in into about than before after behind
beside near round around over under against like saw met left joined followed addressed answered asked told
and or nor""".split())
#: Capitalised words opening a sentence that are no one ("At the end of the week Perpetua said").
_LEAD_WORDS = frozenset("""At In On But And Then When After Before As If So Yet While Now Still Thus Here There With
For By From The A An This That Of To Upon Presently Suddenly Finally Meanwhile Again Once""".split())
#: A word before a name that makes it the subject of a clause inside the sentence, not of its speech verb
#: ("When Wenna had gone, Hugh said:").
_SUBORDINATE = frozenset("when whenever while whilst as if though although since until till because once whereas".split())
#: Words after which a name still opens its clause ("and at last Wenna said", "then the Heron said").
_CLAUSE_OPENERS = frozenset("""and but then last now so yet here there again still the whereupon thus also even
length once""".split())
#: "Tamsin's remark was": the possessor of a word for speech says it.
_POSSESSED_SPEECH = re.compile(r"^['\u2019]s\s+(?:[a-z]+\s+){0,2}?(?:remark|reply|answer|comment|words|exclamation|"
                               r"rejoinder|retort|response|cry|question|observation|saying|reasoning|language|declaration|reproach|inquiry|"
                               r"injunction|amendment|exclamation|suggestion)\b")


def _sentences(text: str) -> list[str]:
    """Split text into sentences, never after a title's full stop or an initial ("Mrs. Ardley", "E. Quennel")."""
    out: list[str] = []
    start = 0
    for gap in _SENTENCE_GAP.finditer(text):
        if _ABBREVIATION.search(text[max(start, gap.start() - 12):gap.start()]):
            continue
        out.append(text[start:gap.start()])
        start = gap.end()
    out.append(text[start:])
    return out


#: A relative clause about someone else: "whose hands began to shake" reports no speech of the
#: sentence's subject ("Wenna, who remarked" does: its "who" is the speaker).
_RELATIVE = re.compile(r",\s+(?:whose|which)\b[^,;]*")


def _subject_words(sentence: str) -> list[re.Match]:
    """Return the names and pronouns of a sentence, without a capitalised word opening it ("Suddenly Mrs.
    Ardley" is "Mrs. Ardley", "When Wenna" is "Wenna")."""
    out = []
    for m in _SUBJECT_WORD.finditer(sentence):
        first = m.group().split()[0]
        if len(m.group().split()) > 1 and (first in _LEAD_WORDS or first.endswith("ly")):
            m = _SUBJECT_WORD.match(sentence, m.start() + len(first) + 1) or m
        out.append(m)
    return out


def _opens_clause(previous: list[str], at_cut: bool) -> bool:
    """Return whether a name after the word previous (none: the sentence's start) may be its clause's subject:
    after a comma or a word opening a clause ("and at last Wenna", "the Heron", "suddenly Hugh"), not after a
    preposition, a subordinating word or a verb whose object it is ("and borne Hugh company")."""
    if not previous:
        return True
    word = previous[-1]
    bare = word.strip(",;:()\u2014-").lower()
    # "Fanny turned; and Wenna said": an "and" after a comma or semicolon opens a clause, "Tom and Wenna" not.
    at_cut = at_cut or len(previous) < 2 or previous[0][-1] in ",;:\u2014-"
    if bare in _OBJECT_MARK and (bare not in ("and", "or", "nor") or not at_cut):
        return False
    if bare == "the" and len(previous) == 2 and previous[0].lower() in _OBJECT_MARK - {"and", "or", "nor"}:
        return False  # "leant over the parapet by the Wye and said": a place after a preposition
    return word[-1] in ",;:()\u2014-" or bare in _CLAUSE_OPENERS or bare.endswith("ly") or at_cut


def _loose(sentence: str, known: Callable[[str], bool] | None = None, last: bool = False) -> Tag | None:
    inside = [(r.start(), r.end()) for r in _RELATIVE.finditer(sentence)]
    verbs = [v for v in _SPEECH_WORDS.finditer(sentence) if not any(a <= v.start() < b for a, b in inside)]
    if not verbs:
        return None
    # Leading into a quote, the last speech word says it ("distressed for an answer, he took it up to say:").
    verb = verbs[-1] if last else verbs[0]
    # The sentence's subject says it ("Hugh bent towards Wenna and said"; "Tamsin's remark was"): the first
    # one named before the speech word who is no object of a preposition or verb. Failing that, the one
    # named nearest before it ("to give Tamsin time only to say"), then the first after it ("was uttered by
    # Maud").
    found = _subject_words(sentence)
    before = [m for m in found if m.end() <= verb.start()]
    after = [m for m in found if m.start() >= verb.end()]
    # A later clause has its own subject: "I was going out, when Walter met me and said" is Walter's (an "I"
    # opening the sentence is no speaker of a clause after "when").
    cut = max((b.end() for b in _CLAUSE_BREAK.finditer(sentence, 0, verb.start())), default=0)
    # "stopped by Tamsin's saying": whose saying it is says it, whoever the clause is about.
    subject = [m for m in before if _POSSESSED_SPEECH.match(sentence[m.end():m.end() + 60])][-1:]
    weak: list[re.Match] = []
    for m in [] if subject else [m for m in before if m.start() >= cut] + before if cut else before:
        if known is not None and m.group().lower() not in ("he", "she", "i") and not known(m.group()):
            continue  # "Seeing that her thoughts were elsewhere, Hugh ...": a capitalised word, no one
        if sentence[m.end():m.end() + 1] in "'\u2019":
            continue
        previous = sentence[:m.start()].split()[-2:]
        if previous and previous[-1].lower() in _SUBORDINATE and m.start() != cut:
            # "When Wenna had gone, Hugh said": Hugh, unless no one else is the subject ("I was out, when Wenna
            # came and said" is Wenna's: the clause after the comma is the speech verb's).
            weak.append(m)
        elif _opens_clause(previous, m.start() == cut) and m.group() not in _LEAD_WORDS:
            subject = [m]
            break
    for m in subject + weak[:1] + list(reversed(before)) + after:
        word = m.group()
        if word == "I":
            return Tag("narrator", word, None, verb.group())
        if word.lower() in ("he", "she"):
            return Tag("pronoun", word.lower(), "M" if word.lower() == "he" else "F", verb.group())
        if MENTION.match(word):
            return Tag("name", word, None, verb.group())
    return None


def loose_tag_after(narration: str, known: Callable[[str], bool] | None = None) -> Tag | None:
    """Return who the first sentence after a quote says spoke it, when it reports speech in any order
    (known: whether a capitalised word names someone, to find the sentence's subject)."""
    first = _sentences(narration.strip()[:300])[0]
    return _loose(first, known)


def loose_tag_before(narration: str, known: Callable[[str], bool] | None = None) -> Tag | None:
    """Return who the sentence leading into a quote says speaks ("Mr. Appleby sighed, saying,")."""
    text = narration.rstrip()
    if not text or text[-1] not in ",:-\u2014":
        return None
    return _loose(_sentences(text[-300:])[-1], known, last=True)
