"""Fixtures for the fault suite: the fault double (managed or external), CLI runs, process checks."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.core import proc
from tests.sglomni.conftest import free_port
from app.backends.sglomni import pidfiles
from app.backends.sglomni import procgroup
from tests.support import install_fake_sgl_omni, processes_running_from, tone_speech_without_verification

ROOT = Path(__file__).resolve().parents[2]
DOUBLE = Path(__file__).resolve().parent / "double.py"


@pytest.fixture(autouse=True)
def fault_env(tmp_path, monkeypatch, isolated_home):
    """Install the fault double as the managed venv's `sgl-omni` and isolate the app."""
    envs = tmp_path / "envs"
    install_fake_sgl_omni(envs, DOUBLE, prelude="os.environ['SGO_DOUBLE_EXE'] = __file__\n")
    for var in [v for v in os.environ if v.startswith(("SGO_DOUBLE_", "FAULT_", "AUDIOBOOK_TEST_"))]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(envs))
    monkeypatch.setenv("AUDIOBOOK_LOGS", str(isolated_home / "logs"))
    monkeypatch.setenv("SGO_DOUBLE_RECORD", str(tmp_path / "requests.jsonl"))
    monkeypatch.setenv("FAULT_LOG", str(tmp_path / "faults.jsonl"))
    monkeypatch.setenv("SGO_DOUBLE_SPEECH", "tone")
    tone_speech_without_verification()
    yield envs
    from app.backends.sglomni import server
    pidfiles.stop_from_pidfile(timeouts=procgroup.StopTimeouts(1, 1, 2))


@pytest.fixture
def fault_log(tmp_path):
    """Return a function giving the speech requests the fault double saw: [{"n","input","seed","fault"}]."""
    def read() -> list[dict]:
        path = tmp_path / "faults.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return read


@pytest.fixture
def requests_log_path(tmp_path):
    """Return a function giving every request the double recorded (SGO_DOUBLE_RECORD)."""
    def read() -> list[dict]:
        path = tmp_path / "requests.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []
    return read


class External:
    """A fault double started by hand (as a user starts sgl-omni), on 127.0.0.1 or another address."""

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.procs: list[subprocess.Popen] = []

    def start(self, model: str = "moss_tts_local", *, env: dict | None = None, port: int | None = None,
              host: str = "127.0.0.1") -> str:
        port = port or free_port()
        log = open(self.log_dir / f"external-{port}-{len(self.procs)}.log", "wb")
        p = proc.spawn([sys.executable, str(DOUBLE), "serve", "--model-path", "some/model", "--port", str(port),
                        "--host", host, "--model-name", model], env=env, stdout=log, new_session=True)
        log.close()
        self.procs.append(p)
        url = f"http://{host}:{port}"
        from app.core.http import probe_json
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            answer = probe_json(url, "/health", timeout=1)
            if answer and answer[1] and answer[1].get("status") == "healthy":
                return url
            assert p.poll() is None, (self.log_dir / f"external-{port}-{len(self.procs) - 1}.log").read_text()
            time.sleep(0.05)
        raise RuntimeError("external double did not come up")

    def kill(self, index: int = -1) -> None:
        p = self.procs[index]
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(5)

    def close(self) -> None:
        for i in range(len(self.procs)):
            self.kill(i)


@pytest.fixture
def external(tmp_path):
    ext = External(tmp_path)
    yield ext
    ext.close()


class Cli:
    """A running `audiobook.py` process whose stderr is collected line by line."""

    def __init__(self, args: list, env: dict | None = None):
        full = dict(os.environ)
        # A CLI that hangs is dumped, every thread, by the interpreter's fault handler when finish() gives up.
        full["PYTHONFAULTHANDLER"] = "1"
        full.update(env or {})
        self.p = subprocess.Popen([sys.executable, str(ROOT / "audiobook.py"), *map(str, args)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full, cwd=ROOT)
        self.lines: list[str] = []
        self.out = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.p.stderr:
            self.lines.append(line)

    @property
    def stderr(self) -> str:
        return "".join(self.lines)

    def wait_for(self, predicate, timeout: float = 60, what: str = "condition") -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            assert self.p.poll() is None, f"CLI exited {self.p.returncode} before {what}:\n{self.stderr}"
            assert time.monotonic() < deadline, f"timed out waiting for {what}:\n{self.stderr}"
            time.sleep(0.02)

    def wait_line(self, text: str, timeout: float = 60) -> None:
        self.wait_for(lambda: text in self.stderr, timeout, repr(text))

    def signal(self, sig: int) -> None:
        self.p.send_signal(sig)

    def finish(self, timeout: float = 120) -> int:
        try:
            self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            # Say where it hangs: SIGABRT makes the fault handler print each thread's stack on stderr.
            self.p.send_signal(signal.SIGABRT)
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
            self._reader.join(5)
            raise AssertionError(f"the CLI did not exit within {timeout} s; its stderr and threads:\n"
                                 f"{self.stderr[-20000:]}") from None
        self.out = self.p.stdout.read()
        self._reader.join(5)
        return self.p.returncode


@pytest.fixture
def cli():
    started: list[Cli] = []

    def start(*args, env: dict | None = None) -> Cli:
        c = Cli(list(args), env)
        started.append(c)
        return c

    yield start
    for c in started:
        if c.p.poll() is None:
            c.p.kill()
            c.p.wait(10)


def error_line(stderr: str) -> str:
    """Return the one `error:` line of a failed run (and assert there is exactly one, no traceback)."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, stderr
    return lines[0]


def venv_processes(envs: Path) -> list[int]:
    """Return live pids whose command line runs from the throwaway managed venv."""
    return processes_running_from(envs)


def cached_chunks(home: Path) -> dict[str, float]:
    """Return {cached chunk WAV name: mtime_ns} of the app's chunk cache."""
    return {p.name: p.stat().st_mtime_ns for p in (home / "cache" / "chunks").rglob("*.wav")
            if not p.name.startswith(".")}


def sglomni_args(book: Path, out: Path, *extra) -> list:
    return [book, "--backend", "sglomni", "--model", "moss_tts_local", "--output", out, *extra]
