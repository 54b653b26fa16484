"""Hidden text in a DOCX: what Word does not print is not read.

Word hides a run by its own properties (w:vanish in w:rPr) or by its style: a character style, or
the paragraph's style, with w:vanish, or a style based on one (w:basedOn). A run's own w:vanish
w:val="0" ("false", "off") shows it again. The hidden runs are removed from the parsed XML before
the body, the notes and the table cells are read, so every reader of the text sees the same thing.
"""
from __future__ import annotations

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OFF = ("0", "false", "off")


def vanish(rpr) -> bool | None:
    """True or False where run properties say hidden or shown, None where they say nothing."""
    v = rpr.find(f"{W}vanish") if rpr is not None else None
    if v is None:
        return None
    return (v.get(f"{W}val") or "true").lower() not in _OFF


def hidden_styles(styles_root) -> set[str]:
    """Return the style ids (character and paragraph) whose text is hidden, directly or by inheritance."""
    if styles_root is None:
        return set()
    based: dict[str, str] = {}
    own: dict[str, bool | None] = {}
    for st in styles_root.iter(f"{W}style"):
        sid = st.get(f"{W}styleId") or ""
        base = st.find(f"{W}basedOn")
        based[sid] = base.get(f"{W}val") or "" if base is not None else ""
        own[sid] = vanish(st.find(f"{W}rPr"))
    out: set[str] = set()
    for sid in own:
        cur, seen = sid, 0
        while cur and seen < 20:
            if own.get(cur) is not None:
                if own[cur]:
                    out.add(sid)
                break
            cur, seen = based.get(cur, ""), seen + 1
    return out


def drop_hidden_runs(root, hidden: set[str]) -> None:
    """Remove from root every run Word does not print (its own w:vanish, or its or its paragraph's style)."""
    doomed = []
    for p in root.iter(f"{W}p"):
        pstyle = p.find(f"{W}pPr/{W}pStyle")
        para_hidden = pstyle is not None and pstyle.get(f"{W}val") in hidden
        for r in p.iter(f"{W}r"):
            rpr = r.find(f"{W}rPr")
            mine = vanish(rpr)
            if mine is None:
                rstyle = rpr.find(f"{W}rStyle") if rpr is not None else None
                mine = (rstyle is not None and rstyle.get(f"{W}val") in hidden) or para_hidden
            if mine:
                doomed.append(r)
    for r in doomed:
        parent = r.getparent()
        if parent is not None:
            parent.remove(r)
