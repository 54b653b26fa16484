"""Roman numerals: "Chapter XII" -> "Chapter Twelve", "Henry VIII" -> "Henry the Eighth"."""
from __future__ import annotations

import re

from app.book.spoken.languages import Language
from app.book.spoken.numbers import cardinal, ordinal

_VALUES = (("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90), ("L", 50), ("XL", 40),
           ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))
#: Names that take a regnal number (monarchs, popes, pharaohs), English and German spellings.
REGNAL_NAMES = frozenset("""
Henry Edward George William Charles Louis Richard John James Mary Elizabeth Anne Victoria Stephen Philip
Ferdinand Isabella Alfonso Pius Leo Gregory Benedict Innocent Clement Boniface Urban Paul Sixtus Alexander
Julius Ramesses Ramses Amenhotep Thutmose Ptolemy Antiochus Constantine Justinian Frederick Olaf Harald
Christian Umberto Vittorio Emmanuel Carl Oscar Haakon Sigismund Casimir Selim Suleiman Mehmed Murad Edmund
Malcolm David Robert Juan Carlos Felipe Peter Ivan Nicholas Catherine Napoleon Francis Henri Philippe
Gustav Gustavus Gustaf Eric Erik Magnus Valdemar Christina Matthias Michael Basil Theodore Manuel Martin
Adrian Hadrian Eugene Felix Victor Sergius Marcellus Celestine Honorius Callixtus Otto Conrad Konrad
Heinrich Friedrich Wilhelm Ludwig Karl Maximilian Rudolf Leopold Franz Joseph Johann Albrecht Ernst August
Georg Elisabeth Maria Katharina Iwan Nikolaus Pedro Sancho Harold Ethelred Baldwin Amadeus Lothair Pepin
Clovis Benedikt Gregor Johannes Paulus Innozenz Klemens Pius Richard Eduard Jakob Philipp Alexios
""".split())
_NUMERAL = r"[IVXLCDM]+"
#: Numerals that are as often a word, a size or a name: never taken for an item's number in running text.
_NOT_ITEMS = frozenset("LI CC CL CI XL XXL LX".split())


def roman_value(text: str) -> int | None:
    """Return the value of a canonical Roman numeral ("XII" -> 12), else None ("IIII", "MIM")."""
    if not text or not re.fullmatch(_NUMERAL, text):
        return None
    value, rest = 0, text
    for symbol, amount in _VALUES:
        while rest.startswith(symbol):
            value += amount
            rest = rest[len(symbol):]
    if rest or not 0 < value < 4000 or _to_roman(value) != text:
        return None
    return value


def _to_roman(value: int) -> str:
    out = []
    for symbol, amount in _VALUES:
        while value >= amount:
            out.append(symbol)
            value -= amount
    return "".join(out)


def _title(words: str) -> str:
    """Return words capitalized like a heading ("twenty-one" -> "Twenty-One")."""
    return words.title() if words.islower() else words


def romans(text: str, lang: Language) -> str:
    """Return text with Roman numerals after heading words, regnal names, or opening a heading, read out."""
    if not lang.n2w:
        return text
    if lang.heading_words:
        heads = "|".join(re.escape(w) for w in lang.heading_words)

        def said(num: str) -> str:
            value = roman_value(num)
            return num if value is None else _title(cardinal(value, lang))

        def heading(m: re.Match) -> str:
            if roman_value(m["num"]) is None or m["num"] == "I" and re.match(r"\s+[a-z]", text[m.end():]):
                return m[0]  # "the number I gave": the pronoun
            # "Cantos II, III, and IV": every numeral of the list, not only the first.
            rest = re.sub(rf"\b{_NUMERAL}\b", lambda r: said(r[0]), m["rest"])
            return f"{m['word']} {said(m['num'])}{rest}"

        listed = rf"(?:\s*(?:,|&|and|AND|to|TO|[-\u2013])\s*(?:and\s+|AND\s+)?{_NUMERAL}\b)*"
        # "Art: III considered", "Sect. IV": a colon after the word as clerks wrote it.
        text = re.sub(rf"\b(?P<word>(?:{heads}):?)\s+(?P<num>{_NUMERAL})\b(?P<rest>{listed})(?!['\u2019]\w)",
                      heading, text)

    def regnal(m: re.Match) -> str:
        value = roman_value(m["num"])
        if value is None:
            return m[0]
        return f"{m['name']} {lang.regnal_article} {_title(ordinal(value, lang))}".replace("  ", " ")

    # German writes a full stop after an ordinal numeral: "Heinrich VIII." (kept when it ends the sentence).
    stop = r"(?:\.(?!\s*$|\s+[A-ZÄÖÜ]))?" if lang.code == "de" else ""
    names = "|".join(sorted(REGNAL_NAMES))
    # A lone "I" after a name is the pronoun more often than a first king ("Then Paul I saw"): it is
    # regnal only where no lower-case word follows it ("Charles I.", "Charles I of England").
    pronoun = r"(?<=\bI)(?=\s+(?!of\b|and\b|und\b|von\b)[a-zäöüß])"
    text = re.sub(rf"\b(?P<name>{names})\s+(?P<num>{_NUMERAL})\b(?!{pronoun}){stop}", regnal, text)
    # "EXECUTION OF CHARLES I.", "HENRY VIII AND HIS COURT": a heading in capitals names the king so too; a
    # lone "I" there only where the line or clause ends or "OF" follows ("CHARLES I SAW": the pronoun).
    caps = "|".join(sorted(n.upper() for n in REGNAL_NAMES))
    text = re.sub(rf"\b(?P<name>{caps})\s+(?P<num>{_NUMERAL})\b(?!(?<=\bI)(?![.,;:]?\s*$|[,;:]|\s+OF\b))", regnal, text)

    def other(m: re.Match) -> str:
        value = roman_value(m["num"])
        return m[0] if value is None else f"{m['before']} {cardinal(value, lang)}"

    # "World War II", "Apollo XI": a multi-letter numeral after a capitalized word is a plain number.
    text = re.sub(rf"(?P<before>\b[A-Z][a-z]+)\s+(?P<num>[IVXLC]{{2,}})\b(?![-'\u2019]\w)", other, text)

    def opening(m: re.Match) -> str:
        value = roman_value(m["num"])
        if value is None or m["num"] == "I" and _PRONOUN_DASH.match(m.string, m.start("end")):
            return m[0]  # "I—I don't know.", "I—we thought": the pronoun broken off
        return f"{_title(cardinal(value, lang))}{m['end']}"

    # "XII. The Return", "XIV: Mrs. Grey to Her Brother" (a colon: "I:" is the first letter, never the
    # pronoun) or a paragraph that is only "IV": a numbered heading.
    text = re.sub(rf"^(?P<num>{_NUMERAL})(?P<end>[.:]\s|[.:]?$|\.?\s?(?:[\u2013\u2014]|--)|\.-(?=\s?[A-Z]))", opening, text)
    # "... the first day. IV. Agreed, that ...": a numbered item after a sentence's end (two letters or
    # more, and none that is also a word or a size: "LI", "CC", "XL").
    # "I." too where a word in capitals follows ("I. AGREED"): the pronoun ends no sentence before one.
    text = re.sub(rf"(?:(?<=[.!?;] )|(?<=[.!?;][\u2013\u2014]))(?:(?P<num>[IVXLC]{{2,}})(?P<end>\.\s)(?=[A-Z\"\u201c])|"
                  rf"(?P<one>I)(?P<one_end>\.\s)(?=[A-Z]{{2,}}\b))",
                  lambda m: f"One{m['one_end']}" if m["one"] else m[0] if m["num"] in _NOT_ITEMS else opening(m),
                  text)
    # "A MILD Winter", "VIVID": a word of numeral letters that is no numeral is a word, said as one (a voice
    # spells out a word in capitals it takes for an abbreviation).
    text = re.sub(r"\b(?=[IVXLCDM]*I)[IVXLCDM]{3,}\b", lambda m: m[0] if roman_value(m[0]) else m[0].capitalize(), text)
    # "The Quiet Hours, XVI: I drown my soul ...", "Part First: The Mill, I: Its Wheel": a piece's number
    # after its series' name and a comma, before a colon and the piece's first line (in the first clause).
    text = re.sub(rf"^(?P<head>[^.!?:;]{{1,80}}(?::[^.!?:;]{{1,80}})?, )(?P<num>{_NUMERAL})(?=: )",
                  lambda m: m[0] if (v := roman_value(m["num"])) is None or m["num"] in _NOT_ITEMS
                  or m["num"] == "I" and not _SERIES_NAME.fullmatch(m["head"]) else m["head"] + _title(cardinal(v, lang)),
                  text)
    # "Part Second: At the Mill, VII": a heading that ends on its chapter's numeral.
    if len(text.split()) <= _HEADING_WORDS:
        text = _HYPHENED.sub(lambda m: _hyphened(m, lang), text)
        text = re.sub(rf"(?<=, )(?P<num>[IVXLC]{{2,}}|[VXLC])(?P<end>\.?)$", opening, text)
        text = _heading_numerals(text, lang)
    return text


#: A series' name before ", I: " in title case, two words or more ("The Quiet Hours, I: ..."), where the
#: "I" is a number ("Yes, I: that is", "He said, I: ..." keep the pronoun).
_SERIES_NAME = re.compile(r"(?:(?:[A-Z][\w'\u2019-]*|[a-z]{1,3})[:]?\s+)+[A-Z][\w'\u2019-]*, ")
#: A paragraph this short is a heading, a caption or a line of a title page, where a numeral is a number.
_HEADING_WORDS = 12
#: After a line-opening "I" and a dash with no stop: the pronoun broken off ("I—I don't", "I—we", "I—"), or a
#: line too long for a heading.
_PRONOUN_DASH = re.compile(r"\s?(?:[\u2013\u2014]|--)\s?(?:I\b|[a-z]|$)|(?=(?:\S+\s+){%d})" % _HEADING_WORDS)
#: "VIII-A WATER-SIDE HERMIT", "II-HOW HE SAW", "IV-At the Mill": a heading whose number a hyphen joins to
#: its name, the hyphen standing for a dash. "VIII-A" alone is a numbered piece with a letter ("Eight-A").
#: Numerals of "M" and "D" are left out ("MIX-UP", "DID-"), and so are one-letter ones but "I" and "V"
#: ("X-RAY", "L-SHAPED", "C-SPRING"), and those that are also words or sizes ("XL-", "LI-").
_HYPHENED = re.compile(r"^(?P<num>[IVXLC]{2,}|[IV])-(?P<rest>[A-Z](?:[A-Za-z'\u2019]*\b.*|\.?$))")


def _hyphened(m: re.Match, lang: Language) -> str:
    value, num, rest = roman_value(m["num"]), m["num"], m["rest"]
    first = re.match(r"[A-Za-z]+", rest)[0]
    if value is None or num in _NOT_ITEMS or first == num or roman_value(first) and len(first) > 1:
        return m[0]  # "I-I CAN'T": a stammer; "VII-VIII": a range, said below
    said = _title(cardinal(value, lang))
    if re.fullmatch(r"[A-Z]\.?", rest):
        return f"{said}-{rest}"  # "XII-B": the piece's letter
    return f"{said}\u2014{rest}"
#: A numeral of two letters or more standing as a word of a short line ("(XIV)", "THE FORD.—II.",
#: "§ XII.", "II THE FORD", "VII-VIII"): not glued to letters, an apostrophe or a hyphenated word.
_LINE_NUMERAL = re.compile(r"(?<![\w'\u2019.-])(?P<num>[IVXLC]{2,})(?![\w'\u2019]|-[A-Za-z]|\.[A-Za-z])")
#: "I." closing a short line after a stop or dash ("THE FORD.—I.", "Mrs. Grey to Her Son. I."):
#: the first of a series, not the pronoun (which ends no heading after a stop of its own). After a colon
#: it needs no stop, and may stand before the part's name: a piece's title announced with its first part
#: ("The Mill: I", "The Mill: I: The Weir").
_LINE_ONE = re.compile(r"(?:(?<=[.;] )|(?<=[\u2013\u2014]))I(?=\.$)|(?<=: )I(?=\.?$|: )"
                       # "Further Problems: I.—Stars", "Lists: I--Books": a part announced with its name
                       # after a dash ("He said: I—I cannot": the pronoun, which a stop never ends there).
                       r"|(?<=: )I(?=\.(?:[\u2013\u2014]|--)|(?:[\u2013\u2014]|--)\s?(?!I\b)[A-Z\"\u201c])")


#: "ADDRESS I. Early History", "Address I: The Text", "LECTURE I.": a heading's word and its first number,
#: whatever the word; a pronoun after a first word ("Not I. Then he left.") is left as it is.
_WORD_ONE = re.compile(r"^(?P<word>(?!(?:Not|Only|And|But|Even|Both|Nor|Yes|Who|Than|Like|Then|Unless|Except|Save|"
                       r"Still|Neither|Either|Till|Until|When|Where|While|Said|Says|Cried)\b)[A-Z][a-z]{2,}|[A-Z]{3,})"
                       r"(?P<stop>\.?) I(?P<end>[.:] (?=[A-Z\"\u201c]))")
#: "LECTURE I." alone: a word in capitals and its first number.
_CAPS_ONE = re.compile(r"^(?P<word>[A-Z]{3,})(?P<stop>\.?) I(?P<end>[.:])$")


def _heading_numerals(text: str, lang: Language) -> str:
    """Return a short line (a heading, a caption) with every Roman numeral of two letters or more said as a
    number, wherever it stands: a heading's number in brackets, after a dash, or before its name without a
    stop. A numeral that is also a word or a size ("LI", "XL", "CC") only where it opens or closes the line."""
    if lang.code == "en":
        for rx in (_WORD_ONE, _CAPS_ONE):
            text = rx.sub(lambda m: f"{m['word']}{m['stop']} {_title(cardinal(1, lang))}{m['end']}", text)
    if not re.search(r"[IVXLC]{2}|I\.$|: I(?:$|: |\.?[\u2013\u2014-])", text):
        return text

    def said(m: re.Match) -> str:
        value = roman_value(m["num"])
        if value is None:
            return m[0]
        if m["num"] in _NOT_ITEMS and (text[:m.start()].strip(" ([{\u2013\u2014-")
                                       and text[m.end():].strip(" .:)]}\u2013\u2014-")):
            return m[0]
        return _title(cardinal(value, lang))

    def span(m: re.Match) -> str:  # "VII-VIII", "CHAPTERS XII–XIV": a range of pieces
        a, b = roman_value(m[1]), roman_value(m[2])
        if a is None or b is None or a >= b:
            return m[0]
        return f"{_title(cardinal(a, lang))} {lang.range_word} {_title(cardinal(b, lang))}"

    # "CHAPS. I.-XXXIX.": the first numeral may keep its stop before the dash.
    text = re.sub(r"(?<![\w'\u2019-])([IVXLC]+)\.?[-\u2013]([IVXLC]+)(?![\w'\u2019-])", span, text)
    text = _LINE_NUMERAL.sub(said, text)
    return _LINE_ONE.sub(_title(cardinal(1, lang)), text)


#: "[iv]" set alone as a section's heading, or "[xiv] Invocation of the Spirit" opening a short line: the
#: book's own number for the piece, said as a number ("Four", "Fourteen. Invocation ..."), as a heading's
#: "IV." is. Not where a sentence follows (a note's own text, "[iv] See the second chapter.", whose marker
#: is left out in older.py), nor in running text (a note's marker). Small letters only ("[XIV]" is a short
#: line's numeral, read where it stands), and no "[c]" or "[l]" alone: the third or twelfth lettered note.
_BRACKETED = re.compile(r"^\s*\[(?P<num>(?=[ivx]|[lc][ivxlc])[ivxlc]+)\.?\](?:\s*$|\s+(?P<rest>[A-Z\"\u201c(].*))")
#: A line this long after a bracketed number is a note's text, not a heading.
_SECTION_WORDS = 16


def section_number(text: str, lang: Language) -> str:
    """Return a line opening with a bracketed Roman numeral set as a heading with the numeral said."""
    m = _BRACKETED.match(text)
    if not m or not lang.n2w:
        return text
    value, rest = roman_value(m["num"].upper()), m["rest"]
    if value is None or rest and (len(rest.split()) > _SECTION_WORDS or re.search(r"[a-z][.!?][\"\u201d\u2019]?$", rest)):
        return text
    said = _title(cardinal(value, lang))
    return f"{said}. {rest}" if rest else said
