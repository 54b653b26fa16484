"""Start the real sglang-omni HTTP stack (CPU coordinator) and its router for the app's tests.

Runs in the app's dev venv. Servers are real processes of the conformance venv's
interpreter, in their own process groups, bound to 127.0.0.1.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ENV_SCRIPT = HERE / "env.sh"
CPU_SERVER = HERE / "cpu_server.py"
PROBE = HERE / "probe.py"
BOOT_TIMEOUT = 120.0


def locate_env(*, build: bool) -> Path | None:
    """Return the conformance venv, building it when `build`; None when absent and not building."""
    argv = ["bash", str(ENV_SCRIPT)] + ([] if build else ["--check"])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=1800)
    if done.returncode == 3 and not build:
        return None
    if done.returncode != 0:
        raise RuntimeError(f"{ENV_SCRIPT} failed ({done.returncode}): {done.stderr[-2000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def free_port() -> int:
    """Return a port nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def probe(python: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    """Run probe.py in the conformance venv and return its JSON."""
    done = subprocess.run([str(python), str(PROBE), *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})
    if done.returncode != 0:
        raise RuntimeError(f"probe {args[0]} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def stub_checkpoint_metadata(hf_home: Path, repo: str, files: dict[str, Any]) -> None:
    """Put a model's metadata files (never weights) into a Hugging Face cache, as a download would."""
    commit = "0" * 40
    repo_dir = Path(hf_home) / "hub" / ("models--" + repo.replace("/", "--"))
    snapshot = repo_dir / "snapshots" / commit
    snapshot.mkdir(parents=True, exist_ok=True)
    (repo_dir / "refs").mkdir(exist_ok=True)
    (repo_dir / "refs" / "main").write_text(commit)
    for name, content in files.items():
        (snapshot / name).write_text(json.dumps(content) if not isinstance(content, str) else content)


def qwen3_checkpoint_config(kind: str, speakers: tuple[str, ...] = ()) -> dict[str, Any]:
    """Return the config.json fields sglang-omni's Qwen3TTSPipelineConfig reads (tts_model_type, spk_id)."""
    kind_key = {"Base": "base", "CustomVoice": "custom_voice", "VoiceDesign": "voice_design"}[kind]
    config: dict[str, Any] = {"tts_model_type": kind_key}
    if speakers:
        config["talker_config"] = {"spk_id": {name: 3000 + i for i, name in enumerate(speakers)}}
    return config


def wait_healthy(url: str, proc: subprocess.Popen, log_path: Path, timeout: float = BOOT_TIMEOUT) -> None:
    """Return once GET /health says healthy; raise with the log tail if the process dies or stalls."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {log_path.read_text()[-3000:]}")
        try:
            r = httpx.get(url + "/health", timeout=2.0, trust_env=False)
            if r.status_code == 200 and r.json().get("status") == "healthy":
                return
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"server at {url} not healthy after {timeout:.0f}s: {log_path.read_text()[-3000:]}")


def stop_group(proc: subprocess.Popen, timeout: float = 15.0) -> None:
    """Stop a process started in its own session, and everything in its group."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


@dataclass
class CpuServer:
    """One `sgl-omni serve` (upstream's CLI, launcher and app; Piper pipeline) on 127.0.0.1."""

    python: Path
    workdir: Path
    config: Path | None
    model_path: str
    model_name: str
    env: dict[str, str] = field(default_factory=dict)
    extra_args: tuple[str, ...] = ()
    port: int = 0
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def record_path(self) -> Path:
        return self.workdir / f"record-{self.model_name}-{self.port}.jsonl"

    @property
    def log_path(self) -> Path:
        return self.workdir / f"server-{self.model_name}-{self.port}.log"

    def argv(self) -> list[str]:
        argv = [str(self.python), str(CPU_SERVER), "serve", "--model-path", self.model_path]
        if self.config is not None:
            argv += ["--config", str(self.config)]
        return argv + ["--port", str(self.port), "--host", "127.0.0.1",
                       "--model-name", self.model_name, *self.extra_args]

    def start(self) -> "CpuServer":
        self.port = self.port or free_port()
        self.workdir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **server_env(self.workdir), "CONFORMANCE_RECORD": str(self.record_path), **self.env}
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(self.argv(), stdout=log, stderr=subprocess.STDOUT, env=env,
                                         cwd=self.workdir, start_new_session=True)
        return self

    def wait(self) -> "CpuServer":
        wait_healthy(self.url, self.proc, self.log_path)
        return self

    def stop(self) -> None:
        if self.proc is not None:
            stop_group(self.proc)

    def records(self) -> list[dict[str, Any]]:
        """Return what the pipeline received, one dict per request, oldest first."""
        if not self.record_path.exists():
            return []
        return [json.loads(line) for line in self.record_path.read_text().splitlines() if line.strip()]


def server_env(workdir: Path) -> dict[str, str]:
    """Return the environment that keeps a server's caches and uploads inside `workdir`."""
    return {
        "HF_HOME": str(workdir / "hf"),
        "HF_HUB_OFFLINE": "1",
        "SPEAKER_SAMPLES_DIR": str(workdir / "speakers"),
        "PYTHONUNBUFFERED": "1",
        "NO_PROXY": "127.0.0.1,localhost",
    }


@dataclass
class Router:
    """sglang-omni's own router (`sgl-omni-router-py`) in front of workers."""

    venv: Path
    workdir: Path
    workers: list[str]
    port: int = 0
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Router":
        self.port = self.port or free_port()
        log_path = self.workdir / f"router-{self.port}.log"
        argv = [str(self.venv / "bin" / "sgl-omni-router-py"), "--host", "127.0.0.1", "--port", str(self.port),
                "--worker-urls", *self.workers, "--health-check-interval-secs", "1",
                "--health-success-threshold", "1"]
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir,
                                         env={**os.environ, "NO_PROXY": "127.0.0.1,localhost"},
                                         start_new_session=True)
        deadline = time.monotonic() + BOOT_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"router exited: {log_path.read_text()[-3000:]}")
            try:
                body = httpx.get(self.url + "/health", timeout=2.0, trust_env=False).json()
                if body.get("routable_workers") == len(self.workers):
                    return self
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"router never saw its workers healthy: {log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc is not None:
            stop_group(self.proc)


def make_fake_managed_venv(envs_dir: Path, python: Path, *, extra_env: dict[str, str] | None = None) -> Path:
    """Lay out $AUDIOBOOK_ENVS/sglomni so the app's lifecycle code launches the CPU server as sgl-omni."""
    venv = Path(envs_dir) / "sglomni"
    bin_dir = venv / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    py_link = bin_dir / "python"
    if not py_link.exists():
        py_link.symlink_to(python)
    exe = bin_dir / "sgl-omni"
    exports = "".join(f"export {k}={json.dumps(v)}\n" for k, v in (extra_env or {}).items())
    # A shell script, not a symlink: the app must see a path inside its venv on the command line.
    exe.write_text(f"#!/bin/sh\n{exports}exec {python} {CPU_SERVER} \"$@\"\n")
    exe.chmod(0o755)
    (venv / ".audiobook-provisioned").write_text("conformance\n")
    return venv
