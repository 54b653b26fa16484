"""What each language needs to say numbers, dates, links and symbols: data, one entry a language.

A language without an entry here still gets num2words numbers when num2words
knows it (see `language_for`); only the words of the rules below are missing,
and those rules then leave the text as it is.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import num2words


@dataclass(frozen=True)
class Language:
    """The words and conventions of one language's spoken forms."""

    #: ISO 639-1 code ("en"), and the num2words code ("en", "de"); "" when num2words lacks it.
    code: str
    n2w: str
    #: English name, for messages ("German").
    name: str
    #: Words joining parts: "and" (money), "point" is num2words' own.
    and_word: str = "and"
    percent: str = "percent"
    minus: str = "minus"
    #: "3-5" between numbers.
    range_word: str = "to"
    #: Link and email words: "a link to debian dot org", "jane at example dot org".
    link: str = "a link to"
    dot: str = "dot"
    at: str = "at"
    #: Month names, January first.
    months: tuple[str, ...] = ()
    #: Whether 3/4/2021 is day/month (True) or month/day (False).
    day_first: bool = False
    #: How a date sounds; keys: day (ordinal words), month, year (year words).
    date_pattern: str = "{month} {day}, {year}"
    #: How a time sounds; keys: hour, minute (words). "{hour} o'clock" when minute is zero.
    time_pattern: str = "{hour} {minute}"
    time_full_hour: str = "{hour} o'clock"
    #: Minutes 1-9 after the hour: "ten oh five".
    minute_prefix: str = "oh"
    #: Regnal names: "Henry VIII" -> "Henry the Eighth".
    regnal_article: str = "the"
    #: Words before a chapter-like number: "Chapter XII" -> "Chapter Twelve".
    heading_words: tuple[str, ...] = ()
    #: Abbreviations (with their full stop) -> spoken word; matched case-sensitively at word starts.
    abbreviations: dict[str, str] = field(default_factory=dict)
    #: Abbreviations read only before a number ("No. 5", "p. 12"): elsewhere "No." is a word.
    number_labels: dict[str, str] = field(default_factory=dict)
    #: Abbreviations that end a sentence when they close one ("etc.").
    sentence_final: frozenset[str] = frozenset()
    #: Unit symbol -> (singular, plural), read after a number.
    units: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: Currency symbol or code -> (unit singular, plural, cent singular, plural).
    currencies: dict[str, tuple[str, str, str, str]] = field(default_factory=dict)
    #: Symbols read as words wherever they stand alone: "&" -> "and".
    symbols: dict[str, str] = field(default_factory=dict)
    #: The cardinal "one" before a noun, when it differs (German "eins" -> "ein").
    one_before_noun: str = ""


_EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December")
_DE_MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
              "November", "Dezember")

ENGLISH = Language(
    code="en", n2w="en", name="English",
    months=_EN_MONTHS,
    heading_words=("Chapter", "CHAPTER", "Part", "PART", "Book", "BOOK", "Volume", "VOLUME", "Act", "ACT",
                   "Scene", "SCENE", "Canto", "CANTO", "Cantos", "CANTOS", "Section", "SECTION", "Appendix",
                   "APPENDIX", "Vol.", "Chap.", "Number", "NUMBER", "number", "Article", "ARTICLE", "Art.", "Art", "art.", "art",
                   "Sect.", "Sec.",
                   # Plurals before a list ("Chapters VII and VIII"), capitals and clerks' abbreviations
                   # ("CHAP. XII.", "LETTER XLI."), and the numbered pieces of letters, psalms and staves.
                   "Chapters", "CHAPTERS", "Parts", "PARTS", "Books", "BOOKS", "CHAP.", "Chapt.", "CHAPT.",
                   "VOL.", "ART.", "SECT.", "SEC.", "Letter", "LETTER", "Letters", "LETTERS", "Psalm", "PSALM",
                   "Stave", "STAVE", "Lecture", "LECTURE", "Lesson", "LESSON", "Sermon", "SERMON", "Essay",
                   "ESSAY", "Epistle", "EPISTLE", "Sonnet", "SONNET", "Ode", "ODE", "Hymn", "HYMN",
                   # A book's divisions above its chapters ("DIVISION I" <br> its name, round html29).
                   "Division", "DIVISION",
                   # An atlas's or a treatise's numbered plates and tables ("PLATE II.", "Table IV").
                   "Plate", "PLATE", "Plates", "PLATES", "Table", "TABLE", "Tables", "TABLES",
                   "chapter", "chapters", "section", "sect.", "sec.", "vol.", "volume", "chap.", "canto"),
    abbreviations={
        "Mr.": "Mister", "Mrs.": "Missus", "Ms.": "Miz", "Dr.": "Doctor", "Prof.": "Professor",
        "Jr.": "Junior", "Sr.": "Senior", "Mt.": "Mount", "Capt.": "Captain", "Gen.": "General",
        "Col.": "Colonel", "Lt.": "Lieutenant", "Sgt.": "Sergeant", "Rev.": "Reverend", "Hon.": "Honourable",
        "Gov.": "Governor", "Sen.": "Senator", "Rep.": "Representative", "Fr.": "Father", "Bros.": "Brothers",
        "e.g.": "for example", "i.e.": "that is", "etc.": "et cetera", "vs.": "versus", "viz.": "namely",
        "cf.": "compare", "approx.": "approximately", "incl.": "including", "esp.": "especially",
        "a.m.": "a m", "p.m.": "p m", "Ave.": "Avenue", "Rd.": "Road", "Blvd.": "Boulevard",
        "Jan.": "January", "Feb.": "February", "Mar.": "March", "Apr.": "April", "Aug.": "August",
        "Sep.": "September", "Sept.": "September", "Oct.": "October", "Nov.": "November", "Dec.": "December",
        "Inc.": "Incorporated", "Ltd.": "Limited", "Co.": "Company", "Corp.": "Corporation",
        "Dept.": "Department", "Univ.": "University", "ff.": "and following",
    },
    number_labels={"No.": "number", "no.": "number", "Nos.": "numbers", "p.": "page", "pp.": "pages",
                   "Fig.": "Figure", "fig.": "figure", "vol.": "volume", "Vol.": "Volume", "ch.": "chapter",
                   "Ch.": "Chapter", "para.": "paragraph"},
    sentence_final=frozenset({"etc.", "Inc.", "Ltd.", "Co.", "Corp.", "a.m.", "p.m.", "Bros."}),
    units={
        "km": ("kilometer", "kilometers"), "m": ("meter", "meters"), "cm": ("centimeter", "centimeters"),
        "mm": ("millimeter", "millimeters"), "kg": ("kilogram", "kilograms"), "g": ("gram", "grams"),
        "mg": ("milligram", "milligrams"), "l": ("liter", "liters"), "ml": ("milliliter", "milliliters"),
        "mi": ("mile", "miles"), "ft": ("foot", "feet"), "yd": ("yard", "yards"), "lb": ("pound", "pounds"),
        "lbs": ("pound", "pounds"), "oz": ("ounce", "ounces"), "mph": ("mile per hour", "miles per hour"),
        "km/h": ("kilometer per hour", "kilometers per hour"), "kph": ("kilometer per hour", "kilometers per hour"),
        "h": ("hour", "hours"), "hrs": ("hour", "hours"), "min": ("minute", "minutes"),
        "s": ("second", "seconds"), "sec": ("second", "seconds"), "ms": ("millisecond", "milliseconds"),
        "KB": ("kilobyte", "kilobytes"), "kB": ("kilobyte", "kilobytes"), "MB": ("megabyte", "megabytes"),
        "GB": ("gigabyte", "gigabytes"), "TB": ("terabyte", "terabytes"), "Hz": ("hertz", "hertz"),
        "kHz": ("kilohertz", "kilohertz"), "MHz": ("megahertz", "megahertz"), "GHz": ("gigahertz", "gigahertz"),
        "W": ("watt", "watts"), "kW": ("kilowatt", "kilowatts"), "V": ("volt", "volts"),
        "°C": ("degree Celsius", "degrees Celsius"), "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
        "°": ("degree", "degrees"),
    },
    currencies={
        "$": ("dollar", "dollars", "cent", "cents"), "US$": ("dollar", "dollars", "cent", "cents"),
        "£": ("pound", "pounds", "penny", "pence"), "€": ("euro", "euros", "cent", "cents"),
        "¥": ("yen", "yen", "sen", "sen"),
    },
    symbols={"&": "and", "+": "plus", "=": "equals", "×": "times", "§": "section", "§§": "sections",
             "~": "about", "≈": "about", "<": "less than", ">": "greater than", "@": "at", "#": "number"},
)

GERMAN = Language(
    code="de", n2w="de", name="German",
    and_word="und", percent="Prozent", minus="minus", range_word="bis",
    link="ein Link zu", dot="Punkt", at="at",
    months=_DE_MONTHS, day_first=True,
    date_pattern="{day} {month} {year}",
    time_pattern="{hour} Uhr {minute}", time_full_hour="{hour} Uhr", minute_prefix="",
    regnal_article="der",
    heading_words=("Kapitel", "KAPITEL", "Teil", "TEIL", "Buch", "BUCH", "Band", "Akt", "Szene", "Abschnitt",
                   "Anhang"),
    abbreviations={
        "z. B.": "zum Beispiel", "z.B.": "zum Beispiel", "d. h.": "das heißt", "d.h.": "das heißt",
        "u. a.": "unter anderem", "u.a.": "unter anderem", "usw.": "und so weiter", "etc.": "et cetera",
        "bzw.": "beziehungsweise", "ca.": "circa", "vgl.": "vergleiche", "ggf.": "gegebenenfalls",
        "Dr.": "Doktor", "Prof.": "Professor", "Hr.": "Herr", "Hrn.": "Herrn", "Fr.": "Frau",
        "St.": "Sankt", "Str.": "Straße", "evtl.": "eventuell", "inkl.": "inklusive", "zzgl.": "zuzüglich",
        "ff.": "folgende", "v. Chr.": "vor Christus", "n. Chr.": "nach Christus", "Jh.": "Jahrhundert",
    },
    number_labels={"Nr.": "Nummer", "S.": "Seite", "Abb.": "Abbildung", "Kap.": "Kapitel", "Bd.": "Band"},
    sentence_final=frozenset({"usw.", "etc.", "v. Chr.", "n. Chr.", "Jh."}),
    units={
        "km": ("Kilometer", "Kilometer"), "m": ("Meter", "Meter"), "cm": ("Zentimeter", "Zentimeter"),
        "mm": ("Millimeter", "Millimeter"), "kg": ("Kilogramm", "Kilogramm"), "g": ("Gramm", "Gramm"),
        "mg": ("Milligramm", "Milligramm"), "l": ("Liter", "Liter"), "ml": ("Milliliter", "Milliliter"),
        "km/h": ("Kilometer pro Stunde", "Kilometer pro Stunde"), "h": ("Stunde", "Stunden"),
        "Std.": ("Stunde", "Stunden"), "min": ("Minute", "Minuten"), "Min.": ("Minute", "Minuten"),
        "s": ("Sekunde", "Sekunden"), "Sek.": ("Sekunde", "Sekunden"), "ms": ("Millisekunde", "Millisekunden"),
        "KB": ("Kilobyte", "Kilobyte"), "kB": ("Kilobyte", "Kilobyte"), "MB": ("Megabyte", "Megabyte"),
        "GB": ("Gigabyte", "Gigabyte"), "TB": ("Terabyte", "Terabyte"), "Hz": ("Hertz", "Hertz"),
        "kHz": ("Kilohertz", "Kilohertz"), "MHz": ("Megahertz", "Megahertz"), "GHz": ("Gigahertz", "Gigahertz"),
        "W": ("Watt", "Watt"), "kW": ("Kilowatt", "Kilowatt"), "V": ("Volt", "Volt"),
        "°C": ("Grad Celsius", "Grad Celsius"), "°": ("Grad", "Grad"),
    },
    currencies={
        "€": ("Euro", "Euro", "Cent", "Cent"), "EUR": ("Euro", "Euro", "Cent", "Cent"),
        "$": ("Dollar", "Dollar", "Cent", "Cent"), "£": ("Pfund", "Pfund", "Penny", "Pence"),
        "CHF": ("Franken", "Franken", "Rappen", "Rappen"),
    },
    symbols={"&": "und", "+": "plus", "=": "gleich", "×": "mal", "§": "Paragraf", "§§": "Paragrafen",
             "~": "etwa", "≈": "etwa", "<": "kleiner als", ">": "größer als", "@": "at", "#": "Nummer"},
    one_before_noun="ein",
)

#: Languages with their own words and rules, by ISO 639-1 code.
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (ENGLISH, GERMAN)}


#: Language names users and sglang-omni write, to ISO 639-1 codes ("--language German").
NAMES = {"english": "en", "german": "de", "deutsch": "de", "french": "fr", "spanish": "es", "italian": "it",
         "portuguese": "pt", "dutch": "nl", "russian": "ru", "chinese": "zh", "japanese": "ja", "korean": "ko",
         "polish": "pl", "swedish": "sv", "danish": "da", "norwegian": "no", "finnish": "fi", "czech": "cs",
         "turkish": "tr", "ukrainian": "uk", "arabic": "ar", "hindi": "hi"}
#: English names of codes, for messages.
_CODE_NAMES = {code: name.title() for name, code in reversed(list(NAMES.items()))}


def base_code(tag: str | None) -> str:
    """Return the ISO 639-1 code of a tag or name ("en-GB" -> "en", "de_AT" -> "de", "German" -> "de")."""
    value = (tag or "").strip()
    if value.lower() in NAMES:
        return NAMES[value.lower()]
    return value.replace("_", "-").split("-")[0].lower()


def display_name(tag: str | None) -> str:
    """Return "German (de)" for a tag, for messages."""
    code = base_code(tag)
    return f"{_CODE_NAMES.get(code, code)} ({code})"


def language_for(tag: str | None) -> Language:
    """Return the spoken-forms language of a tag; English conventions for British/Commonwealth dates too."""
    code = base_code(tag) or "en"
    if (tag or "").strip().lower() in NAMES:
        tag = code
    lang = LANGUAGES.get(code)
    if lang is not None:
        region = (tag or "").replace("_", "-").split("-")[1:2]
        if code == "en" and region and region[0].upper() not in ("US", "PH"):
            # Outside the US a date is day/month and said "the third of April".
            from dataclasses import replace

            return replace(lang, day_first=True, date_pattern="the {day} of {month} {year}")
        return lang
    # No words of our own: numbers still get num2words when it knows the language.
    n2w = code if code in num2words.CONVERTER_CLASSES else ""
    return Language(code=code, n2w=n2w, name=code, link="", dot="", at="", minute_prefix="", regnal_article="")
