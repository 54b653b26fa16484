"""Dialogue found in the text: each way books mark a quotation, and what is quoted but not said."""
from __future__ import annotations

import pytest

from app.cast import find_quotes_in_text
from app.cast.dialogue import find_quotes

# (paragraph, the quotations' texts without their marks)
FORMS = [
    pytest.param("“My dear,” said Mrs. Bennet, “have you heard?”", ["My dear,", "have you heard?"], id="curly-double-interrupted"),
    pytest.param('"My dear," said Mrs. Bennet, "have you heard?"', ["My dear,", "have you heard?"], id="straight-double"),
    pytest.param("‘I don’t know,’ said Alice, ‘it’s the girls’ turn.’", ["I don’t know,", "it’s the girls’ turn."],
                 id="british-single-curly-apostrophes"),
    pytest.param("'I don't know,' said Alice, 'it's the girls' turn.'", ["I don't know,", "it's the girls' turn."],
                 id="british-single-straight-apostrophes"),
    pytest.param("“He told me ‘never’ twice,” she said.", ["He told me ‘never’ twice,"], id="nested-single-in-double"),
    pytest.param("‘He said “never” twice,’ she said.", ["He said “never” twice,"], id="nested-double-in-single"),
    pytest.param("—Hola —dijo Juan—. ¿Qué tal?", ["Hola", "¿Qué tal?"], id="spanish-dash"),
    pytest.param("— Привет, — сказал он. — Как дела?", ["Привет,", "Как дела?"], id="russian-dash"),
    pytest.param("« Bonjour, dit-il. Comment allez-vous ? »", ["Bonjour, dit-il. Comment allez-vous ?"], id="french-guillemets"),
    pytest.param("»Hallo«, sagte er, »wie geht's?«", ["Hallo", "wie geht's?"], id="german-guillemets"),
    pytest.param("„Guten Tag“, sagte sie.", ["Guten Tag"], id="german-low-high"),
    pytest.param("It was the Bennets’ house, and the girls’ rooms were upstairs.", [], id="apostrophes-only"),
    pytest.param("He used the word “gentleman” loosely.", [], id="scare-quoted-word"),
    pytest.param("The note ran thus: “Come at once. All is discovered.”", [], id="a-note-read"),
    pytest.param("She sang, “Over the hills and far away.”", ["Over the hills and far away."], id="a-song-sung"),
]


@pytest.mark.parametrize("paragraph, expected", FORMS)
def test_each_form_of_dialogue(paragraph, expected):
    found = find_quotes_in_text(paragraph)
    assert [text for _, _, text in found] == expected
    for start, end, text in found:
        # The span holds the marks: the text sits inside it.
        assert text in paragraph[start:end]


def test_spans_include_the_marks():
    paragraph = "“My dear,” said Mrs. Bennet, “have you heard?”"
    spans = [(s, e) for s, e, _ in find_quotes_in_text(paragraph)]
    assert [paragraph[s:e] for s, e in spans] == ["“My dear,”", "“have you heard?”"]


def test_a_speech_running_on_over_paragraphs():
    paragraphs = ["“It was a dark night, and the wind was high.",
                  "“Then the storm came,” he said.",
                  "He left the room."]
    first, second = find_quotes(paragraphs)
    assert (first.paragraph, first.closed, first.end) == (0, False, len(paragraphs[0]))
    assert (second.paragraph, second.closed, second.continues) == (1, True, True)


def test_a_letter_introduced_in_the_paragraph_before_is_not_dialogue():
    paragraphs = ["The letter was written in a small hand, and ran as follows:",
                  "“Dear Sir, I beg to inform you that the house is let.”",
                  "“Is it indeed?” said he."]
    quotes = find_quotes(paragraphs)
    assert [q.paragraph for q in quotes] == [2]


def test_a_british_book_reads_single_quotes_throughout():
    paragraphs = ["‘Where are you going?’ asked the Rabbit.",
                  "‘Out,’ said Alice. ‘He told me “never” once.’",
                  "Alice’s sister laughed at the children’s games."]
    quotes = find_quotes(paragraphs)
    assert [q.text for q in quotes] == ["Where are you going?", "Out,", "He told me “never” once."]


def test_short_lines_of_dialogue_are_read_not_taken_for_code(tmp_path):
    # Howards End, chapter 3, as Gutenberg prints it: '"Paul! Paul!"' alone on its line was "Code example."
    path = tmp_path / "scene.txt"
    path.write_text('"Oh, my darling Helen--"\n\n"Paul! Paul!"\n\nA very young man came out of the house.\n\n'
                    '"Yes, quite."\n\n"S--Saturday."\n', encoding="utf-8")
    from app.book import load_book

    paragraphs = load_book(path).chapters[0].paragraphs
    assert '"Paul! Paul!"' in paragraphs and '"Yes, quite."' in paragraphs and '"S--Saturday."' in paragraphs
    assert [text for _, _, text in find_quotes_in_text(paragraphs[1])] == ["Paul! Paul!"]
