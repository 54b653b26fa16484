"""Which elements a reader never sees, and so a narrator never reads."""
from __future__ import annotations

import re

from lxml import etree

#: Inline styles that take an element out of the rendering.
_HIDING_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!important)?\s*(?:;|$)",
                           re.I)


def is_hidden(el: etree._Element) -> bool:
    """Return whether the element is hidden: `hidden`, `aria-hidden="true"` or an inline display:none."""
    attrib = el.attrib
    if "hidden" in attrib:
        return True
    if (attrib.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = attrib.get("style")
    return bool(style) and bool(_HIDING_STYLE.search(style))
