"""Whether two name forms of a book are one person: a titled surname and a full name, two given names of
one surname, a married title and a woman's own name (the joins names._group asks about)."""
from __future__ import annotations

from collections import Counter

from app.cast.namedata import FEMALE_NAMES, GIVEN_NAMES, MALE_NAMES, SHORT_FOR, TITLES
from app.cast.person import Person


#: Titles that tell nothing of rank: a full name under one of these and under none can be the same man.
_PLAIN_TITLES = frozenset({"Mr", "Mister", "Master", "Miss", "Mrs", "Ms"})
#: A full name written this often or less, beside the same surname under a related given name used far
#: more, is another form of that person's name ("Mr. William Hobb" in a warrant, "Bill Hobb" throughout).
_RARE_FULL_NAME = 6
#: A titled full name written this often or less can be a formal mention of the man a short form names.
_HANDFUL = 10
#: A full name written untitled this often or more, its given name hardly ever alone, is the one man of its surname.
_FORMAL_NAMED = 10
#: Another bearer of the surname whose full name is written this often or less is rare beside the usual one.
_RARE_BEARER = 2


def related_given(a: str, b: str) -> bool:
    """Return whether two given names can be one person's ("Bill" and "William", "Tom" and "Tommy")."""
    long_a, long_b = {a, *SHORT_FOR.get(a, ())}, {b, *SHORT_FOR.get(b, ())}
    return a != b and bool(long_a & long_b)


def join_rare_forms_of_a_given_name(full: dict, people: list[Person], forms: dict) -> None:
    """Join a full name the book writes seldom into the one of the same surname whose given name is its
    diminutive or long form, used at least four times as much (with the given name alone): "Mr. William
    Hobb" (5) is "Bill Hobb" (81). Never when one bears a rank the other never has ("Sir Thomas Ashby"
    and his son "Tom Ashby"), nor when both full names are in use (a father "Thomas Pell", written
    out 18 times, and his son "Tom Pell")."""
    def weight(p: Person) -> int:
        return p.count + forms.get((None, (p.first,)), 0)

    def ranks(p: Person) -> set[str]:
        return {t for t in p.titles if t not in _PLAIN_TITLES}

    for rare in sorted([p for p in people if p.first and p.last], key=weight):
        if rare.count > _RARE_FULL_NAME:
            continue
        hosts = [p for p in people if p is not rare and p.last == rare.last and p.first
                 and related_given(p.first, rare.first) and weight(p) >= 4 * weight(rare)
                 and ranks(p) == ranks(rare) and (None in (p.gender, rare.gender) or p.gender == rare.gender)]
        if len(hosts) != 1:
            continue
        host = hosts[0]
        host.forms.update(rare.forms)
        host.titles.update(rare.titles)
        host.votes.update(rare.votes)
        people.remove(rare)
        for key, person in list(full.items()):
            if person is rare:
                full[key] = host


def of_gender(person: Person, gender: str | None) -> bool:
    """A gendered title ("Mr.") joins a full name of that gender, or of none shown whose given name is not
    the other gender's ("Mr. Hartley" and "Lorimer Hartley" when no pronoun follows the full name)."""
    if gender is None or person.gender == gender:
        return True
    other = FEMALE_NAMES if gender == "M" else MALE_NAMES
    return person.gender is None and person.first not in other


def introduced(person: Person, title: str, n: int, bare: int = 0, given_alone: int = 0, linked: bool = False) -> bool:
    """Return whether "Title Surname" (written n times) is this full-named person.

    A full name without that title always is. A full name with the same title is one person's introduction
    when the book writes it seldom beside the short form (bare: how often the surname is written alone) ("Dr. James Penrose" once or twice, "Dr. Penrose"
    a hundred times), or at least a third as often as the short form; written often but far less than the
    short form ("Mr. John Tresham" 22 times beside "Mr. Tresham" 266), it tells two men apart, and the book
    then calls that brother by his given name alone (given_alone: how often); a man whose given name is
    hardly ever written alone is told apart from no one, when the text links the two forms (linked: "Mr. X"
    written soon after the full name, no other X between; corefer.titled_after_full).
    """
    if title not in person.titles or _her_own_name(person, title):
        return True
    # "Mr. Lorimer Hartley" written a third as often as "Mr. Hartley" or more: the short form is his; a
    # brother's "Mr. John Tresham" is written a tenth as often as "Mr. Tresham".
    titled_full = sum(k for (t, _), k in person.forms.items() if t == title)
    # A handful of titled full names, beside a short form five times as common, of a man the book calls by
    # his bare surname more than by the title, are formal mentions of him ("Mr. William Hobb" 6 times,
    # "Mr. Hobb" 78, "Hobb" 262); a brother is written out far more (22), a father is "Mr." to the book.
    handful = 1 <= titled_full <= _HANDFUL and n >= 5 * titled_full and bare >= n
    # "Lorimer Hartley" written out 80 times, "Mr. Lorimer Hartley" 10, "Lorimer" alone never: the title is no
    # part of how the book tells him from anyone (a brother is "Mr. John Tresham" or "John"); "Mr. Hartley" is he.
    untitled = sum(k for (t, toks), k in person.forms.items() if t is None and len(toks) >= 2)
    formal = linked and untitled >= _FORMAL_NAMED and untitled >= 2 * titled_full and given_alone * 10 <= person.count
    return titled_full * 3 >= n or person.count * 10 <= n or handful or formal


#: Titles only a married woman bears ("Mrs. Henry Vole" is her husband's name; shared with pairjoin.py).
MARRIED = ("Mrs", "Mistress", "Lady", "Madame", "Mme", "Frau", "Signora")


def _her_own_name(person: Person, title: str) -> bool:
    """"Mrs. Rachel Orme": a married title written before a woman's own given name (never "Mrs. John
    Ravell", her husband's), so "Mrs. Orme" is she."""
    return title in MARRIED and title in person.titles and person.first in FEMALE_NAMES \
        and person.first not in MALE_NAMES


def fits(person: Person, gender: str | None) -> bool:
    return gender is None or person.gender in (None, gender)


def only_titled(person: Person, title: str, surname: str, forms: dict) -> bool:
    """Return whether "Title Surname" can only be this full-named person: no other title of the surname is
    used as often (both "Mr. Harlow" and "Mrs. Harlow" in use: neither is "Ellen Harlow")."""
    gender = TITLES.get(title)
    if title in MARRIED:
        # A married title goes with a surname by marriage: "Mrs. Fenwick" is the mother, not Katharine Fenwick;
        # unless the full name carries it too ("Mrs. Rachel Orme").
        return _her_own_name(person, title)
    if gender == "F" and person.gender == "F":
        # A rival written a tenth as often ("Mrs. Kennet" 5 times beside "Miss Kennet" 262) tells no one apart.
        used = forms.get((title, (surname,)), 0)
        rivals = [n for (t, toks), n in forms.items() if toks == (surname,) and t and t != title and TITLES.get(t) == "F"
                  and n * 10 > used]
        return not rivals
    return True


#: Endings of a pet name made by cutting a given name short ("Hildy" of "Hildegard", "Gretie" of "Greta").
_PET_ENDINGS = ("ie", "ey", "ee", "y")


def _cuts(short: str, long: str) -> bool:
    """Return whether short is long cut short with a pet ending: "Hildy" of "Hilda", "Ottie" of "Ottoline"."""
    stem = next((short[:-len(e)] for e in _PET_ENDINGS if short.endswith(e)), "")
    if len(stem) < 3 or len(long) <= len(stem) or long == short or long not in GIVEN_NAMES:
        return False
    # A doubled letter before the ending may be the pet form's own, not the given name's ("Otti-e", "Oti-lia").
    return long.startswith(stem) or (len(stem) >= 4 and stem[-1] == stem[-2] and long.startswith(stem[:-1]))


def pet_name_host(tok: str, gender: str | None, people: list[Person], apart: set) -> Person | None:
    """Return the one person whose given name a pet name no lexicon relates begins ("Hildy" and "Hilda"),
    or whose pet name a given name continues, of no other gender; none when the book writes the two names
    side by side as two ("Hildy and Hilda") or several people fit."""
    hosts = [p for p in people if p.first and p.first != tok and (_cuts(tok, p.first) or _cuts(p.first, tok))
             and frozenset((tok, p.first)) not in apart and (None in (gender, p.gender) or gender == p.gender)]
    return hosts[0] if len(hosts) == 1 else None


#: A person named this often or less in all (full name, surname), beside their given name alone written far
#: more, may be a stranger who shares the given name.
_STRANGER_NAMED = 5
#: ... when the given name alone is written this many times as often.
_STRANGER_RATIO = 30


def stranger(person: Person, given: str, n: int, forms: dict) -> bool:
    """Return whether a given name written alone n times is not this full-named person: a man of one scene
    ("Odo Vauk" three times, "Vauk" once) beside the given name alone written thirty times as often is not
    the book's usual "Odo", who shares his given name. At worst a hero's full name is left as a person of a
    few mentions, who speaks little; joined, the stranger takes the hero's lines. A surname the book writes
    under a title ("Miss Vauk") is a family in use, the usual "Odo" likely of it: no stranger."""
    if not person.last or person.count > _STRANGER_NAMED or n < _STRANGER_RATIO * person.count:
        return False
    return not any(title and toks == (person.last,) for (title, toks) in forms)


def written_with(title: str, gender: str | None, bearers: list[Person], linked: Counter | None = None) -> list[Person]:
    """Narrow the full-named bearers of a surname "Mrs. Vell" may name to the one whose full name the book
    writes with that title ("Mrs. Greta Vell") and whose gender the text shows as the title's, beside a son
    "Tobiah Vell" whose gender no pronoun settled (married titles only: "Mr. Vell" may be the father of a son
    written "Mr. Tobiah Vell", "Miss Vell" the eldest sister of a "Miss Ada Vell"); else to the one the book
    writes out far more than any other bearer (a man's title) and after whose full name the text writes "Mr.
    Vell" (linked: corefer.titled_after_full); all of them when that is not one person."""
    if len(bearers) < 2:
        return bearers
    if title in MARRIED:
        own = [p for p in bearers if title in p.titles and p.gender == gender]
        return own if len(own) == 1 else bearers
    # "Mr. Vell" beside "Amos Vell" written out 20 times and a cousin "Ned Vell" written out once: the man the
    # book writes out is the one it means; a son written out as often leaves "Mr. Vell" to no one, and so
    # does "Mr. Amos Vell" (written so, he is told apart from an uncle or father the book calls "Mr. Vell").
    if gender == "F":
        return bearers  # "Miss Vell" may be an eldest sister the book never writes out beside a younger one

    def written_out(p: Person) -> int:
        return sum(n for (_, toks), n in p.forms.items() if len(toks) >= 2)
    usual = max(bearers, key=written_out)
    rest = [written_out(p) for p in bearers if p is not usual]
    rare = max(rest) <= _RARE_BEARER and written_out(usual) >= 4 * max(rest) + 8
    near = (linked or {}).get((title, usual.last, usual.first), 0)
    return [usual] if rare and near and title not in usual.titles else bearers
