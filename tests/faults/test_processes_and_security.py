"""Faults of the managed server's process (CLI level) and the security promises."""
from __future__ import annotations

import socket
import wave
from pathlib import Path

import numpy as np
import pytest

from app.backends.sglomni import pidfiles
from app.backends.sglomni import server
from tests.sglomni.conftest import free_port

from .books import book
from .conftest import error_line, sglomni_args, venv_processes


def write_settings(home: Path, **sglomni) -> None:
    lines = ['verify = "off"', "[sglomni]"] + [f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in sglomni.items()]
    (home / "settings.toml").write_text("\n".join(lines) + "\n")


def test_port_held_by_a_foreign_process_is_its_own_message(tmp_path, cli, fault_env):
    port = free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        run = cli(*sglomni_args(book(tmp_path), tmp_path / "x.m4b", "--port", port))
        assert run.finish() == 4, run.stderr
    line = error_line(run.stderr)
    assert f"port {port}" in line.lower() or f":{port}" in line, line
    assert venv_processes(fault_env) == []


def test_a_foreign_server_with_another_model_on_the_port_is_its_own_message(tmp_path, cli, external, fault_env):
    url = external.start("qwen3_tts_0_6b_base")
    run = cli(*sglomni_args(book(tmp_path), tmp_path / "x.m4b", "--port", url.rsplit(":", 1)[1]))
    assert run.finish() == 2, run.stderr
    line = error_line(run.stderr)
    assert "not started by this tool" in line and "qwen3_tts_0_6b_base" in line, line
    assert venv_processes(fault_env) == []


def test_a_server_that_never_becomes_healthy_is_stopped_and_named(tmp_path, cli, isolated_home, fault_env):
    port = free_port()
    write_settings(isolated_home, port=port, start_timeout=3.0)
    run = cli(*sglomni_args(book(tmp_path), tmp_path / "x.m4b"), env={"SGO_DOUBLE_WARMUP": "999"})
    assert run.finish() == 4, run.stderr
    line = error_line(run.stderr)
    assert "Full log:" in line and str(port) in line, line
    assert venv_processes(fault_env) == [], "the unhealthy server was stopped"
    assert pidfiles.read_pidfile(port) is None


def test_the_managed_server_binds_loopback_only(tmp_path, cli, fault_env, fault_log):
    port = free_port()
    run = cli(*sglomni_args(book(tmp_path), tmp_path / "x.m4b", "--port", port, "--chunk-size", 12,
                            "--concurrency", 1), env={"SGO_DOUBLE_SLOW": "0.3"})
    run.wait_for(lambda: len(fault_log()) >= 1, what="the managed server answering")
    pid = pidfiles.read_pidfile(port).pid
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert argv[argv.index(b"--host") + 1] == b"127.0.0.1"
    listening = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    ours = [f[1] for f in listening if f[3] == "0A" and int(f[1].split(":")[1], 16) == port]
    assert ours == [f"0100007F:{port:04X}"], ours
    assert not any(f"{port:04X}" == f[1].split(":")[1] for f in (
        line.split() for line in Path("/proc/net/tcp6").read_text().splitlines()[1:]) if f[3] == "0A")
    run.p.terminate()
    run.finish()


def _clip(path: Path) -> Path:
    rate = 16000
    tone = (0.3 * 32767 * np.sin(2 * np.pi * 200 * np.arange(rate) / rate)).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes(tone.tobytes())
    return path


def _non_loopback_address() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent; this picks the outgoing interface
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_a_remote_server_never_receives_a_local_file_path(tmp_path, cli, external, requests_log_path):
    address = _non_loopback_address()
    if address is None:
        pytest.skip("no non-loopback interface to host a 'remote' server on")
    url = external.start(host=address)
    clip = _clip(tmp_path / "narrator.wav")
    run = cli(*sglomni_args(book(tmp_path, n_chapters=1, sentences=2), tmp_path / "x.m4b", "--api-url", url,
                            "--chunk-size", 12, "--clone", clip, "--transcription", "A short test clip."))
    assert run.finish() == 0, run.stderr
    bodies = [r for r in requests_log_path() if r["method"] == "POST"]
    assert bodies
    for r in bodies:
        text = str(r)
        assert str(tmp_path) not in text and "narrator.wav" not in text, "a local path reached the remote server"
    speech = [r["json"] for r in bodies if r["path"] == "/v1/audio/speech"]
    # The clip travels inline (a data URI) or as an uploaded voice, never as our path.
    assert speech and all(b.get("ref_audio", "data:").startswith("data:") for b in speech)
    assert all("ref_audio" in b or b.get("voice") for b in speech), "the clone reference was sent somehow"


SECRETS = ("hf_SuperSecretToken123456", "sk-abcdefSECRET987654")


@pytest.mark.slow
def test_tokens_and_api_keys_never_reach_logs_or_error_messages(tmp_path, cli, external, isolated_home, fault_env):
    env = {"HF_TOKEN": SECRETS[0], "HUGGING_FACE_HUB_TOKEN": SECRETS[0], "OPENAI_API_KEY": SECRETS[1],
           "AUDIOBOOK_DEBUG": "0"}
    url = external.start(env={"SGO_DOUBLE_FAIL": "1000"})
    secret_url = url.replace("http://", f"http://user:{SECRETS[1]}@")
    remote = cli(*sglomni_args(book(tmp_path), tmp_path / "x.m4b", "--api-url", secret_url, "--concurrency", 1),
                 env=env)
    assert remote.finish() == 4
    error_line(remote.stderr)
    managed = cli(*sglomni_args(book(tmp_path), tmp_path / "y.m4b", "--port", free_port(), "--concurrency", 1),
                  env={**env, "SGO_DOUBLE_FAIL": "1000", "SGO_DOUBLE_OOM": "1"})
    assert managed.finish() == 4
    error_line(managed.stderr)
    texts = [remote.stderr, remote.out, managed.stderr, managed.out]
    logs = [p for p in (isolated_home / "logs").rglob("*") if p.is_file()]
    assert logs, "the managed server wrote a log"
    texts += [p.read_text(errors="replace") for p in logs]
    for secret in SECRETS:
        assert not any(secret in t for t in texts), f"{secret} leaked"
