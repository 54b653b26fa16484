"""Find the people a book names, group each one's names into one character, and tell their gender.

Rules, no model: a name is a capitalised word the book does not also write in lower case (so "Well" at a
sentence's start is not a name but "Harlow" is), or any word after a title ("Mr.", "Lady", "Inspector").
Names sharing a first name, a surname with a fitting title, or a known diminutive ("Nelly" for
"Ellen") are one person; "Mr. Harlow" and "Mrs. Harlow" stay two.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from app.cast.namedata import (  # noqa: F401  (TITLES and DIMINUTIVES are read through this module too)
    CALENDAR_WORDS, DIMINUTIVES, EITHER_NAMES, LOCATIVES, SAME_TITLE, WEAK_LOCATIVES, FEMALE_NAMES, GIVEN_NAME_TITLES, MALE_NAMES, NOT_NAMES, PLACE_WORDS,
    SHORT_FOR, TITLES,
)
from app.cast.joins import (fits, introduced, join_rare_forms_of_a_given_name, of_gender, only_titled, pet_name_host,
                             stranger, written_with)
from app.cast.corefer import titled_after_full
from app.cast.person import Person  # noqa: F401  (Person is read through this module too)
from app.cast.mention import MENTION, split_mention, title_key  # noqa: F401  (read through this module too)
from app.cast.tagnames import COMMON_STARTS as _COMMON_STARTS, heard as _heard, tag_forms as _tag_forms

_WORDS = re.compile(r"[A-Za-z\u00c0-\u024f]+")
_MALE = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)
_FEMALE = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:he|she|He|She)\b")
_SENTENCE_END = ".!?\u201c\u201d\"\u2018'\u2014:;("
#: A character is named at least this often (or once in a speech tag).
MIN_MENTIONS = 2
#: A diminutive written alone this many times more than the person of its long form is someone else.
_DIMINUTIVE_ALONE = 4


def sentence_start(text: str, i: int) -> bool:
    """Return whether text[i] opens a sentence (where any word is capitalised, name or not)."""
    j = i - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    return j < 0 or text[j] in _SENTENCE_END


class Roster:
    """The people of a book: their names, and a look-up from a written name to a person."""

    def __init__(self, people: list[Person], roles: dict[str, Person] | None = None):
        self.people = people
        #: A role noun ("warden") -> the person the narration names in apposition with it.
        self.roles = roles or {}
        #: A first-person narrator's part ("aunt" of "my aunt") -> the name the narration gives it (app/cast/owned.py).
        self.part_names: dict[str, str] = {}
        #: Each person with the paragraph that first names them (app/cast/unnamed.py).
        self.newcomers: list[tuple[int, Person]] = []
        self._by_form: dict[tuple[str | None, tuple[str, ...]], Person] = {}
        self._by_token: dict[str, Person] = {}
        self._by_title: dict[str, Person] = {}
        for person in sorted(people, key=lambda p: p.count):
            for (title, tokens), n in person.forms.items():
                self._by_form[(title, tokens)] = person
                for tok in tokens:
                    self._by_token.setdefault(tok, person)
        for person in sorted(people, key=lambda p: p.count, reverse=True):
            for (title, tokens) in person.forms:
                if title:
                    self._by_form.setdefault((title, tokens), person)
            for title in person.titles:
                if TITLES.get(title) is None:
                    self._by_title.setdefault(title.lower(), person)
            for (title, tokens) in person.forms:
                if not title and len(tokens) == 1:
                    self._by_token[tokens[0]] = self._by_token.get(tokens[0]) or person

    def lookup(self, title: str | None, tokens: tuple[str, ...]) -> Person | None:
        """Return the person a written name refers to, or None."""
        if not tokens:
            return None
        hit = self._by_form.get((title, tokens))
        if hit:
            return hit
        if title:
            hit = self._by_form.get((title, tokens[-1:])) or self._by_form.get((title, tokens[:1]))
            if hit:
                return hit
            if TITLES.get(title) is None and (hit := self._by_form.get((None, tokens))):
                return hit
            return None  # "Mrs. Harlow" is never "Kate Harlow" by her surname alone
        hit = self._by_form.get((None, tokens))
        if hit:
            return hit
        for key in (tokens[0], tokens[-1], *SHORT_FOR.get(tokens[0], ()), *SHORT_FOR.get(tokens[-1], ())):
            if key in self._by_token:
                return self._by_token[key]
        return None

    def by_title(self, word: str) -> Person | None:
        """Return the person a bare title names ("the Inspector", "the Colonel"), if one person has it."""
        return self._by_title.get((title_key(word.capitalize()) or "").lower())

    def by_role(self, noun: str) -> Person | None:
        """Return the person "the warden" is, when the narration ties the role to one person."""
        return self.roles.get(noun.lower())

    def mentions(self, text: str) -> Iterable[tuple[int, int, Person]]:
        """Yield (start, end, person) for each name in text that names a known person."""
        for m in MENTION.finditer(text):
            title, tokens = split_mention(m)
            if not tokens or (not title and tokens[0] in NOT_NAMES and len(tokens) == 1):
                continue
            person = self.lookup(title, tokens)
            if person is None and not title and len(tokens) > 1 and tokens[0] in NOT_NAMES | _COMMON_STARTS:
                person = self.lookup(None, tokens[1:])
            if person is not None:
                yield m.start(), m.end(), person


#: "the Vauds", "the two young Vauds", "these little Vauds": a determiner, then at most two lower-case words,
#: before a plural surname make it a family (a group may speak as one, but it is no one person to voice).
_GROUP_BEFORE = re.compile(r"\b(?i:the|these|those|two|three|four|five|six|all|both|several|other|many)"
                           r"(?:\s+[a-z]+){0,2}\s+$")
_TWO_NAMES = re.compile(r"\b([A-Z][a-z]+)(?:,| and| or) ([A-Z][a-z]+)\b")


def find_people(texts: list[str], tagged: Iterable[str] = (), bare: Iterable[str] = ()) -> Roster:
    """Return the roster of the people named in a book's texts (narration and quotations alike).

    `tagged` are the names as written in explicit speech tags ("Whitcombe" of "said Whitcombe"): the tag shows
    a person speaking, so such a name is a character even written once, at a sentence's start or not.
    `bare` are those of them written without an article ("said Whitcombe", not "said the Heron"), one per tag.
    """
    lower: Counter = Counter()
    for text in texts:
        for w in _WORDS.findall(text):
            if w[0].islower():
                lower[w] += 1
    forms: Counter = Counter()
    after_the: Counter = Counter()
    midsentence: Counter = Counter()
    votes: dict[tuple, Counter] = {}
    #: Mentions right after a preposition of place ("in Bombay"), per word.
    located: Counter = Counter()
    for text in texts:
        for m in MENTION.finditer(text):
            title, tokens = split_mention(m)
            if not title and len(tokens) == 1:
                before = text[max(0, m.start() - 12):m.start()].split()
                if before and before[-1].lower() in LOCATIVES:
                    located[tokens[0]] += 2
                elif before and before[-1].lower() in WEAK_LOCATIVES:
                    located[tokens[0]] += 1
            if not title and sentence_start(text, m.start()):
                while tokens and (lower[tokens[0].lower()] or tokens[0] in NOT_NAMES | _COMMON_STARTS):
                    tokens = tokens[1:]
            else:
                for tok in tokens:
                    midsentence[tok] += 1
            if not tokens:
                continue
            forms[(title, tokens)] += 1
            if _GROUP_BEFORE.search(text[max(0, m.start() - 40):m.start()]):
                after_the[(title, tokens)] += 1
            after = text[m.end():m.end() + 80]
            p = _PRONOUN.search(after)
            if p and not MENTION.search(after[:p.start()]):
                votes.setdefault((title, tokens), Counter())["M" if _MALE.fullmatch(p.group()) else "F"] += 1

    heard = _heard(bare, midsentence)
    speakers = _tag_forms(tagged, lower, heard)
    speaker_tokens = {tok for (_, tokens) in speakers for tok in tokens}

    def name_like(tok: str) -> bool:
        if tok in NOT_NAMES or tok in TITLES:
            return False
        # A known given name or diminutive is a name unless the book writes it in lower case ("Will", "will");
        # so is a word a speech tag shows speaking ("said Whitcombe"); another capitalised word must be used
        # twice inside a sentence (not only where any word is capitalised).
        if tok in heard:
            return True
        known = tok in FEMALE_NAMES or tok in MALE_NAMES or tok in EITHER_NAMES or tok in SHORT_FOR or tok in speaker_tokens
        return midsentence[tok] >= (0 if known else 2) and lower[tok.lower()] * 5 <= midsentence[tok] + forms[(None, (tok,))]

    def place_like(tok: str) -> bool:
        """A word the book mostly writes after "in", "near", "through" is a place ("Bombay", "Lincoln")."""
        if tok in PLACE_WORDS:
            return True
        uses = forms[(None, (tok,))]
        if tok in FEMALE_NAMES or tok in MALE_NAMES or tok in EITHER_NAMES:
            return located[tok] >= 4 and located[tok] * 2 >= uses  # "Florence", "Lincoln": places by use alone
        return located[tok] >= 3 and located[tok] * 3 >= uses

    def after_title(tok: str) -> bool:
        """After a title, a word is a name unless the book writes it in lower case far more ("Lord. And")."""
        if tok in NOT_NAMES and tok not in CALENDAR_WORDS:
            return False
        return lower[tok.lower()] <= 3 * max(1, midsentence[tok]) or tok in CALENDAR_WORDS

    # "the Pryors", "the Miss Coles", "the Marlows": a family, not a person.
    singular = {tok for (_, tokens) in forms for tok in tokens}

    def plural(form: tuple) -> bool:
        tok = form[1][-1]
        looks = tok.endswith("s") and (tok[:-1] in singular or (tok.endswith("es") and tok[:-2] in singular))
        return looks and after_the[form] * 2 >= forms[form]  # "the Rudds"; "Bill Hobb" stays a person

    kept: Counter = Counter()
    kept_votes: dict[tuple, Counter] = {}
    for (title, tokens), n in forms.items():
        if plural((title, tokens)):
            continue
        if title is None:
            if not all(name_like(t) for t in tokens):
                # "Upper Street Baker" or "Well Kate": keep the longest name-like run at its end.
                while tokens and not name_like(tokens[0]):
                    tokens = tokens[1:]
                if not tokens or not all(name_like(t) for t in tokens):
                    continue
            if (title, tokens) not in speakers and (any(t in PLACE_WORDS for t in tokens)
                                                     or (len(tokens) == 1 and place_like(tokens[0]))):
                continue  # "England", "Windy Corner", "in Bombay": a place, not a person
        elif not all(after_title(t) for t in tokens) or any(t in PLACE_WORDS for t in tokens[1:]):
            continue
        kept[(title, tokens)] += n
        kept_votes.setdefault((title, tokens), Counter()).update(votes.get((title, tokens), {}))
    # A full name written once still says which first name goes with which surname ("Adela Crane").
    # A title makes a name of the word after it, even written once ("Mr. Harlow").
    # A speech tag makes a name of its word, even written once ("whispered Maud").
    # "Hilda and Hildy", "Hildy, Hilda": two names the book sets side by side are two people.
    apart = {frozenset(m.groups()) for text in texts for m in _TWO_NAMES.finditer(text)}
    people = _group({f: n for f, n in kept.items() if n >= MIN_MENTIONS or len(f[1]) >= 2 or f[0] or f in speakers},
                    kept_votes, apart, titled_after_full(texts))
    return Roster(people)


def _group(forms: dict, votes: dict, apart: set = frozenset(), linked: Counter | None = None) -> list[Person]:
    """Return the people the name forms make: one Person per person, however many names."""
    full: dict[tuple[str, str], Person] = {}
    people: list[Person] = []

    def add(person: Person, form, n) -> None:
        person.forms[form] += n
        if form[0]:
            person.titles[form[0]] += n
        person.votes.update(votes.get(form, {}))

    # Full names first ("Ellen Harlow", "Mr. Frank Lyle"): they say which first name goes with which surname.
    for form, n in sorted(forms.items(), key=lambda kv: -kv[1]):
        title, tokens = form
        if len(tokens) < 2:
            continue
        key = (tokens[0], tokens[-1])
        gender = TITLES.get(title) if title else None
        same_first = [p for k, p in full.items() if k[0] == key[0]]
        if key not in full and n == 1 and not title and len(same_first) == 1:
            # Written once beside a full name used more ("Katharine Rodney", a name she might take, beside
            # "Katharine Fenwick"): the same person, not a new one.
            add(same_first[0], form, n)
            continue
        if key not in full and n <= 2:
            # "Johnny Mead", written once or twice beside "John Mead" used more, is John Mead; a "Tom Ashby"
            # the book writes often beside "Sir Thomas Ashby" is his son, not him.
            short = next((k for k in full if len(k) == 2 and k[1] == key[1] and full[k].count >= 3 * n
                          and (k[0] in SHORT_FOR.get(key[0], ()) or key[0] in SHORT_FOR.get(k[0], ()))), None)
            if short is not None:
                key = short
        if key in full and gender and full[key].gender not in (None, gender):
            key = key + (gender,)  # "Mrs. John Tresham" is John Tresham's wife
        if key not in full:
            full[key] = Person(first=key[0], last=key[1])
            people.append(full[key])
        add(full[key], form, n)
    join_rare_forms_of_a_given_name(full, people, forms)
    # "Mr. Strand", "Lady Honoria": the one full name whose first name or fitting surname it is, else a person of its own.
    titled: dict[tuple[str, str], Person] = {}
    for form, n in sorted(forms.items(), key=lambda kv: -kv[1]):
        title, tokens = form
        if len(tokens) != 1 or not title:
            continue
        tok, gender = tokens[0], TITLES.get(title)
        # One person may hold several keys (a rare form of a given name joined into its usual one).
        distinct = list({id(p): p for p in full.values()}.values())
        # "Master Gus" is Gus Kessel before an Augustine Odell: the name as written first, its long form failing that.
        by_first = [p for p in distinct if p.first == tok and fits(p, gender)] or \
            [p for p in distinct if p.first in SHORT_FOR.get(tok, ()) and fits(p, gender)]
        # A gendered title joins a full name only of a person known to be of that gender.
        by_last = written_with(title, gender, [p for p in distinct if p.last == tok and of_gender(p, gender)],
                               linked or Counter())
        target = None
        # "Mrs. Rachel" is Mrs. Rachel Orme: a woman's title before a woman's given name is that name.
        if len(by_first) == 1 and (title in GIVEN_NAME_TITLES or (gender == "F" and tok in FEMALE_NAMES)):
            target = by_first[0]
        elif (len(by_last) == 1 and introduced(by_last[0], title, n, forms.get((None, (tok,)), 0),
                                                     forms.get((None, (by_last[0].first,)), 0),
                                                     bool((linked or {}).get((title, tok, by_last[0].first))))
              and only_titled(by_last[0], title, tok, forms)):
            # A "Mr. John Tresham" written out beside "Mr. Tresham" is there to tell two men apart.
            target = by_last[0]
        if target is None:
            key = (title, tok)
            target = titled.get(key)
            if target is None:
                given_name = title in ("Lady", "Sir", "Lord", "Miss", "Master") and tok in FEMALE_NAMES | MALE_NAMES
                target = Person(first=tok if given_name else "", last="" if given_name else tok)
                people.append(target)
            titled[key] = target
        add(target, form, n)
    # A name alone: a first name (or its diminutive), else a surname with a man's title, else a person of its own.
    for form, n in sorted(forms.items(), key=lambda kv: -kv[1]):
        title, tokens = form
        if len(tokens) != 1 or title:
            continue
        tok = tokens[0]
        given = SHORT_FOR.get(tok, ())
        # "Tom" is Tom Ashby before Sir Thomas: a name as written first, its long form only failing that.
        by_first = [p for p in people if p.first == tok] or [p for p in people if p.first in given]
        by_first = [p for p in by_first if not stranger(p, tok, n, forms)]
        if by_first and by_first[0].first != tok and n > _DIMINUTIVE_ALONE * max(p.count for p in by_first):
            # "Polly" written hundreds of times beside a "Mary Voss" named a few: a person of her own,
            # not a pet name of the rare one (a pet name is rarer than the name it shortens, or near it).
            by_first = []
        by_last = [p for p in people if p.last == tok]
        # A first name only one full name written once has ("Frank Ardley Lyle") loses to a surname
        # in wide use ("Mr. Ardley").
        if by_first and by_last and max(p.count for p in by_first) * 5 < max(p.count for p in by_last):
            by_first = []
        if not by_first and not by_last:
            # "Hildy" beside "Hilda": a pet name no lexicon relates, cut from the given name it begins.
            alone = Person(forms=Counter({form: n}), first=tok, votes=Counter(votes.get(form, {})))
            host = pet_name_host(tok, alone.gender, people, apart)
            by_first = [host] if host else []
        if by_first:
            target = max(by_first, key=lambda p: p.count)
        elif by_last:
            # "Strand" alone is Mr. Strand more often than Miss Strand.
            target = max(by_last, key=lambda p: (sum(n for t, n in p.titles.items() if TITLES.get(t) != "F"), p.count))
        else:
            target = Person(first=tok)
            people.append(target)
        add(target, form, n)
    return people
