"""Every hostile file ends well: one line and exit 2, or a reading with nothing dropped.

Each case (tests/hostile/cases.py, written at test time) goes through the real CLI,
`audiobook.py FILE --export-text out.md`, as a subprocess under RLIMIT_AS = MEMORY_BYTES and a
wall-clock bound of SECONDS: a runaway fails its case instead of the machine. The bounds are the
README's promise at the default settings. The cases run three at a time (they are small files,
each mostly the interpreter starting).

In every case: no traceback, no "This is a bug", no process killed by a signal, no library
WARNING on the terminal, nothing written beside the book or in the working folder but the
export, and nothing of a local file (an external entity) in the text.
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hostile.cases import CASES, Case

ROOT = Path(__file__).resolve().parents[2]
#: The README's bound of one book at the default settings.
SECONDS = 60.0
MEMORY_BYTES = 1024 * 1024 * 1024
WORKERS = 3


@dataclass
class Outcome:
    code: int
    stderr: str
    export: str
    seconds: float
    left_behind: list[str]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _run(case: Case, folder: Path) -> Outcome:
    books, work = folder / "book", folder / "work"
    books.mkdir(parents=True)
    work.mkdir()
    path = case.build(books)
    before = sorted(p.name for p in books.iterdir())
    out = work / "out.md"
    env = {**os.environ, **case.env}
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, str(ROOT / "audiobook.py"), str(path), "--export-text", str(out)],
                              capture_output=True, text=True, timeout=SECONDS + 15, env=env, cwd=work,
                              preexec_fn=_limit_memory)
        code, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as exc:
        code, stderr = -999, f"still running after {SECONDS + 15:.0f} s\n{exc.stderr or ''}"
    seconds = time.monotonic() - started
    export = out.read_text(encoding="utf-8") if out.exists() else ""
    left = [p.name for p in work.iterdir() if p != out] + \
        [name for name in sorted(p.name for p in books.iterdir()) if name not in before]
    return Outcome(code, stderr, export, seconds, left)


@pytest.fixture(scope="module")
def outcomes(request, tmp_path_factory) -> dict[str, Outcome]:
    """Run the selected cases, WORKERS at a time; return {case id: outcome}."""
    wanted = {item.callspec.params["case"].id for item in request.session.items
              if item.module.__name__ == __name__ and hasattr(item, "callspec")}
    chosen = [c for c in CASES if c.id in wanted]
    base = tmp_path_factory.mktemp("hostile")
    with ThreadPoolExecutor(WORKERS) as pool:
        futures = {c.id: pool.submit(_run, c, base / c.id) for c in chosen}
        return {key: f.result() for key, f in futures.items()}


def _one_line(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hostile_file_ends_in_one_line_or_a_whole_reading(case: Case, outcomes):
    got = outcomes[case.id]
    lines = _one_line(got.stderr)
    assert got.code != -999, f"{case.id}: {got.stderr}"
    assert got.code >= 0, f"{case.id}: killed by signal {-got.code}: {got.stderr}"
    assert "Traceback" not in got.stderr and "This is a bug" not in got.stderr, got.stderr
    assert not [ln for ln in lines if re.match(r"WARNING (?!app\b)", ln)], f"a library warning on the terminal: {lines}"
    assert got.seconds <= SECONDS, f"{case.id} took {got.seconds:.1f} s"
    assert got.left_behind == [], f"written outside the output: {got.left_behind}"
    allowed = {"read": (0,), "refuse": (2,), "either": (0, 2)}[case.outcome]
    assert got.code in allowed, f"{case.id}: exit {got.code}, expected {allowed}: {got.stderr}"
    if got.code == 2:
        errors = [ln for ln in lines if ln.startswith("error:")]
        assert len(errors) == 1 and len(lines) == 1, f"not one line: {lines}"
        assert re.search(case.refuse or ".", errors[0]), f"{case.id}: the line does not name the problem: {errors[0]}"
    else:
        missing = [w for w in case.words if w not in got.export]
        assert not missing, f"{case.id}: read with {missing} dropped (stderr: {got.stderr[-500:]})"
    for secret in case.absent:
        assert secret not in got.export, f"{case.id}: {secret!r} reached the text"
