"""app/output/ sits beside audio/: it uses book and audio, never the pipeline, a backend or a face."""
from __future__ import annotations

from tests.core.test_architecture import _offenders


def test_output_uses_nothing_above_it():
    assert _offenders("output", ("app.pipeline", "app.backends", "app.cli", "app.hub", "app.convert",
                                 "app.progress", "app.core.settings")) == []
