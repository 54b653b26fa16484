"""Cross-references as a printed page gives them, said as a listener can follow them.

A typeset manual points to another part of itself by number, bracketed title and page: Texinfo's
PDF prints "see Section 4.2 [Quoting Rules], page 100" where its HTML edition links "see Quoting
Rules", and 'see Section "Saving Work" in The User Guide' (another manual) where the HTML links
'see Saving Work in The User Guide'. An audiobook has no pages, and the section's number is no place the
listener can go: the title alone is what is said ("see Quoting Rules"). Only those printed shapes are changed (a word
for the part, its number, the title in brackets, ", page N"; the part's word before a title in curly
quotes and " in "), so brackets and quotes elsewhere stay as written.

A web address the typesetter broke after a dot ("https://tracker." at a line's end, "debian.org/pkg/x"
on the next) is one address again, so that it is said as one link.
"""
from __future__ import annotations

import re

#: "Section 6.11 [Title], page 100", "Chapter 10 [Title], page 45", "Appendix A [Title], page 88",
#: "Section B.1.2 [Title], page 9"; the title never holds a bracket, and runs at most a few lines.
#: A reference to an anchor or an unnumbered node has no part's word or number: "see [Title], page 36"
#: (a title with a letter in it: "[12], page 3" is a citation).
_PAGE_XREF = re.compile(
    r"(?:\b(?:Section|Chapter|Appendix|Subsection)\s+(?:[A-Z]|\d{1,3})(?:\.\d{1,3}){0,4}\s+)?"
    r"\[([^\[\]]{1,300})\],?\s+page\s+(?:\d{1,5}|[ivxlc]{1,7})\b")

#: 'Section "Title" in Another Manual': the part's word goes, the quoted title and the manual's name stay.
_MANUAL_XREF = re.compile(r"\b(?:Section|Chapter|Appendix|Subsection)\s+(?=\u201c[^\u201d]{1,300}\u201d\s+in\s)")


def spoken_xrefs(text: str) -> str:
    """Return a paragraph with each "Section N [Title], page P" said as its title alone, and each
    'Section "Title" in Manual' as '"Title" in Manual'."""
    if "\u201c" in text:
        text = _MANUAL_XREF.sub("", text)
    if "page" not in text:
        return text
    return _PAGE_XREF.sub(_title, text)


def _title(m: re.Match) -> str:
    return " ".join(m.group(1).split()) if re.search(r"[^\W\d_]", m.group(1)) else m.group(0)


#: A line ending in a web address broken after a dot or a slash, and a line opening with the rest of
#: an address (a dot or slash inside: "debian.org/pkg/x", "org.", "doc/FAQ/"), not a word ("for more").
_URL_BROKEN = re.compile(r"(?:(?:https?|ftp)://|www\.)[^\s<>\"]*[./]$", re.I)
_URL_REST = re.compile(r"^[a-z0-9][\w-]*[./]\S*", re.I)


def goes_on_address(right: str) -> bool:
    """Return whether a line opens with the rest of a web address (the line before ends in one)."""
    return bool(_URL_REST.match(right))


def ends_in_address(left: str) -> bool:
    """Return whether a line ends in a web address broken after a dot or a slash."""
    return bool(_URL_BROKEN.search(left))
