"""Score a take: what was heard against the text it was asked to say.

The word error rate comes from a minimal edit alignment (jiwer). On top of it,
named problems say what kind of wrong it is, so a report reads "skipped 9 of 18
words" instead of a bare number: missing words, extra words, a phrase said
again, a cut-off ending, another language, silence where words were expected.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.listen.normalize import normalize
from app.listen.phonetic import LOOSE_DISTANCE, distance, sound_alike
from app.listen.transcript import Transcript

#: Problem names, one line each, as they appear in the report.
MISSING = "missing words"  #: words of the text not heard
EXTRA = "extra words"  #: words heard that the text does not have
REPEATED = "repeated phrase"  #: a phrase of the text heard more often than written
TRUNCATED = "truncated ending"  #: the last words of the text not heard
LANGUAGE = "another language"  #: the recognizer is sure the speech is in another language
SILENCE = "silence where words were expected"  #: (almost) nothing heard


@dataclass(frozen=True)
class Thresholds:
    """When a take counts as said wrong. Defaults tolerate a small model's mishearings."""

    #: Word error rate above which a take is rejected.
    max_error: float = 0.2
    #: Fewer errors than this never reject (a short chunk with one misheard word).
    min_errors: int = 2
    #: Trailing words of the text that, all unheard, make a truncated ending.
    tail_words: int = 3
    #: Detected-language confidence above which another language rejects the take.
    language_confidence: float = 0.8
    #: Phoneme distance of the whole take to the whole text (0 the same sounds, 1 none alike) within
    #: which word errors are the recognizer's spelling, not the narrator's fault. Measured on Piper
    #: reading 144 chunks of seven Standard Ebooks titles, heard by tiny.en: clean takes the word
    #: count rejected lie at 0.11-0.21 (names, "Thank you for joining us" invented after the last
    #: word); a skipped phrase is 0.45-0.54, a stutter 0.30, "Gulls flew over the sky" 0.91.
    whole_distance: float = 0.25
    #: The same for a chunk of at most `short_words` words, where one misheard word weighs more:
    #: Latin in an English book heard as English ("Passus erat" heard "Pass us your rat", 0.36).
    short_whole_distance: float = 0.4
    short_words: int = 6


@dataclass(frozen=True)
class Score:
    """The verdict on one take."""

    error_rate: float
    errors: int
    words: int
    problems: tuple[str, ...]
    heard: str
    #: Of `errors`, those in spans the recognizer misspelled: the same sounds in other words.
    misheard: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def wrong_rate(self) -> float:
        """Return the share of the text said wrong: the error rate without the misheard spans."""
        return (self.errors - self.misheard) / self.words if self.words else 0.0

    def as_dict(self) -> dict:
        return {"error_rate": round(self.error_rate, 4), "errors": self.errors, "misheard": self.misheard,
                "words": self.words, "problems": list(self.problems), "heard": self.heard}


def _ngrams(words: list[str], n: int) -> dict[tuple[str, ...], int]:
    found: dict[tuple[str, ...], int] = {}
    for i in range(len(words) - n + 1):
        gram = tuple(words[i:i + n])
        found[gram] = found.get(gram, 0) + 1
    return found


def _repeats(expected: list[str], heard: list[str], n: int = 3) -> bool:
    """Return whether a phrase of the text (n words) is heard more often than the text says it.

    Three words: a recognizer's slip rarely repeats three words, a stuttering model does.
    """
    want = _ngrams(expected, n)
    if any(count > want[gram] for gram, count in _ngrams(heard, n).items() if gram in want):
        return True
    # A phrase said twice in a row, heard in other words ("at sea he" heard "CE"): the phrase is
    # not the text's, but its echo is. A recognizer does not invent an echo of two or more words.
    said_twice = _echoes(expected)
    return any(count > said_twice.get(gram, 0) for gram, count in _echoes(heard).items())


def _echoes(words: list[str], longest: int = 4) -> dict[tuple[str, ...], int]:
    """Return how often each phrase of 2 to `longest` words follows itself at once ("could see could see")."""
    found: dict[tuple[str, ...], int] = {}
    for n in range(2, longest + 1):
        for i in range(len(words) - 2 * n + 1):
            if words[i:i + n] == words[i + n:i + 2 * n]:
                gram = tuple(words[i:i + n])
                found[gram] = found.get(gram, 0) + 1
    return found


def score(text: str, heard: Transcript, *, language: str | None = None,
          thresholds: Thresholds = Thresholds()) -> Score:
    """Return how well `heard` says `text` (its spoken form), and what is wrong if anything."""
    # One normalizer for both sides (app/book/spoken); the heard numbers read to fit the text's words.
    expected = normalize(text, language)
    got = normalize(heard.text, language, like=expected)
    got = _join_compounds(got, set(expected))
    expected = _join_compounds(expected, set(got))
    if not expected:
        return Score(0.0, 0, 0, (), heard.text)
    if not got:
        return Score(1.0, len(expected), len(expected), (SILENCE, MISSING), heard.text)
    import jiwer  # imported on first use: a run without verification never needs it

    out = jiwer.process_words(" ".join(expected), " ".join(got))
    errors = out.substitutions + out.deletions + out.insertions
    rate = errors / len(expected)
    # The decision counts only what was said wrong; the reported rate stays the plain word error.
    subs, dels, ins = _said_wrong(out, expected, got, language)
    wrong = subs + dels + ins
    problems: list[str] = []
    if (wrong >= thresholds.min_errors and wrong / len(expected) > thresholds.max_error
            and _same_sounds(expected, got, language, thresholds)):
        wrong = subs = dels = ins = 0  # the words are misspelled, the sounds are the text's
    if wrong >= thresholds.min_errors and wrong / len(expected) > thresholds.max_error:
        if dels >= max(thresholds.min_errors, ins):
            problems.append(MISSING)
        if ins >= max(thresholds.min_errors, dels):
            problems.append(EXTRA)
        if not problems:
            problems.append(MISSING if dels >= ins else EXTRA)
    if _repeats(expected, got):
        problems.append(REPEATED)
    if len(expected) >= 2 * thresholds.tail_words and _tail_missing(out, len(expected), thresholds.tail_words):
        problems.append(TRUNCATED)
    if (language and heard.language and heard.language != language
            and (heard.language_probability or 0) >= thresholds.language_confidence):
        problems.append(LANGUAGE)
    if len(got) * 4 < len(expected):
        problems.append(SILENCE)
    return Score(rate, errors, len(expected), tuple(dict.fromkeys(problems)), heard.text,
                 misheard=errors - wrong)


def _same_sounds(expected: list[str], got: list[str], language: str | None, thresholds: Thresholds) -> bool:
    """Return whether the whole take sounds like the whole text, though its words differ."""
    limit = thresholds.short_whole_distance if len(expected) <= thresholds.short_words else thresholds.whole_distance
    found = distance(expected, got, language)
    return found is not None and found <= limit


def _said_wrong(out, expected: list[str], got: list[str], language: str | None) -> tuple[int, int, int]:
    """Return (substituted, deleted, inserted) words, leaving out spans that sound like the text.

    A span is a run of neighbouring edits (jiwer may split "by noon" -> "I knew" into a
    substitution and an insertion); it is forgiven whole when its phonemes match, or not at all.
    """
    subs = dels = ins = 0
    for span in _edit_spans(out.alignments[0]):
        start, end = span[0].ref_start_idx, span[-1].ref_end_idx
        said = expected[start:end]
        heard = got[span[0].hyp_start_idx:span[-1].hyp_end_idx]
        if sound_alike(said, heard, language):
            continue
        # A rare word or two misheard between words heard right ("solemnised" heard "so ill anised"):
        # a looser match, as a small model spells a word it does not know by its sounds. A skipped,
        # repeated or invented phrase is longer, or has nothing heard in its place.
        anchored = 0 < start and end < len(expected)
        if (anchored and 1 <= len(said) <= 2 and 1 <= len(heard) <= len(said) + 2
                and sound_alike(said, heard, language, limit=LOOSE_DISTANCE)):
            continue
        for edit in span:
            if edit.type == "substitute":
                subs += edit.ref_end_idx - edit.ref_start_idx
            elif edit.type == "delete":
                dels += edit.ref_end_idx - edit.ref_start_idx
            else:
                ins += edit.hyp_end_idx - edit.hyp_start_idx
    return subs, dels, ins


def _edit_spans(alignment) -> list[list]:
    """Return the alignment's non-equal chunks grouped into runs of neighbours."""
    spans: list[list] = []
    run: list = []
    for chunk in alignment:
        if chunk.type == "equal":
            if run:
                spans.append(run)
            run = []
        else:
            run.append(chunk)
    if run:
        spans.append(run)
    return spans


def _join_compounds(words: list[str], vocabulary: set[str]) -> list[str]:
    """Return `words` with neighbours joined where the other side has them as one word.

    "light house" heard for "lighthouse" (or "every one" for "everyone") is a spelling, not an error.
    """
    joined: list[str] = []
    i = 0
    while i < len(words):
        if i + 1 < len(words) and words[i] + words[i + 1] in vocabulary and words[i] not in vocabulary:
            joined.append(words[i] + words[i + 1])
            i += 2
        else:
            joined.append(words[i])
            i += 1
    return joined


def _tail_missing(out, count: int, tail: int) -> bool:
    """Return whether the last `tail` words of the reference were all deleted."""
    deleted: set[int] = set()
    for chunk in out.alignments[0]:
        if chunk.type == "delete":
            deleted.update(range(chunk.ref_start_idx, chunk.ref_end_idx))
    return all(i in deleted for i in range(count - tail, count))
