"""A run imports what it needs: the Piper path loads no terminal UI and no HTTP stack, and a cached
re-run of a finished book loads no voice either (issue 16 P4: start-up is most of a cached re-run).

The run happens in a real subprocess through the CLI's own entry (`app.cli.entry.main`); afterwards the
child reports which of the heavy packages are in its sys.modules. A behaviour, not a timing.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pipeline.helpers import write_txt_book

ROOT = Path(__file__).resolve().parents[2]
#: What no Piper run needs: the hub (Textual), the HTTP client, the server backend, Whisper (verification is off).
NEVER_ON_PIPER = ("textual", "httpx", "app.hub", "app.backends.sglomni", "faster_whisper", "ctranslate2")
#: What a finished book does not need besides: the voice and its runtime, synthesis and its audio checks
#: (numpy), the read-along writers, asyncio (only the web hub spawns through it).
NEVER_WHEN_CACHED = NEVER_ON_PIPER + ("piper", "onnxruntime", "app.pipeline.synthesis", "numpy", "asyncio",
                                      "app.output.epub")

PROBE = """
import json, sys
from app.cli.entry import main
code = main(sys.argv[1:])
watched = {watched!r}
print("MODULES " + json.dumps(sorted(m for m in watched if m in sys.modules)), flush=True)
sys.exit(code)
"""


def imported_during(args: list[str], watched: tuple[str, ...]) -> list[str]:
    """Run the CLI with `args` in a child and return which `watched` modules it imported."""
    result = subprocess.run([sys.executable, "-c", PROBE.format(watched=watched), *args], capture_output=True,
                            text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("MODULES "))
    return json.loads(line.removeprefix("MODULES "))


@pytest.mark.slow
def test_a_piper_run_and_its_cached_rerun_import_only_what_they_need(tmp_path, isolated_home):
    book = write_txt_book(tmp_path, {"Dawn": "The boat left at dawn.", "Dusk": "It came back at dusk."})
    args = [str(book), "--backend", "piper", "--output", str(tmp_path / "out.m4b")]
    assert imported_during(args, NEVER_ON_PIPER) == []
    assert imported_during(args, NEVER_WHEN_CACHED) == []
    # The probe can see them: a cached run that asks for the read-along EPUB does load its writer.
    assert imported_during(args + ["--format", "m4b,epub"], ("app.output.epub",)) == ["app.output.epub"]
