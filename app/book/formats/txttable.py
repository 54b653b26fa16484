"""A table drawn with box characters in plain text, read row by row as the HTML reader reads <table>.

Text browsers and DocBook's text output draw tables as
    +------------------------+
    |package |description    |
    |--------+---------------|
    |doc-    |Debian Project |
    |debian  |documentation  |
    +------------------------+
where a cell's text wraps over the lines of its row. Read as code it would be "Code example." (or
its pipes spelled out); read row by row it is what the table says.
"""
from __future__ import annotations

import re

#: A rule between rows: "+----+----+", "|----+----|", "|====|".
_RULE = re.compile(r"^[+|][-=+|]*[-=][-=+|]*[+|]$")
#: A row line: framed by pipes, with a pipe between cells.
_ROW = re.compile(r"^\|.*\|.*\|$")
_MIN_LINES = 3


def box_table_rows(lines: list[str]) -> list[str] | None:
    """Return a box-drawn table's rows, each its cells joined ("doc-debian, I:853, Debian FAQ"), or None."""
    lines = [ln.strip() for ln in lines if ln.strip()]
    if len(lines) < _MIN_LINES or not all(_RULE.match(ln) or _ROW.match(ln) for ln in lines):
        return None
    if not any(_RULE.match(ln) for ln in lines) or not any(_ROW.match(ln) and not _RULE.match(ln) for ln in lines):
        return None
    rows: list[str] = []
    group: list[list[str]] = []
    for ln in lines + ["+-+"]:
        if _RULE.match(ln):
            if group:
                width = max(len(cells) for cells in group)
                columns = [" ".join(c[i].strip() for c in group if i < len(c) and c[i].strip()) for i in range(width)]
                row = ", ".join(c for c in columns if c)
                if row:
                    rows.append(row)
            group = []
        else:
            group.append(ln[1:-1].split("|"))
    return rows
