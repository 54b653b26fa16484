"""The fetched corpus's ground truth (tests/literature/fetched/truth.py) on invented HTML: round html21's rules.

The truth is the scorer's, not the app's; each test names the HTML convention it reads."""
from __future__ import annotations

from tests.literature.fetched.truth import gutenberg_truth

_PROSE = "<p>" + "The wheel turned all day by the weir and the miller counted the sacks. " * 6 + "</p>"


def _truth(tmp_path, body: str):
    path = tmp_path / "book.html"
    path.write_text("<html><body><p>*** START OF THE PROJECT GUTENBERG EBOOK TESTS ***</p>"
                    f"{body}<p>*** END OF THE PROJECT GUTENBERG EBOOK TESTS ***</p></body></html>", encoding="utf-8")
    return gutenberg_truth(path)


def _contents(ids: list[tuple[str, str]], tag: str = "h2") -> str:
    return f"<{tag}>CONTENTS</{tag}>" + "".join(f'<p><a href="#{i}">{t}</a></p>' for i, t in ids)


def test_a_notes_anchor_set_in_a_heading_is_no_word_of_its_title(tmp_path):
    heads = [("c1", "THE WEIR"), ("c2", "THE MILL"), ("c3", "THE FERRY")]
    body = "".join(f'<h2 id="{i}">{t}<a class="fnanchor" href="#Footnote_{n}">{n}</a></h2>{_PROSE}'
                   for n, (i, t) in enumerate(heads, 1))
    truth = _truth(tmp_path, _contents(heads, "p") + body)
    assert truth.chapters == ["THE WEIR", "THE MILL", "THE FERRY"]


def test_a_superscript_of_letters_in_a_heading_is_kept_and_a_numbered_one_dropped(tmp_path):
    heads = [("c1", "Morning Aug<sup>st</sup> 6"), ("c2", "Noon Aug<sup>st</sup> 7<sup>2</sup>"),
             ("c3", "Evening Aug<sup>st</sup> 10")]
    body = "".join(f'<h2 id="{i}">{t}</h2>{_PROSE}' for i, t in heads)
    truth = _truth(tmp_path, _contents(heads) + body)
    assert truth.chapters == ["Morning Augst 6", "Noon Augst 7", "Evening Augst 10"]


def test_a_contents_target_standing_before_a_half_title_names_the_heading_after_it(tmp_path):
    # The first poem's anchor stands in a paragraph of its own over the half-title and the first part's label;
    # the poem's heading carries no id of its own, and the contents' title is no heading.
    poems = [("lantern", "THE LANTERN"), ("wheel", "THE WHEEL"), ("geese", "THE GEESE"), ("frost", "THE FROST")]
    body = ('<p><a id="lantern"></a></p><p>THE MILL POEMS</p><h2>PART ONE</h2><h3>THE LANTERN</h3>' + _PROSE
            + "".join(f'<h3 id="{i}">{t}</h3>{_PROSE}' for i, t in poems[1:]))
    truth = _truth(tmp_path, _contents(poems, "p") + body)
    assert truth.chapters == ["THE LANTERN", "THE WHEEL", "THE GEESE", "THE FROST"]


def test_an_anchor_inside_a_paragraph_names_no_heading_after_it(tmp_path):
    # A note's back-link target in running text, a few words before an unlisted heading: the heading stays
    # unlisted (a title page's line before the listed chapters is left out as before).
    heads = [("c1", "THE WEIR"), ("c2", "THE MILL"), ("c3", "THE FERRY")]
    body = ('<h2>ANN LEE</h2><p>Her book, <a id="cite1"></a><a href="#n1">[1]</a> printed.</p>'
            + "".join(f'<h2 id="{i}">{t}</h2>{_PROSE}' for i, t in heads) + '<p><a href="#cite1">back</a></p>')
    truth = _truth(tmp_path, _contents(heads, "p") + body)
    assert truth.chapters == ["THE WEIR", "THE MILL", "THE FERRY"]


def test_a_matter_heading_with_a_bracketed_qualifier_is_still_matter(tmp_path):
    # Round txt26: "LIST OF ILLUSTRATIONS. [Drawn by ...]" and "List of Pictures (large)" name the apparatus.
    heads = [("c1", "THE WEIR"), ("c2", "THE MILL"), ("c3", "THE FERRY")]
    body = ("".join(f'<h2 id="{i}">{t}</h2>{_PROSE * 2}' for i, t in heads)
            + '<h2>LIST OF ILLUSTRATIONS. [Drawn by Ann Lee.]</h2>' + _PROSE + "<h2>List of Pictures (large)</h2>" + _PROSE)
    truth = _truth(tmp_path, _contents(heads, "p") + body)
    assert truth.chapters == ["THE WEIR", "THE MILL", "THE FERRY"]


def test_a_publishers_catalogue_in_several_sections_ends_the_book(tmp_path):
    # Round txt26: "MESSRS. LEE'S PUBLICATIONS." then sections whose headings name no list ("Popular Fiction.");
    # every short section from the catalogue's heading on is the catalogue's. A chapter of the book's own
    # whose heading names stories ("STORIES OF THE FERRY") before it stays a chapter.
    heads = [("c1", "THE WEIR"), ("c2", "STORIES OF THE FERRY"), ("c3", "THE MILL"), ("c4", "THE FROST")]
    body = "".join(f'<h2 id="{i}">{t}</h2>{_PROSE * 4}' for i, t in heads)
    lists = ("<h2>MESSRS. LEE'S PUBLICATIONS.</h2>" + _PROSE + "<h2>Popular Fiction.</h2>" + _PROSE
             + "<h2>Tales for the Young.</h2>" + _PROSE)
    truth = _truth(tmp_path, _contents(heads, "p") + body + lists)
    assert truth.chapters == ["THE WEIR", "STORIES OF THE FERRY", "THE MILL", "THE FROST"]


def test_a_pictures_caption_set_in_a_heading_is_no_word_of_its_title(tmp_path):
    # Round html29: the chapter's picture and its caption set inside the <h2> over "CHAPTER II".
    heads = [("c1", "CHAPTER I"), ("c2", "CHAPTER II"), ("c3", "CHAPTER III")]
    body = "".join(f'<h2 id="{i}"><img src="p{i}.jpg" alt=""/><br/><span class="caption">THE MILL AT DUSK</span>'
                   f"<br/>{t}</h2>{_PROSE}" if i == "c2" else f'<h2 id="{i}">{t}</h2>{_PROSE}' for i, t in heads)
    truth = _truth(tmp_path, _contents(heads) + body)
    assert truth.chapters == ["CHAPTER I", "CHAPTER II", "CHAPTER III"]
