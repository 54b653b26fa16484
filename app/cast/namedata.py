"""What the name finder knows of names, read from the data files in app/cast/data/ (each names its source):
titles and the gender they show, diminutives with every full name they shorten, given names by gender,
capitalised words that are never a name, and the words of places and things.

No name here comes from a novel: the given names are the 1990 US Census lists, the diminutives the
`nicknames` package's (scripts/build_cast_lexicons.py rebuilds both); the rest is general English.
"""
from __future__ import annotations

from importlib import resources

_DATA = resources.files("app.cast") / "data"


def _rows(name: str) -> list[list[str]]:
    text = (_DATA / name).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _words(name: str) -> frozenset[str]:
    text = (_DATA / name).read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines() if not line.startswith("#") for w in line.split())


def _gender(mark: str) -> str | None:
    return mark if mark in ("F", "M") else None


_TITLE_ROWS = _rows("titles.tsv")
#: Titles before a name, with the gender they show (None: either).
TITLES: dict[str, str | None] = {row[0]: _gender(row[1]) for row in _TITLE_ROWS}
#: Titles said before a given name ("Lady Honoria", "Miss Agatha"); the rest go before a surname ("Colonel Rowe").
GIVEN_NAME_TITLES = frozenset(row[0] for row in _TITLE_ROWS if len(row) > 2 and "given" in row[2].split(","))
#: Titles written with a full stop in English ("Mr." but "Miss").
ABBREVIATED = frozenset(row[0] for row in _TITLE_ROWS if len(row) > 2 and "." in row[2].split(","))

#: Diminutive -> every given name it can shorten ("Kitty": Catherine, Katherine, ...).
SHORT_FOR: dict[str, tuple[str, ...]] = {}
for _file in ("diminutives.tsv", "diminutives_extra.tsv"):
    for _row in _rows(_file):
        SHORT_FOR[_row[0]] = tuple(sorted(set(SHORT_FOR.get(_row[0], ())) | set(_row[1:])))
#: Given name -> its diminutives (the inverse of SHORT_FOR).
DIMINUTIVES: dict[str, tuple[str, ...]] = {}
for _short, _fulls in SHORT_FOR.items():
    for _full in _fulls:
        DIMINUTIVES[_full] = DIMINUTIVES.get(_full, ()) + (_short,)

_GIVEN = {row[0]: row[1] for f in ("given_names.tsv", "given_names_extra.tsv") for row in _rows(f)}
#: Given names by the gender they show; a tie-breaker where the book's own titles and pronouns do not decide.
FEMALE_NAMES = frozenset(n for n, g in _GIVEN.items() if g == "F")
MALE_NAMES = frozenset(n for n, g in _GIVEN.items() if g == "M")
#: Given names of either gender ("Francis" / "Frances" aside, "Marion", "Leslie").
EITHER_NAMES = frozenset(n for n, g in _GIVEN.items() if g == "?")
#: Every given name the lexicons know, of any gender (built once: a pet-name test asks it per pair of people).
GIVEN_NAMES = FEMALE_NAMES | MALE_NAMES | EITHER_NAMES

#: Capitalised words that are never a person's name on their own.
NOT_NAMES = _words("not_names.txt")
#: Words that make a run of capitalised words a place or a thing ("Mill Street", "the Blue Heron Inn").
PLACE_WORDS = _words("place_words.txt")
#: Days and months: not a name alone, a surname after a title ("Mrs. May").
CALENDAR_WORDS = _words("calendar_words.txt")
#: Prepositions of place: a capitalised word mostly after them ("in Bombay", "near Lincoln") is a place.
LOCATIVES = frozenset("in into near across through throughout within towards toward beyond outside".split())
#: "at Mau", "from Bombay": half the weight of "in Bombay" (people are spoken to and of too).
WEAK_LOCATIVES = frozenset("at from to".split())
#: One title, however written: "Doctor Odell" is "Dr. Odell", "Mme. Vaud" is "Madame Vaud", a dialect "Marse Otto"
#: is "Master Otto" (title_variants.tsv). A variant not in titles.tsv is added to TITLES with its title's gender.
SAME_TITLE = {row[0]: row[1] for row in _rows("title_variants.tsv")}
for _variant, _title in SAME_TITLE.items():
    if _variant not in TITLES and _title in TITLES:
        TITLES[_variant] = TITLES[_title]
#: Nouns of one person of a kind ("a carpenter", "a passer-by") with the gender the word shows (None: either):
#: the noun of a speech tag that brings in someone with no name ("said a boy by the door").
PERSON_NOUNS: dict[str, str | None] = {row[0]: _gender(row[1]) for row in _rows("person_nouns.tsv")}
