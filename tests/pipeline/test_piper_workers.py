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
