"""What a paragraph's end hands to the next paragraph's first quotation: a lead-in ("Hartley said:"), a closing
sentence of someone going on to speak ("Hartley, with a glance at her, went on."), the narration after a quote
paragraph's last quote. The last two reach further than a lead-in, so their speaker must be vouched for.
"""
from __future__ import annotations

from typing import Callable

from app.cast.loose import loose_tag_before
from app.cast.tags import Tag, hands_over, tag_lead_in


class HandOver:
    """The tag (or loose tag) the last paragraph handed over, taken once by the next quote paragraph."""

    def __init__(self) -> None:
        self.tag: Tag | None = None
        self.loose: Tag | None = None
        #: Found by a reach rule (a closing sentence, a quote paragraph's tail), not a lead-in of a narration.
        self.reach = False

    def note(self, text: str, known: Callable[[str], bool], quoted: bool = False) -> None:
        """Remember what text, ending a paragraph (quoted: a quote paragraph's tail), hands over."""
        self.tag = tag_lead_in(text)
        self.loose = loose_tag_before(text, known) if self.tag is None else None
        self.reach = quoted or self.tag is not None and not hands_over(text)

    def take(self, vouched: Callable[[Tag | None], bool]) -> tuple[Tag | None, Tag | None, bool]:
        """Return (tag, loose tag, whether a reach rule found them) and forget them; a reach rule's only when vouched
        says its speaker is a person by other evidence (it never makes a capitalised word a character: "by the Wye
        and said:"); the attributor checks whom the tag resolves to as well."""
        tag, loose, reach = self.tag, self.loose, self.reach
        self.tag = self.loose = None
        self.reach = False
        return (None, None, False) if reach and not vouched(tag or loose) else (tag, loose, reach)
