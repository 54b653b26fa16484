"""The embedded voice's workers: one single-thread synthesis per core by default (issue 16, P5).

Each case runs in its own process pinned to a set of cores, because the choice reads the
process's CPU affinity and onnxruntime fixes its threads when the session is made.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.pipeline.helpers import ROOT_HINT

_PROBE = """
import json, os, sys
os.sched_setaffinity(0, set(json.loads(sys.argv[1])))
from app.backends import BackendOptions, create_backend
concurrency = json.loads(sys.argv[2])
backend = create_backend("piper", BackendOptions(concurrency=concurrency))
backend.start()
options = backend._voice.session.get_session_options()
print(json.dumps([backend.concurrency, options.intra_op_num_threads]))
"""


def _probe(cores: list[int], concurrency: int | None) -> list[int]:
    out = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(cores), json.dumps(concurrency)],
                         cwd=ROOT_HINT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to pin to")
def test_one_single_thread_synthesis_per_core_unless_pinned():
    two = sorted(os.sched_getaffinity(0))[:2]
    assert _probe(two, None) == [2, 1]  # two workers, one thread each
    assert _probe(two[:1], None) == [1, 1]  # one core: one worker
    assert _probe(two, 1) == [1, 2]  # --concurrency 1: the one synthesis gets both cores


_LOADS = """
import json, sys, threading
from app.backends.piper import backend
built = []
load = backend._load_voice
def recording(path, threads):
    built.append(threading.current_thread().name)
    return load(path, threads)
backend._load_voice = recording
from app.cli.entry import main
code = main(sys.argv[1:])
print("BUILT " + json.dumps(built), flush=True)
sys.exit(code)
"""


def _voices_built(args: list[str]) -> list[str]:
    """Run the CLI in a child and return the thread that built each Piper voice."""
    out = subprocess.run([sys.executable, "-c", _LOADS, *args], cwd=ROOT_HINT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(next(s for s in out.stdout.splitlines() if s.startswith("BUILT ")).removeprefix("BUILT "))


@pytest.mark.slow
def test_a_new_book_loads_its_voice_while_it_is_planned_and_only_once(tmp_path, isolated_home):
    from tests.pipeline.helpers import write_txt_book

    book = write_txt_book(tmp_path, {"Dawn": "The boat left at dawn.", "Dusk": "It came back at dusk."})
    out = tmp_path / "out.m4b"
    # Never started here: the voice is built on the warm-up thread, beside the reading and planning,
    # and the run takes that one (not a second copy).
    assert _voices_built([str(book), "--backend", "piper", "--output", str(out)]) == ["piper-warm"]
    # Every chapter encoded: the re-run builds no voice at all (issue 16 P4).
    assert _voices_built([str(book), "--backend", "piper", "--output", str(out)]) == []
    # Started before (its work folder is there) but with chunks to render: built once, when the run starts.
    book.write_text(book.read_text(encoding="utf-8") + "\n\nLate\n\nThe tide turned.\n", encoding="utf-8")
    assert _voices_built([str(book), "--backend", "piper", "--output", str(out)]) == ["MainThread"]
