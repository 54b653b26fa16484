"""What older books print that a voice must not say as printed (issue 32, the corpus's spoken residue).

Each row is invented prose in a printing convention: note markers kept by a transcriber, an editor's
bracketed word, the label over a book's notes, pounds and shillings set apart by removed italics,
numbered items and headings in Roman numerals, degree signs after a fraction or alone.
"""
from __future__ import annotations

import re

import pytest

from app.book.spoken import speak

RESIDUE = {
    "note markers": [
        ("the mill [12] stood by the weir", "the mill stood by the weir"),
        ("the mill stood by the weir [3].", "the mill stood by the weir."),
        ("see Footnote [14] for the rest", "see Footnote fourteen for the rest"),
        ("Missing anchor for note [2] added.", "Missing anchor for note two added."),
        ("a list [1, 2] of things", "a list [one, two] of things"),  # not a marker: a bracketed list
    ],
    "editorial insertions": [
        ("the left [wing] of the army", "the left wing of the army"),
        ("it should be [a] small town", "it should be a small town"),
        ("the motto N[ulla] D[ies]", "the motto Nulla Dies"),
        ("a long word[a] with a note", "a long word with a note"),
        ("a later note[8a] and another[8b].", "a later note and another."),
    ],
    "labels over notes": [
        ("FOOTNOTES:", ""),
        ("Notes.", ""),
        ("Footnotes to the second part are at its end.", "Footnotes to the second part are at its end."),
    ],
    "sterling apart": [
        ("it cost 14 s . 11 d . in all", "it cost fourteen shillings and eleven pence in all"),
        ("a loss of 120,000 l . Then", "a loss of one hundred and twenty thousand pounds. Then"),
        ("at 7l. 10 s. the ton", "at seven pounds and ten shillings the ton"),
        ("a fare of 2 s. 3 d., or less", "a fare of two shillings and three pence, or less"),
        ("worth 300l. a year", "worth three hundred pounds a year"),
        ("paid 4,500l. for the farm", "paid four thousand five hundred pounds for the farm"),
        ("at 4d per head", "at four pence per head"),
    ],
    "plain-text italics": [
        ("the lease for 900_l._, paid", "the lease for nine hundred pounds, paid"),
        ("sold at 12_s._ 6_d._ a yard", "sold at twelve shillings and six pence a yard"),
        ("it was _quite_ dark", "it was quite dark"),
    ],
    "set fractions": [
        ("a ring 1\u00b3\u2044\u2081\u2080 in. wide", "a ring one and three tenths in. wide"),
        ("a bar \u2077\u2044\u2082\u2080 in. long", "a bar seven twentieths in. long"),
    ],
    "older abbreviations": [
        ("Mr. Quarle 2ded. the motion", "Mister Quarle seconded the motion"),
        ("Mr. Quarle 2ds the motion.", "Mister Quarle seconds the motion."),
    ],
    "glued and lettered numbers": [
        ("the sheriff of Kent,1702\u20131710, and", "the sheriff of Kent, seventeen oh-two to seventeen ten, and"),
        ("at 14a Mill Street", "at fourteen A Mill Street"),
    ],
    "price lists and catalogues": [
        ("a dozen eggs, 25c.; a stamp, 1c. extra", "a dozen eggs, twenty-five cents; a stamp, one cent extra"),
        ("Leeds, 1874. 16o.", "Leeds, eighteen seventy-four. sixteenmo."),
        ("first the road, 2dly the bridge, and 3dly the mill", "first the road, secondly the bridge, and thirdly the mill"),
    ],
    "codes and names glued to numbers": [
        ("calling K7QRZ, come in", "calling K seven QRZ, come in"),
        ("the model 12QT kettle", "the model twelve QT kettle"),
        ("the folios 214a; 362b.", "the folios two hundred and fourteen a; three hundred and sixty-two b."),
        ("serial SN4402918", "serial SN four four zero two nine one eight"),
    ],
    "numbers after a month": [
        ("In May 3,400 men sailed.", "In May three thousand four hundred men sailed."),
        ("On May 3, 1790 they sailed.", "On May third, seventeen ninety they sailed."),
    ],
    "roman headings": [
        ("APPENDIX IV", "APPENDIX Four"),
        ("TALES OF THE COAST.—No. XII.", "TALES OF THE COAST.—number Twelve."),
        ("III.—SONGS OF THE FIELD.", "Three.—SONGS OF THE FIELD."),
        ("Notes to Cantos II, III, and IV", "Notes to Cantos Two, Three, and Four"),
        ("May 2. I. AGREED, That the bridge", "May second. One. AGREED, That the bridge"),
        ("as was said. VI. The wall was built.", "as was said. Six. The wall was built."),
        ("Art: IV was read. Art. V agreed.", "Art: Four was read. Art. Five agreed."),
        ("voted to drop art VII in full", "voted to drop art Seven in full"),
        ("Summary: Early Days.\u2014II. The Mill.\u2014III. The Ford.", "Summary: Early Days.\u2014Two. The Mill.\u2014Three. The Ford."),
        ("Chapter 3: A MILD Winter", "Chapter three: A Mild Winter"),  # numeral letters, no numeral
        # The pronoun is never a number.
        ("the number I chose", "the number I chose"),
        ("Then said I. He went.", "Then said I. He went."),
        ("Size XL. Then", "Size forty. Then"),
        ("ANN LEE, LL.D.", "ANN LEE, L L D."),  # a degree's letters, no numeral
        ("by Ann Lee, LL. D., of the college", "by Ann Lee, L L D., of the college"),
    ],
    "degrees": [
        ("a heat of 81½° at noon", "a heat of eighty-one and a half degrees at noon"),
        ("it read 64deg, then fell", "it read sixty-four degrees, then fell"),
        ("″; seconds of arc", "double prime; seconds of arc"),
    ],
}


@pytest.mark.parametrize("src, want", [pytest.param(src, want, id=f"{cat}-{src[:28]}")
                                       for cat, rows in RESIDUE.items() for src, want in rows])
def test_older_printing_is_said_not_read_as_printed(src, want):
    assert speak(src, "en") == want


_RESIDUE = re.compile(r"\d|&c\b|[°′″]|\[(?:\d+|[A-Z*†]|[a-z]+)\]")


@pytest.mark.parametrize("src", [src for cat, rows in RESIDUE.items() if cat != "note markers"
                                 for src, _ in rows])
def test_no_residue_and_stable_when_spoken_again(src):
    once = speak(src, "en")
    assert not _RESIDUE.search(once), once
    assert speak(once, "en") == once
