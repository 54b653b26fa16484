"""One person, one character: "Mr. X" and "Mrs. X" beside the full name the book gives them, and the
eldest sister's "Miss X" kept apart from a younger "Miss Ada X" (issue 31).

Invented books; each rule's test fails with its rule switched off, the guards pass either way.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _cast(paragraphs: list[str]):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def _holding(cast, word: str) -> list:
    return [c for c in cast.characters if word in c.name or any(word in a for a in c.aliases)]


def test_miss_and_a_surname_stays_apart_from_a_younger_sister_written_out_with_miss():
    # The eldest sister is "Miss Quell", never written out; "Miss Orla Quell" is the younger one, who tells
    # herself apart by her given name. The book shows no one-person link between them: two characters.
    paras = ["Miss Orla Quell came down the stairs. She wore grey.",
             "Miss Orla Quell sat by the window, and she said nothing."]
    for i in range(8):
        paras.append(f"“Not today, {i},” said Miss Quell. She turned away.")
        paras.append(f"“As you like,” said Orla. She sighed, {i}.")
    cast = _cast(paras)
    assert not any("Miss Quell" in (c.name, *c.aliases) and "Orla" in " ".join((c.name, *c.aliases))
                   for c in cast.characters)


def test_miss_and_a_surname_is_no_younger_sister_when_another_sister_is_named():
    # "Miss Bree Quell" is written out to tell her from the eldest, "Miss Quell", whose sister Nessa is named too.
    paras = ["Miss Bree Quell came down the stairs. She wore grey.",
             "Miss Bree Quell sat by the window, and she said nothing."]
    for i in range(6):
        paras.append(f"Nessa Quell laughed at the dog, {i}. She threw it a stick.")
        paras.append(f"“Not today, {i},” said Miss Quell. She turned away.")
    cast = _cast(paras)
    assert not any("Miss Quell" in (c.name, *c.aliases) and "Bree" in " ".join((c.name, *c.aliases))
                   for c in cast.characters)


def test_mister_and_a_surname_is_the_man_written_out_without_the_title():
    # "Corvin Ashdale" written out in the narration, "Corvin" never alone: "Mr. Ashdale" is he, not a brother.
    paras = [f"At dusk, {i}, old Corvin Ashdale lit his pipe and Corvin Ashdale looked at the fire." for i in range(8)]
    paras += ["Mr. Corvin Ashdale was at home to no one.", "“Evening,” said Corvin Ashdale.",
              "Corvin Ashdale, or Mr. Ashdale as the village called him, kept to himself."]
    for i in range(20):
        paras.append(f"“Sit down, {i},” said Mr. Ashdale. He pointed to a chair.")
    cast = _cast(paras)
    assert len(_holding(cast, "Ashdale")) == 1


def test_a_father_written_mister_and_a_son_written_out_stay_apart_without_a_link_in_the_text():
    # The same counts, but the book never writes "Mr. Ashdale" right after "Corvin Ashdale": the father
    # "Mr. Ashdale" and his son stay two characters (counts of name forms alone join no one).
    paras = [f"At dusk, {i}, young Corvin Ashdale lit a lamp and Corvin Ashdale looked at the fire." for i in range(8)]
    paras += ["Mr. Corvin Ashdale was at home to no one.", "“Evening,” said Corvin Ashdale."]
    for i in range(20):
        paras.append(f"“Sit down, {i},” said Mr. Ashdale. He pointed to a chair.")
    cast = _cast(paras)
    assert not any("Mr. Ashdale" in (c.name, *c.aliases) for c in _holding(cast, "Corvin"))


def test_a_married_title_is_the_woman_written_with_it_beside_a_son_of_no_known_gender():
    # Her son's pronouns are mixed with hers ("He looked at his mother; she ..."), so his gender is unknown;
    # "Mrs. Greta Brisk" is written out, so "Mrs. Brisk" is she, not him.
    paras = ["Mrs. Greta Brisk came in. She sat down."] * 3
    paras += [f"Later, {i}, Greta Brisk looked at the letter, and she smiled." for i in range(10)]
    paras += [f"Then young Tobiah Brisk ran past, {i}; {'she' if i % 2 else 'he'} laughed." for i in range(10)]
    for i in range(8):
        paras.append(f"“Not today, {i},” said Mrs. Brisk. She nodded.")
    cast = _cast(paras)
    orla = _holding(cast, "Greta")
    assert len(orla) == 1 and "Mrs. Brisk" in (orla[0].name, *orla[0].aliases)


def test_mister_and_a_surname_is_the_man_written_out_not_a_cousin_named_once():
    paras = [f"At noon, {i}, old Amos Kettering went out, and Amos Kettering came back." for i in range(6)]
    paras += ["Once a cousin, Ned Kettering, came to stay. He left soon."]
    paras += [f"“Shut the gate, {i},” said Mr. Kettering. He frowned." for i in range(12)]
    paras += ["“I will,” said Amos Kettering.", "Amos Kettering went in. Mr. Kettering was tired of cousins."]
    cast = _cast(paras)
    amos = _holding(cast, "Amos")
    assert len(amos) == 1 and "Mr. Kettering" in (amos[0].name, *amos[0].aliases)


def test_the_usual_bearer_is_not_mister_when_another_of_the_name_comes_between():
    # "Mr. Kettering" follows "Amos Kettering" only with the father "Silas Kettering" written between: no link.
    paras = [f"At noon, {i}, young Amos Kettering went out, and Amos Kettering came back." for i in range(6)]
    paras += ["Once a cousin, Ned Kettering, came to stay. He left soon."]
    paras += [f"“Shut the gate, {i},” said Mr. Kettering. He frowned." for i in range(12)]
    paras += ["“I will,” said Amos Kettering.", "Amos Kettering ran to Silas Kettering. Mr. Kettering frowned."]
    cast = _cast(paras)
    assert not any("Mr. Kettering" in (c.name, *c.aliases) for c in _holding(cast, "Amos"))


def test_mister_and_a_surname_is_not_a_nephew_written_out_with_mister():
    # "Mr. Amos Kettering" is written so to tell him from his uncle, "Mr. Kettering".
    paras = [f"At noon, {i}, young Mr. Amos Kettering went out, and Amos Kettering came back." for i in range(6)]
    paras += ["Once a cousin, Ned Kettering, came to stay. He left soon."]
    paras += [f"“Shut the gate, {i},” said Mr. Kettering. He frowned." for i in range(12)]
    paras += ["“I will,” said Amos Kettering."]
    cast = _cast(paras)
    assert not any("Mr. Kettering" in (c.name, *c.aliases) for c in _holding(cast, "Amos"))


def test_mistress_is_a_married_title_like_mrs():
    # The older spelling: "Mistress Greta Vell" written out, "Mistress Vell" is she (her husband is "Captain Vell").
    paras = ["Mistress Greta Vell stood at the door. She held a candle."]
    paras += [f"Later, {i}, Greta Vell sewed by the fire, and she sang." for i in range(4)]
    paras += [f"Captain Vell came in, {i}. He shut the door." for i in range(6)]
    paras += [f"“Come in, {i},” said Mistress Vell. She smiled." for i in range(8)]
    cast = _cast(paras)
    greta = _holding(cast, "Greta")
    assert len(greta) == 1 and "Mistress Vell" in (greta[0].name, *greta[0].aliases)
