"""What a PDF's own text says is ordinary: its body size, line pitch and heading sizes."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Style:
    """What the document's own text says is ordinary: body size, line pitch, heading sizes."""

    body: float = 10.0
    pitch: float = 12.0
    #: Heading sizes, largest first (their rank + 1 is the heading level).
    heading_sizes: list[float] = field(default_factory=list)
    #: Whether bold sets a line apart: not when the body text itself reads as bold (a font whose
    #: descriptor claims weight for every face).
    bold_marks: bool = True


#: An OCR layer's sizes are whole points, measured from each line's picture (Tesseract): a heading
#: set 1.3 times the body's size may come out one point above it.
OCR_HEADING_STEP = 1.0


def measure(pages, ocr: bool = False) -> Style:
    """Return the body size (most text), the usual baseline pitch, and the sizes used for headings
    (`ocr`: the text is a scan's OCR layer, its sizes whole points)."""
    sizes: Counter = Counter()
    bold: Counter = Counter()
    for page in pages:
        for ln in page.lines:
            sizes[round(ln.size * 2) / 2] += len(ln.text)
            bold[(round(ln.size * 2) / 2, ln.bold)] += len(ln.text)
    if not sizes:
        return Style()
    body = sizes.most_common(1)[0][0]
    pitches: Counter = Counter()
    for page in pages:
        for a, b in zip(page.lines, page.lines[1:]):
            if abs(a.size - body) < 0.6 and abs(b.size - body) < 0.6 and a.column == b.column:
                d = b.base - a.base
                if 0 < d < body * 3:
                    pitches[round(d, 0)] += 1
    pitch = pitches.most_common(1)[0][0] if pitches else body * 1.2
    total = sum(sizes.values())
    # A heading size: clearly larger than the body, and not the text of whole pages (a title page's).
    least = min(body * 1.12, body + OCR_HEADING_STEP) if ocr else body * 1.12
    heads = sorted((s for s, n in sizes.items() if s >= least and n < total * 0.2), reverse=True)
    body_bold = bold[(body, True)] > bold[(body, False)]
    return Style(body, max(pitch, body), heads[:5], bold_marks=not body_bold)
