"""One person, one character, learned: a pairwise model over the book's speaking characters whose names
carry one surname ("Mr. Vell", "Amos Vell", "Vell"), asked after attribution.

The name rules (names._group, joins.py) join what their guards allow; what they leave apart are pairs of
speaking characters. Each such pair gets a feature row from the text's own evidence: how the names relate
(one's words inside the other's, given names, titles and genders, other bearers of the surname), whether
the two take turns in one conversation (under their own speech tags or by the rules' guesses) or address
each other, whether one sentence names both, how often the smaller one is named and speaks, and whether the
narration links the two forms ("Amos Vell ... Mr. Vell", corefer.py). A logistic model
(app/cast/data/pairjoin.json, trained on PDNC's tuning half by scripts/train_cast_joins.py, which reproduces
the file) scores each row; pairs at or above the file's threshold are joined, surest first. Never joined,
whatever the model says: two people the text shows as two (two_people), a pair the name rules' own guards
weighed (kept_apart_by_the_rules), and two groups not every cross pair of which is sure. numpy-free at run
time (a dot product), no download.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from importlib import resources
from itertools import combinations

from app.cast.joins import MARRIED, introduced, related_given
from app.cast.namedata import FEMALE_NAMES, MALE_NAMES, TITLES
from app.cast.person import Person
from app.cast.turns import Said, split_conversations

FEATURES = (
    "bias", "share_last", "share_first", "related_only", "first_conflict", "last_conflict",
    "gender_same", "gender_conflict", "title_gender_conflict", "married_and_miss", "married_new",
    "small_titled_only", "title_known", "inside", "talk", "tagged_talk", "address", "comention", "and_named",
    "log_lines_small", "log_named_small", "rivals", "linked",
)
_SENTENCE = re.compile(r"(?<=[.!?])[\"\u201d\u2019']?\s+(?=[\"\u201c\u2018']?[A-Z])")
_AND = re.compile(r"\s*(?:,|and|or|,\s*and)\s*$")
_UNMARRIED = {"Miss", "Mademoiselle", "Mlle", "Fraulein", "Signorina"}


def _tokens(p: Person) -> set[str]:
    return {t for (_, toks) in p.forms for t in toks}


def _surname(p: Person) -> str:
    """The person's surname: the one written with a given name or a title, else a lone word ("Vell")."""
    if p.last:
        return p.last
    words = _tokens(p)
    return next(iter(words)) if len(words) == 1 else ""


def candidate(a: Person, b: Person) -> bool:
    """Two characters whose names could be one person's: one surname ("Mr. Vell", "Amos Vell", "Vell").
    Never a given name alone ("Corwin" beside "Sir Corwin Vell" may be any Corwin: on LitBank's development
    half such joins were as often wrong as right), never two surnames ("Mr. John Pell" and "Mr. John Rook"
    are two Johns; a surname changes only by a marriage, which nothing here reads)."""
    return bool(_surname(a)) and _surname(a) == _surname(b)


def any_candidates(people: list[Person]) -> bool:
    """Return whether two of the people carry one surname: else no pair is the model's question, and the book's
    evidence (a pass over every paragraph) need not be gathered."""
    surnames = Counter(filter(None, map(_surname, people)))
    return any(n > 1 for n in surnames.values())


class Evidence:
    """What the book says about pairs of its speaking characters: who talks with whom, who is named with whom."""

    def __init__(self, turns: list, said: list[Said], paragraphs: list[str], roster):
        self.talk: Counter = Counter()
        #: Turns one after the other, each with its own speech tag naming one of the two ("said Pellow", "said Rufus").
        self.tagged_talk: Counter = Counter()
        self.address: Counter = Counter()
        self.comention: Counter = Counter()
        self.and_named: Counter = Counter()
        self.lines: Counter = Counter()
        self.tagged: Counter = Counter()
        for s in said:
            if s.person is not None:
                self.lines[id(s.person)] += 1
                self.tagged[id(s.person)] += s.method == "explicit"
        for conv in split_conversations(turns):
            speakers, tagged = [], []
            for turn in conv:
                people = {id(said[q].person) for q in turn.quotes if said[q].person is not None}
                speakers.append(people)
                tagged.append({id(said[q].person) for q in turn.quotes
                               if said[q].person is not None and said[q].method == "explicit"})
                for k in people:
                    for p in turn.addressed:
                        if id(p) != k:
                            self.address[frozenset((k, id(p)))] += 1
            for here, nxt in zip(speakers, speakers[1:]):
                for x in here:
                    for y in nxt:
                        if x != y:
                            self.talk[frozenset((x, y))] += 1
            for here, nxt in zip(tagged, tagged[1:]):
                for x in here:
                    for y in nxt:
                        if x != y:
                            self.tagged_talk[frozenset((x, y))] += 1
        for text in paragraphs:
            spans = list(roster.mentions(text))
            if len(spans) < 2:
                continue
            cuts = [m.end() for m in _SENTENCE.finditer(text)]
            sentence = lambda at: sum(1 for c in cuts if c <= at)
            by_sentence: dict[int, set[int]] = {}
            for (s, _e, p) in spans:
                by_sentence.setdefault(sentence(s), set()).add(id(p))
            for ids in by_sentence.values():
                if 1 < len(ids) <= 6:
                    for x, y in combinations(sorted(ids), 2):
                        self.comention[frozenset((x, y))] += 1
            for (_s1, e1, p1), (s2, _e2, p2) in zip(spans, spans[1:]):
                if p1 is not p2 and _AND.fullmatch(text[e1:s2]):
                    self.and_named[frozenset((id(p1), id(p2)))] += 1


def features(big: Person, small: Person, ev: Evidence, people: list[Person], linked: Counter) -> list[float]:
    """Return the feature row of one candidate pair (big: the one with more lines)."""
    key = frozenset((id(big), id(small)))
    gb, gs = big.gender, small.gender
    tb, ts = _tokens(big), _tokens(small)
    shared = tb & ts
    title_genders = {TITLES.get(t) for t in big.titles} | {TITLES.get(t) for t in small.titles}
    married = (big.titles.keys() & MARRIED and small.titles.keys() & _UNMARRIED) or \
        (small.titles.keys() & MARRIED and big.titles.keys() & _UNMARRIED)
    near = sum(n for (title, last, first), n in linked.items()
               if (last in tb and last in ts) and (first in tb or first in ts))
    talk, address = ev.talk[key], ev.address[key]
    lines_s = ev.lines[id(small)]
    # A married title one side bears and the other never does: a mother "Mrs. X" beside a daughter "Ilsa X".
    married_new = bool((big.titles.keys() & MARRIED) ^ (small.titles.keys() & MARRIED)) \
        and bool(big.first or small.first)
    # Others of the shared surname whose gender could be the pair's: the more there are, the less sure a join.
    gender = gb or gs
    rivals = sum(1 for p in people if p is not big and p is not small and big.last and p.last == big.last
                 and (gender is None or p.gender in (None, gender)))
    return [
        1.0,
        float(bool(big.last and big.last == small.last)),
        float(bool(big.first and big.first == small.first)),
        float(not shared),
        float(bool(big.first and small.first and big.first != small.first
                   and not related_given(big.first, small.first))),
        float(bool(big.last and small.last and big.last != small.last)),
        float(gb is not None and gb == gs),
        float(None not in (gb, gs) and gb != gs),
        float({"M", "F"} <= title_genders),
        float(bool(married)),
        float(married_new),
        float(all(t for (t, _) in small.forms)),
        # The small one's titles written with the big one's full name too ("Miss Ilsa Vell" beside "Miss Vell").
        float(bool(small.titles) and small.titles.keys() <= big.titles.keys()),
        float(ts <= tb),
        math.log1p(talk),
        math.log1p(ev.tagged_talk[key]),
        math.log1p(address),
        math.log1p(ev.comention[key]),
        math.log1p(ev.and_named[key]),
        math.log1p(lines_s),
        math.log1p(small.count),
        math.log1p(rivals),
        math.log1p(near),
    ]


def kept_apart_by_the_rules(full: Person, short: Person, people: list[Person], linked: Counter) -> bool:
    """Return whether the name rules' own guards keep a titled surname ("Mr. Pell") apart from a full name
    the book writes under that title too ("Mr. Arthur Pell"): joins.introduced (a brother told apart by his
    given name, a father beside a son written out, by the forms' counts), or a married title before a
    husband's name ("Mrs. Henry Vole" is not "Mrs. Vole"). The model does not overrule a guard; it may join
    what no guard spoke against (a title whose surname another bearer shares, "Miss Vell" beside "Mrs. Vell")."""
    if len(short.forms) != 1 or not full.first or not full.last:
        return False
    (title, tokens), n = next(iter(short.forms.items()))
    if not title or tokens != (full.last,) or title not in full.titles:
        return False
    if title in MARRIED and not (full.first in FEMALE_NAMES and full.first not in MALE_NAMES):
        return True
    forms: Counter = Counter()
    for p in people:
        forms.update(p.forms)
    return not introduced(full, title, n, forms.get((None, (full.last,)), 0), forms.get((None, (full.first,)), 0),
                          bool(linked.get((title, full.last, full.first))))


def pairs(people: list[Person], ev: Evidence, linked: Counter) -> list[tuple[Person, Person, list[float]]]:
    """Return (big, small, row) for every candidate pair of speaking characters no name rule kept apart."""
    speaking = [p for p in people if ev.lines[id(p)]]
    out = []
    for a, b in combinations(speaking, 2):
        if not candidate(a, b) or kept_apart_by_the_rules(a, b, people, linked) \
                or kept_apart_by_the_rules(b, a, people, linked):
            continue
        big, small = (a, b) if (ev.lines[id(a)], a.count) >= (ev.lines[id(b)], b.count) else (b, a)
        out.append((big, small, features(big, small, ev, people, linked)))
    return out


#: Turns one after the other, each tagged with one of the two names, this often: two people talking. On PDNC's
#: tuning half 32 of 177 pairs of two people have two such exchanges or more, and 1 of 36 pairs of one person.
#: Turns taken by the rules' guesses are only a feature: a split person's two names take turns too, wherever
#: the rules gave one of his lines to each.
TAGGED_EXCHANGES = 2


def two_people(ev: Evidence, key: frozenset) -> bool:
    """Return whether the text shows two people: they answer each other under their own speech tags ("said
    Rufus Pellow" then "said Mr. Pellow"), or one sentence names them side by side ("Mr. Pellow and Rufus")."""
    return ev.tagged_talk[key] >= TAGGED_EXCHANGES or ev.and_named[key] > 0


class PairModel:
    """A logistic model over FEATURES; pairs scoring at least `threshold` are one person."""

    def __init__(self, weights: list[float], threshold: float):
        self.weights = weights
        self.threshold = threshold

    @classmethod
    def shipped(cls) -> "PairModel | None":
        path = resources.files("app.cast") / "data" / "pairjoin.json"
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(data["features"]) != FEATURES:
            return None
        return cls([float(w) for w in data["weights"]], float(data["threshold"]))

    def probability(self, row: list[float]) -> float:
        z = sum(w * x for w, x in zip(self.weights, row))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def join(said: list[Said], people: list[Person], ev: Evidence, linked: Counter, model: PairModel,
         log: list | None = None) -> list[Said]:
    """Join the pairs the model calls one person (the one with fewer lines into the other); return said with
    each joined character's lines given to the one it joined. Two groups are never joined when a member of
    one and a member of the other are two people by two_people."""
    rows = pairs(people, ev, linked)
    if log is not None:
        log.extend(rows)
    scored = sorted(((model.probability(r), big, small) for big, small, r in rows), key=lambda t: -t[0])
    sure = {frozenset((id(big), id(small))) for prob, big, small in scored if prob >= model.threshold}
    host: dict[int, Person] = {}

    def root(p: Person) -> Person:
        while id(p) in host:
            p = host[id(p)]
        return p
    members: dict[int, list[Person]] = {id(p): [p] for p in people}
    for prob, big, small in scored:
        if prob < model.threshold:
            break
        a, b = root(big), root(small)
        if a is b:
            continue
        # Every member of one group must be the model's sure pair with every member of the other: no chain
        # through a rare name ("Mr. Dorrel" to "Dorrel Vell" to "Mr. Vell" makes no one of two men).
        if any(two_people(ev, frozenset((id(x), id(y)))) or frozenset((id(x), id(y))) not in sure
               for x in members[id(a)] for y in members[id(b)]):
            continue
        if (ev.lines[id(b)], b.count) > (ev.lines[id(a)], a.count):
            a, b = b, a
        host[id(b)] = a
        members[id(a)] += members.pop(id(b))
        ev.lines[id(a)] += ev.lines[id(b)]
        a.forms.update(b.forms)
        a.titles.update(b.titles)
        a.votes.update(b.votes)
    if not host:
        return said
    return [Said(root(s.person), s.method, s.confidence, s.verb, s.manner, s.settled, s.described)
            if s.person is not None and id(s.person) in host else s for s in said]
