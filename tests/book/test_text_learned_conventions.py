"""Plain-text conventions of the fifth round (invented text): a volume's title page is no chapter; the
shipped heading model loads and reviews the rules' choice without a library."""
from __future__ import annotations

from app.book.structure.headings import mark_headings, rule_headings
from app.book.structure.learned import load_model, review
from app.book.structure.lines import paragraphs

_PROSE = ("The heron stood in the shallows of the grey river and watched the water run past the reeds "
          "for a long while before it moved again.\n") * 3


def _book() -> str:
    parts = []
    for vol in ("I", "II"):
        parts.append(f"VOL. {vol}.\n\n\n\nLondon:\nPrinted for the Heron Press,\n1820.\n\n\n")
        for ch in ("I", "II", "III"):
            parts.append(f"CHAPTER {ch}.\n\n\n{_PROSE}\n\n")
    return "\n".join(parts)


def test_volume_title_page_between_label_and_first_chapter_is_no_chapter():
    marked = mark_headings(_book())
    heads = [ln for ln in marked.split("\n") if ln.startswith("# ")]
    assert len(heads) == 6, heads
    assert all("Chapter" in h for h in heads), heads


def test_shipped_heading_model_reviews_the_rules_choice():
    model = load_model()
    assert model is not None and model["trees"], "the shipped heading_model.json fits learned.FEATURES"
    paras = paragraphs(_book().split("\n"))
    rules = rule_headings(paras)
    chosen = review(paras, rules, model)
    assert len(chosen) >= 2
    assert all(paras[c.para].text.strip() for c in chosen)


def test_book_level_pass_drops_a_pick_set_unlike_the_book_s_headings():
    # Five headings set alike ("CHAPTER N." after three blank lines) and one stray short line the model
    # might pick (a signature after one blank line, in mixed case): the pass keeps the five, drops it.
    from app.book.structure.learned import RuleVerdict, consistent
    from app.book.structure.lines import Heading
    chapters = "".join(f"\n\n\nCHAPTER {r}.\n\n\n{_PROSE}" for r in ("I", "II", "III", "IV", "V"))
    paras = paragraphs((chapters + "\nYours ever, Odo\n\n" + _PROSE).split("\n"))
    heads = [j for j, p in enumerate(paras) if p.text.startswith("CHAPTER")]
    stray = next(j for j, p in enumerate(paras) if p.text.startswith("Yours"))
    picks = [Heading(j, "chapter", "chapter", n + 1, paras[j].text) for n, j in enumerate(heads)]
    picks.append(Heading(stray, "named", "", None, paras[stray].text))
    none = RuleVerdict(0, 0, [], [], [], False)
    assert [c.para for c in consistent(paras, picks, none)] == heads


def _stray_model(margin: float | None) -> dict:
    # One tree: a line the rules chose is a heading (p 0.99); any other short line a little more likely one
    # than not (p 0.6), so the review picks the stray signature too.
    from app.book.structure.learned import FEATURES
    at = FEATURES.index("rule_chosen")
    tree = {"feature": [at, -1, -1], "threshold": [0.5, 0.0, 0.0], "left": [1, -1, -1], "right": [2, -1, -1],
            "value": [0.0, 0.405465, 4.59512]}
    model = {"features": list(FEATURES), "bias": 0.0, "rate": 1.0, "trees": [tree],
             "rules_stand": False, "add": 0.5, "drop": 0.5}
    return model if margin is None else {**model, "margin": margin}


def test_book_level_margin_keeps_the_rules_set_where_the_model_is_barely_surer():
    # Five "CHAPTER N." headings the rules choose and a signature the model holds a heading at p 0.6: the
    # model's six are likelier than the rules' five by log(0.6/0.4) = 0.41 only, under a margin of 2, so the
    # rules' five stand; with no margin the model's six replace them.
    chapters = "".join(f"\n\n\nCHAPTER {r}.\n\n\n{_PROSE}" for r in ("I", "II", "III", "IV", "V"))
    paras = paragraphs((chapters + "\nYours ever, Odo\n\n" + _PROSE).split("\n"))
    rules = rule_headings(paras)
    heads = [j for j, p in enumerate(paras) if p.text.startswith("CHAPTER")]
    assert [c.para for c in rules.chosen] == heads
    assert len(review(paras, rules, _stray_model(None))) == 6
    assert [c.para for c in review(paras, rules, _stray_model(2.0))] == heads
    assert len(review(paras, rules, _stray_model(0.2))) == 6
