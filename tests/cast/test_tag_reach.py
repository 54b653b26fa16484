"""How far a speech tag reaches (issue 31, the explicit quotations): a paragraph's tag covers the quote after
its sentence, a lead-in sentence's speaker is the subject of its main clause, and a narration paragraph that
ends on someone going on to speak hands them the next paragraph's quote.

Synthetic books (names made up here), so each convention is seen alone; the PDNC benchmark measures them.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _cast(paragraphs: list[str]):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def _speaker_of(cast, opening: str) -> str | None:
    quote = next(q for q in cast.quotes if q.text.lstrip("“\"").startswith(opening))
    return quote.speaker


#: Two people met often enough to be characters.
_INTRO = ["Mrs. Orla Penhallow and Tobias Wrenfield walked to the gate, and Mrs. Penhallow laughed.",
          "“Good morning,” said Tobias Wrenfield.", "“Good morning,” said Mrs. Penhallow."] * 2
_TOBIAS = ("Tobias Wrenfield", "Tobias")


def _is_penhallow(name: str | None) -> bool:
    return (name or "").endswith("Penhallow")


def test_a_quote_after_the_sentence_of_its_paragraphs_tag_is_the_tags_speakers():
    # The narration after the second quote reports Tobias muttering: no tag of that quote's.
    cast = _cast(_INTRO + ["“Stop,” said Mrs. Penhallow. “You are late again.” Tobias muttered an answer and sat down."])
    assert _is_penhallow(_speaker_of(cast, "You are late again."))


def test_the_second_part_of_an_interrupted_quote_is_the_tags_speakers_whatever_the_next_sentence_names():
    cast = _cast(_INTRO + ["“Three miles,” cried Tobias, “and not a yard more.” Mrs. Penhallow remonstrated, and "
                           "pointed at the map; but he would not look."])
    assert _speaker_of(cast, "and not a yard more.") in _TOBIAS


def test_an_inverted_tag_right_after_the_second_part_still_names_its_speaker():
    cast = _cast(_INTRO + ["“No!” said Tobias, and “Yes!” cried Mrs. Penhallow more eagerly."])
    assert _is_penhallow(_speaker_of(cast, "Yes!"))


def test_a_lead_in_sentences_speaker_is_the_subject_of_its_main_clause():
    cast = _cast(_INTRO + ["When Mrs. Penhallow, with her basket on her arm, had gone upstairs, Tobias opened his eyes "
                           "and said decidedly:", "“We leave at dawn.”"])
    assert _speaker_of(cast, "We leave at dawn.") in _TOBIAS


def test_a_place_after_a_preposition_is_no_speaker():
    cast = _cast(_INTRO + ["Tobias lit his lamp for her in the porch, and with his usual bluntness, said: "
                           "“Mind the step.”"])
    assert _speaker_of(cast, "Mind the step.") in _TOBIAS
    assert not any(c.name.lower().startswith("the porch") for c in cast.characters)


def test_a_name_after_a_clause_opening_and_is_the_subject_but_not_the_object_of_a_verb():
    cast = _cast(_INTRO + [
        "Mrs. Penhallow turned to the window; and Tobias had only time to say, in a low voice, “Not now.”",
        "Mrs. Penhallow, who had heard it all, and borne Tobias company throughout, now ventured to say, “Be calm.”"])
    assert _speaker_of(cast, "Not now.") in _TOBIAS
    assert _is_penhallow(_speaker_of(cast, "Be calm."))


def test_whose_saying_it_is_says_it():
    cast = _cast(_INTRO + ["Mrs. Penhallow was beginning an eager answer, when she was stopped by Tobias's saying "
                           "with authority, “Enough of that.”"])
    assert _speaker_of(cast, "Enough of that.") in _TOBIAS


def test_a_paragraph_ending_on_someone_going_on_hands_them_the_next_paragraphs_quote():
    cast = _cast(_INTRO + ["Tobias looked away. After a pause, Mrs. Penhallow, trying not to smile, went on.",
                           "“The gate is locked, and the key is lost.”"])
    assert _is_penhallow(_speaker_of(cast, "The gate is locked"))


def test_a_thing_going_on_is_no_speaker():
    cast = _cast(_INTRO + ["Tobias looked away. The rain went on.", "“The gate is locked, and the key is lost.”"])
    assert not any(c.name.lower().startswith("the rain") for c in cast.characters)


def test_a_quote_paragraph_ending_on_a_lead_in_hands_the_next_paragraphs_quote_over():
    # Turn-taking alone would give the next paragraph to the one who did not speak last.
    cast = _cast(_INTRO + ["“The gate is open,” said Tobias. Mrs. Penhallow looked at him; and after a while "
                           "Tobias, drawing his coat closer, said:", "“Then I shall shut it, and bring the lamp.”"])
    assert _speaker_of(cast, "Then I shall shut it") in _TOBIAS


def test_a_sentence_of_someone_going_on_right_before_a_quote_names_its_speaker():
    # "Ann began again. “…”" inside the quote's own paragraph, with no tag after the quote.
    cast = _cast(_INTRO + ["They sat a while in silence. Mrs. Penhallow began again. “The road was longer than I thought.”"])
    assert _is_penhallow(_speaker_of(cast, "The road was longer"))
    cast = _cast(_INTRO + ["Tobias said nothing for a time. Mrs. Penhallow resumed in a lower voice. “We should have waited.”"])
    assert _is_penhallow(_speaker_of(cast, "We should have waited."))


def test_a_paragraph_ending_on_someone_speaking_now_hands_them_the_next_quote():
    cast = _cast(_INTRO + ["Mrs. Penhallow, silent until then, spoke now.", "“Such things do happen.”"])
    assert _is_penhallow(_speaker_of(cast, "Such things do happen."))


def test_less_common_speech_verbs_make_an_inverted_tag():
    cast = _cast(_INTRO + ["“We aunts--” simpered Mrs. Penhallow, and then saw that she sounded foolish to them all.", "“Over here!” bawled Tobias from the far end of the yard where the carts stood."])
    said = {q.text.lstrip("“")[:8]: (q.speaker, q.method) for q in cast.quotes}
    assert _is_penhallow(said["We aunts"][0]) and said["We aunts"][1] == "explicit"  # the tag's, not the turns'
    assert said["Over her"] == ("Tobias", "explicit") or said["Over her"][0] in _TOBIAS and said["Over her"][1] == "explicit"
