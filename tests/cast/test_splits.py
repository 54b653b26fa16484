"""One person, one character: a surname or a role joins the full name the book gives it (issue 31).

Synthetic books (names made up here), so each rule is seen alone; the PDNC benchmark measures them on novels.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _cast(paragraphs: list[str]):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def _speakers(cast) -> dict[str, str | None]:
    return {q.text: q.speaker for q in cast.quotes}


def test_a_titled_surname_joins_the_full_name_it_introduces():
    # "Dr. Edwin Marsh" written once, "Dr. Marsh" a dozen times: one doctor.
    paras = ["Dr. Edwin Marsh came to the house in the spring, and he stayed for tea."]
    for i in range(12):
        paras.append(f"Dr. Marsh looked at the clock for the {i + 1}th time. “Later,” said Dr. Marsh.")
    cast = _cast(paras)
    marsh = [c for c in cast.characters if "Marsh" in c.name]
    assert len(marsh) == 1 and set(marsh[0].aliases) | {marsh[0].name} >= {"Dr. Edwin Marsh", "Dr. Marsh"}


def test_a_full_name_with_the_title_as_often_as_the_short_form_is_the_same_man():
    paras = []
    for i in range(4):
        paras.append(f"Mr. Felix Dunmore walked in. “Good day,” said Mr. Dunmore. Dunmore sat down, {i}.")
    paras += ["“Tea?” Dunmore asked. He smiled."] * 6
    cast = _cast(paras)
    assert [c.name for c in cast.characters if "Dunmore" in c.name] == ["Felix Dunmore"] or \
        len([c for c in cast.characters if "Dunmore" in c.name]) == 1


def test_a_titled_surname_far_more_used_than_a_frequent_titled_full_name_is_another_man():
    # "Mr. Arthur Pell" written often, "Mr. Pell" five times more: two brothers, told apart by the first name.
    paras = [f"Mr. Arthur Pell nodded, {i}. “Yes,” said Mr. Arthur Pell." for i in range(6)]
    paras += [f"Mr. Pell frowned, {i}. “No,” said Mr. Pell." for i in range(30)]
    cast = _cast(paras)
    assert len([c for c in cast.characters if "Pell" in c.name]) == 2


def test_a_role_the_narration_gives_a_person_speaks_as_that_person():
    paras = ["Mr. Tolliver, the keeper, came out of the lodge. He was an old man.",
             "The boys ran past the lodge, and the keeper, Mr. Tolliver, shook his stick at them.",
             "Mary Ash came up the lane. She carried a basket.",
             "“Who goes there?” said the keeper.",
             "“Only me,” said Mary Ash.",
             "“Come in, then,” said Mr. Tolliver."]
    cast = _cast(paras)
    said = _speakers(cast)
    assert said["Who goes there?"] == said["Come in, then,"] == "Mr. Tolliver"
    assert not any(c.name.lower() == "the keeper" for c in cast.characters)


def test_a_role_the_narration_gives_two_people_stays_a_role():
    paras = ["Mr. Tolliver, the keeper, came out of the lodge.",
             "Years later Mr. Grebe, the keeper, came out of the same lodge.",
             "“Who goes there?” said the keeper.",
             "“Come in,” said Mr. Grebe.", "“Go away,” said Mr. Tolliver."]
    said = _speakers(_cast(paras))
    assert said["Who goes there?"] not in ("Mr. Tolliver", "Mr. Grebe")


def test_a_married_title_before_her_own_given_name_is_one_woman():
    paras = ["Mrs. Martha Quill kept the shop by the bridge. She sold bread."]
    paras += [f"Mrs. Quill counted the loaves, {i}. “Fresh today,” said Mrs. Quill." for i in range(8)]
    paras += [f"“Good,” said Mrs. Martha, {i}." for i in range(3)]
    cast = _cast(paras)
    assert len([c for c in cast.characters if "Quill" in c.name or "Martha" in c.name]) == 1


def test_a_married_title_before_a_husbands_name_is_not_his_mother():
    # "Mrs. Henry Vole" is Henry's wife; "Mrs. Vole", used as much, is another woman (his mother).
    paras = [f"Mrs. Henry Vole smiled, {i}. “Tea,” said Mrs. Henry Vole." for i in range(5)]
    paras += [f"Mrs. Vole frowned, {i}. “Coffee,” said Mrs. Vole." for i in range(5)]
    cast = _cast(paras)
    assert len([c for c in cast.characters if "Vole" in c.name]) == 2


def test_a_rare_long_form_of_a_given_name_is_the_same_man():
    # "Mr. William Quarrington" in a warrant, beside "Bill Quarrington" and "Quarrington" throughout: one man.
    paras = ["Mr. William Quarrington was named in the warrant, they said."] * 3
    paras += [f"Bill Quarrington scowled, {i}. “Get out,” said Quarrington. Bill spat." for i in range(12)]
    paras += [f"Quarrington sat down, {i}. “Now,” said Mr. Quarrington." for i in range(4)]
    cast = _cast(paras)
    men = [c for c in cast.characters if "Quarrington" in " ".join([c.name, *c.aliases])]
    assert len(men) == 1 and "Mr. William Quarrington" in [men[0].name, *men[0].aliases]


def test_a_father_and_son_both_written_out_stay_two():
    # "Thaddeus Oakhurst" written out often beside his son "Thad Oakhurst": two people.
    paras = [f"Thaddeus Oakhurst nodded, {i}. “Facts,” said Thaddeus Oakhurst." for i in range(10)]
    paras += [f"Thad Oakhurst yawned, {i}. “Bother,” said Thad. Thad Oakhurst left." for i in range(20)]
    cast = _cast(paras)
    assert len([c for c in cast.characters if "Oakhurst" in " ".join([c.name, *c.aliases])]) == 2


def test_a_pet_name_far_more_used_than_a_rare_long_name_is_someone_else():
    # "Margaret Venn" is named twice (a dead mother); "Madge" speaks throughout: two people, not one
    # (Madge is a diminutive of Margaret in the lexicon).
    paras = ["They said that Margaret Venn had died long ago, and that Margaret Venn was buried by the church."]
    paras += [f"Madge laughed, {i}. “Off with you,” said Madge." for i in range(20)]
    cast = _cast(paras)
    madge = next(c for c in cast.characters if c.name == "Madge" or "Madge" in c.aliases)
    assert "Margaret Venn" not in [madge.name, *madge.aliases]
