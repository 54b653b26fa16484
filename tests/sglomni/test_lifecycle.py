"""The managed server's life against the double launched as the real `sgl-omni` executable."""
from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path

import pytest

from app.core import proc
from app.backends.base import BackendOptions
from app.backends.sglomni import catalog, discovery, leftovers, pidfiles, policy, procgroup, server
from app.core import http as http_mod
from app.options import server_options
from app.core.settings import Settings, SglomniSettings
from app.backends.sglomni.server import ManagedServer, ServerState, StopPath, StopTimeouts
from app.core.errors import ConfigError, ServerStartError

from .conftest import free_port, resolved

MOSS = catalog.get("moss_tts_local")
FAST_STOP = StopTimeouts(graceful=1.0, terminate=1.0, kill=3.0)


def group_members(pgid: int) -> list[int]:
    """Return the live (non-zombie) pids of group `pgid`, read from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                raw = (entry / "stat").read_text()
            except OSError:
                continue
            fields = raw[raw.rindex(")") + 2:].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def test_start_ready_and_graceful_stop(requests_log):
    srv = ManagedServer(MOSS, port=free_port(), start_timeout=15, stop_timeouts=FAST_STOP)
    srv.start()
    assert srv.state is ServerState.READY
    rec = pidfiles.read_pidfile(srv.port)
    assert rec is not None and rec.pid == srv.pid and rec.pgid == srv.pid and rec.model == "moss_tts_local"
    assert Path(rec.log_path) == srv.log_path
    # The double saw the exact flags, the strict-port variable, and no leaked LD_LIBRARY_PATH.
    environ = Path(f"/proc/{srv.pid}/environ").read_bytes().split(b"\0")
    assert b"SGLANG_OMNI_STRICT_PORT=1" in environ
    assert not any(e.startswith(b"LD_LIBRARY_PATH=") for e in environ)
    cmd = Path(f"/proc/{srv.pid}/cmdline").read_bytes().decode().split("\0")
    assert cmd[cmd.index("--model-name") + 1] == "moss_tts_local"
    assert cmd[cmd.index("--host") + 1] == "127.0.0.1"
    assert requests_log("/health"), "readiness must be probed over HTTP"
    assert srv.status()["state"] == "ready"
    pgid = srv.pid
    assert srv.stop() is StopPath.GRACEFUL
    assert srv.state is ServerState.STOPPED
    assert group_members(pgid) == []
    assert pidfiles.read_pidfile(srv.port) is None


def test_illegal_transition_raises():
    srv = ManagedServer(MOSS, port=free_port())
    with pytest.raises(RuntimeError, match="cannot go from stopped to ready"):
        srv._move(ServerState.READY)


def test_crash_on_start_reports_log_tail(monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_CRASH", "3")
    srv = ManagedServer(MOSS, port=free_port(), start_timeout=15, stop_timeouts=FAST_STOP)
    t0 = time.monotonic()
    with pytest.raises(ServerStartError) as info:
        srv.start()
    assert time.monotonic() - t0 < 10, "a crash must fail fast, not wait for the timeout"
    assert "exited during boot with code 3" in info.value.message
    assert "simulated crash while loading weights" in info.value.message
    assert info.value.log_path == srv.log_path
    assert srv.state is ServerState.STOPPED


def test_slow_boot_within_timeout(monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_BOOT_DELAY", "1.0")
    monkeypatch.setenv("SGO_DOUBLE_WARMUP", "0.6")  # /health says "starting" (503) first
    srv = ManagedServer(MOSS, port=free_port(), start_timeout=10, stop_timeouts=FAST_STOP)
    t0 = time.monotonic()
    srv.start()
    assert time.monotonic() - t0 >= 1.5
    assert srv.state is ServerState.READY
    srv.stop()


def test_slow_boot_over_timeout_stops_the_process(monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_BOOT_DELAY", "30")
    srv = ManagedServer(MOSS, port=free_port(), start_timeout=1.0, stop_timeouts=FAST_STOP)
    with pytest.raises(ServerStartError, match="did not become healthy within 1 s") as info:
        srv.start()
    assert info.value.log_path == srv.log_path
    assert srv.last_stop in (StopPath.GRACEFUL, StopPath.TERMINATE)
    assert group_members(srv._pgid) == []


def test_port_collision_precheck_names_port_and_command():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        srv = ManagedServer(MOSS, port=port, start_timeout=5)
        with pytest.raises(ServerStartError) as info:
            srv.start()
        assert f"Port {port} is already in use" in info.value.message
        assert f"ss -tlnp 'sport = :{port}'" in info.value.hint
        assert srv.pid is None, "nothing may be launched onto a taken port"
    finally:
        holder.close()


def test_port_moved_in_log_aborts_boot_naming_both_ports(monkeypatch):
    # A version that ignores SGLANG_OMNI_STRICT_PORT prints upstream's lines and moves.
    monkeypatch.setenv("SGO_DOUBLE_COLLIDE", "1")
    monkeypatch.setenv("SGO_DOUBLE_IGNORE_STRICT", "1")
    port = free_port()
    srv = ManagedServer(MOSS, port=port, start_timeout=10, stop_timeouts=FAST_STOP)
    with pytest.raises(ServerStartError) as info:
        srv.start()
    log_text = srv.log_path.read_text()
    moved = int(log_text.split("Using port ")[1].split()[0])
    assert f"Port {port} is already in use on 127.0.0.1." in log_text
    assert f"Port {port} is already in use" in info.value.message
    assert f"port {moved}" in info.value.message
    assert f"ss -tlnp 'sport = :{port}'" in info.value.hint
    assert group_members(srv._pgid) == []


def test_strict_port_refusal_is_reported_as_collision(monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_COLLIDE", "1")
    port = free_port()
    srv = ManagedServer(MOSS, port=port, start_timeout=10, stop_timeouts=FAST_STOP)
    with pytest.raises(ServerStartError, match=f"Port {port} is already in use") as info:
        srv.start()
    assert "SGLANG_OMNI_STRICT_PORT=1 forbids falling back" in srv.log_path.read_text()
    assert "ss -tlnp" in info.value.hint


def test_ignore_sigterm_takes_the_sigkill_path(monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_IGNORE_SIGTERM", "1")
    srv = ManagedServer(MOSS, port=free_port(), start_timeout=10,
                        stop_timeouts=StopTimeouts(graceful=0.3, terminate=0.3, kill=3))
    srv.start()
    pgid = srv.pid
    assert srv.stop() is StopPath.KILL
    assert group_members(pgid) == []


def test_child_left_behind_is_killed_with_the_group(monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_CHILD", "1")
    srv = ManagedServer(MOSS, port=free_port(), start_timeout=10,
                        stop_timeouts=StopTimeouts(graceful=1.0, terminate=0.3, kill=3))
    srv.start()
    pgid = srv.pid
    assert len(group_members(pgid)) == 2, "the double forks a stage child into its group"
    # The parent exits on SIGINT, the stage child ignores SIGINT and SIGTERM: only SIGKILL clears it.
    assert srv.stop() is StopPath.KILL
    assert group_members(pgid) == []
    # killpg(pgid, 0) may still see the orphaned child as a zombie until init reaps it.
    assert not procgroup.group_alive(pgid)


def test_stop_tolerates_an_already_dead_server():
    srv = ManagedServer(MOSS, port=free_port(), start_timeout=10, stop_timeouts=FAST_STOP)
    srv.start()
    os.killpg(srv.pid, 9)
    time.sleep(0.2)
    assert srv.stop() is StopPath.ALREADY_DEAD
    assert srv.state is ServerState.STOPPED


_STARTER = """
import sys
from app.backends.sglomni import catalog, server
srv = server.ManagedServer(catalog.get("moss_tts_local"), port=int(sys.argv[1]), start_timeout=15)
srv.start()
print(srv.pid)
"""


def _start_in_another_process(port: int) -> int:
    done = proc.run([sys.executable, "-c", _STARTER, str(port)], env={"PYTHONPATH": None},
                    cwd=Path(__file__).resolve().parents[2], timeout=30)
    assert done.returncode == 0, done.stdout.decode()
    return int(done.stdout.decode().split()[-1])


def test_pidfile_lets_a_new_process_stop_the_server():
    port = free_port()
    pid = _start_in_another_process(port)  # that process has exited; the server lives on
    rec = pidfiles.read_pidfile(port)
    assert rec is not None and rec.pid == pid and rec.alive()
    listed = discovery.status(port)
    assert listed[0]["state"] == "ready" and listed[0]["model"] == "moss_tts_local"
    assert pidfiles.stop_from_pidfile(port, timeouts=FAST_STOP) == [StopPath.GRACEFUL]
    assert group_members(pid) == []
    assert pidfiles.read_pidfile(port) is None


def test_leftover_found_by_pidfile_is_stopped_before_a_start():
    port = free_port()
    old = _start_in_another_process(port)
    srv = ManagedServer(MOSS, port=port, start_timeout=15, stop_timeouts=FAST_STOP)
    assert leftovers.find_leftover(port, timeouts=FAST_STOP) is StopPath.GRACEFUL
    srv.start()
    assert srv.pid != old and group_members(old) == []
    srv.stop()


def test_leftover_found_by_port_holder_without_pidfile():
    port = free_port()
    old = _start_in_another_process(port)
    pidfiles.pid_file(port).unlink()  # e.g. the pid file was lost
    assert old in procgroup.port_holder_pids(port)
    assert leftovers.runs_from_our_venv(old, serving=True)
    assert leftovers.find_leftover(port, timeouts=FAST_STOP) is StopPath.GRACEFUL
    assert group_members(old) == []


def test_a_foreign_holder_is_not_touched(external_double):
    url = external_double("someone_elses")
    port = int(url.rsplit(":", 1)[1])
    assert leftovers.find_leftover(port) is None
    assert http_mod.probe_json(url, "/health")[1]["status"] == "healthy"


# --- the policy -----------------------------------------------------------------------------

def test_policy_boots_converts_and_stops_what_it_started(settings):
    handle = policy.ensure_server(MOSS, resolved(BackendOptions(model="moss_tts_local"), settings))
    assert handle.started_by_us and handle.server.state is ServerState.READY
    pgid = handle.server.pid
    assert handle.stop() is StopPath.GRACEFUL
    assert group_members(pgid) == []


def test_policy_uses_a_healthy_server_with_this_model_as_is(settings, external_double):
    url = external_double("moss_tts_local", port=settings.sglomni.port)
    handle = policy.ensure_server(MOSS, resolved(BackendOptions(model="moss_tts_local"), settings))
    assert handle.base_url == url and not handle.started_by_us
    assert handle.stop() is None
    assert http_mod.probe_json(url, "/health")[1]["status"] == "healthy", "left running"


def test_policy_refuses_a_foreign_server_with_another_model(settings, external_double):
    url = external_double("voxtral_tts", port=settings.sglomni.port)
    with pytest.raises(ConfigError) as info:
        policy.ensure_server(MOSS, resolved(BackendOptions(model="moss_tts_local"), settings))
    assert "voxtral_tts" in info.value.message and "moss_tts_local" in info.value.message
    assert f"--api-url {url}" in info.value.hint


def test_policy_restarts_our_server_hosting_another_model(settings):
    port = settings.sglomni.port
    old = server.ManagedServer(catalog.get("voxtral_tts"), port=port, start_timeout=15)
    old.start()
    old_pid = old.pid
    handle = policy.ensure_server(MOSS, resolved(BackendOptions(model="moss_tts_local"), settings))
    assert handle.started_by_us and group_members(old_pid) == []
    assert discovery.hosted_models(handle.base_url)[0] == "moss_tts_local"
    assert json.loads(pidfiles.pid_file(port).read_text())["model"] == "moss_tts_local"
    handle.stop()


def test_api_url_with_another_catalog_model_is_refused(external_double, settings):
    url = external_double("voxtral_tts")
    with pytest.raises(ConfigError, match="hosts 'voxtral_tts', not 'moss_tts_local'"):
        policy.ensure_server(MOSS, resolved(BackendOptions(model="moss_tts_local", api_urls=(url,)), settings))


def test_serve_argv_only_uses_flags_of_the_real_cli():
    """Every flag serve_argv emits is declared by sglang-omni 0.1.9's cli/serve.py (read by AST)."""
    import ast
    from tests.support import sglang_omni_source
    root = sglang_omni_source()
    if root is None:
        pytest.skip("sglang-omni 0.1.9's source is not on this machine (bash tests/conformance/env.sh)")
    tree = ast.parse((root / "sglang_omni" / "cli/serve.py").read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "serve")
    declared = set()
    for arg in fn.args.args[1:]:
        declared.add("--" + arg.arg.replace("_", "-"))
        for node in ast.walk(arg.annotation):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("--"):
                declared.add(node.value)
    argv = server.serve_argv("/x/sgl-omni", MOSS, config=Path("/c.yaml"), port=8100, host="127.0.0.1",
                             model_name="moss_tts_local")
    assert argv[1] == "serve"
    used = {a for a in argv if a.startswith("--")}
    assert used == {"--model-path", "--config", "--port", "--host", "--model-name"}
    assert used <= declared


def test_zonos2_without_fp8_gpu_launches_the_bf16_fallback_and_says_so():
    srv = ManagedServer(catalog.get("zonos2"), port=free_port(), start_timeout=15, stop_timeouts=FAST_STOP)
    assert srv.label == "zonos2 (bf16 fallback)"  # no nvidia-smi here: capability unknown
    srv.start()
    cmd = Path(f"/proc/{srv.pid}/cmdline").read_bytes().decode().split("\0")
    assert Path(cmd[cmd.index("--config") + 1]).name == catalog.get("zonos2").fallback_config_file
    assert srv.status()["label"] == "zonos2 (bf16 fallback)"
    assert discovery.status(srv.port)[0]["label"] == "zonos2 (bf16 fallback)"
    srv.stop()


def test_stop_model_stops_only_servers_hosting_that_model():
    a = ManagedServer(MOSS, port=free_port(), start_timeout=15, stop_timeouts=FAST_STOP)
    b = ManagedServer(catalog.get("voxtral_tts"), port=free_port(), start_timeout=15, stop_timeouts=FAST_STOP)
    a.start()
    b.start()
    assert pidfiles.stop_model("voxtral_tts", timeouts=FAST_STOP) == [StopPath.GRACEFUL]
    assert group_members(b.pid) == [] and group_members(a.pid) != []
    a.stop()


def test_settings_profile_applies_only_to_models_that_have_it():
    in_settings = server_options(Settings(sglomni=SglomniSettings(profile="throughput")))
    assert in_settings.source("profile") == "settings.toml"
    assert server.pick_profile(MOSS, in_settings) == "throughput"
    assert server.pick_profile(catalog.get("voxtral_tts"), in_settings) is None
    passed = server_options(Settings(), profile="throughput")
    assert passed.source("profile") == "command line"
    assert server.pick_profile(MOSS, passed) == "throughput"
    assert server.pick_profile(catalog.get("voxtral_tts"), passed) == "throughput"  # a demand: the boot says no


def test_leftover_stage_process_holding_the_gpu_is_stopped(monkeypatch, tmp_path):
    """A stage child that outlived its server (no pid file, no port) is found through nvidia-smi."""
    monkeypatch.setenv("SGO_DOUBLE_CHILD", "1")
    port = free_port()
    srv = ManagedServer(MOSS, port=port, start_timeout=15, stop_timeouts=FAST_STOP)
    srv.start()
    pgid = srv.pid
    child = next(p for p in group_members(pgid) if p != pgid)
    os.kill(srv.pid, 9)  # kill -9 of the parent only: the guide's stopping gotcha
    srv._popen.wait(5)
    pidfiles.pid_file(port).unlink()
    assert group_members(pgid) == [child]
    fake_bin = tmp_path / "fakebin"
    fake_bin.mkdir()
    smi = fake_bin / "nvidia-smi"
    smi.write_text(f'#!/bin/sh\ncase "$1" in --query-compute-apps=*) echo {child};; *) exit 1;; esac\n')
    smi.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake_bin}:{os.environ['PATH']}")
    assert leftovers.find_leftover(port, timeouts=FAST_STOP) is StopPath.KILL
    assert group_members(pgid) == []
