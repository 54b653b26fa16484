"""Process groups on Linux: is any member alive, stop them all, who holds a port or the GPU.

A managed server leads its own group; its stage processes join it. Stopping
escalates SIGINT, SIGTERM, SIGKILL with split timeouts (jupyter_client's
`_async_finish_shutdown`) and only ends when no member survives.
"""
from __future__ import annotations

import enum
import logging
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core import proc
from app.core.errors import ServerStartError

log = logging.getLogger(__name__)


class StopPath(enum.Enum):
    """Which step of a stop ended the process group (tests assert it)."""

    ALREADY_DEAD = "already dead"
    GRACEFUL = "SIGINT"
    TERMINATE = "SIGTERM"
    KILL = "SIGKILL"


@dataclass(frozen=True)
class StopTimeouts:
    """Seconds to wait after each signal before escalating."""

    graceful: float = 20.0
    terminate: float = 10.0
    kill: float = 5.0


def _stat(pid: int) -> tuple[str, int, int] | None:
    """Return (state, pgid, start ticks) of `pid` from /proc, or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()
    return fields[0], int(fields[2]), int(fields[19])


def process_start_ticks(pid: int) -> int | None:
    """Return the kernel start time of `pid`, which tells a reused pid from ours."""
    st = _stat(pid)
    return st[2] if st else None


def group_alive(pgid: int) -> bool:
    """Return whether any non-zombie process of group `pgid` survives."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if not Path("/proc/self/stat").exists():
        return True
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            # A zombie holds no memory; its parent (maybe init in a container) reaps it.
            if st and st[1] == pgid and st[0] != "Z":
                return True
    return False


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _wait_gone(pgid: int, timeout: float, popen: Any = None) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if popen is not None:
            popen.poll()  # reap our own child so it does not linger as a zombie
        if not group_alive(pgid):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def stop_group(pgid: int, *, timeouts: StopTimeouts = StopTimeouts(), popen: Any = None) -> StopPath:
    """Stop every process of group `pgid`: SIGINT, then SIGTERM, then SIGKILL; return the path."""
    if popen is not None:
        popen.poll()
    if not group_alive(pgid):
        return StopPath.ALREADY_DEAD
    for sig, wait, path in ((signal.SIGINT, timeouts.graceful, StopPath.GRACEFUL),
                            (signal.SIGTERM, timeouts.terminate, StopPath.TERMINATE),
                            (signal.SIGKILL, timeouts.kill, StopPath.KILL)):
        log.info("stopping sgl-omni group %d with %s", pgid, sig.name)
        _signal_group(pgid, sig)
        if _wait_gone(pgid, wait, popen):
            return path
    raise ServerStartError(f"Process group {pgid} survived SIGKILL",
                           hint=f"Check `ps -o pid,stat,cmd -g {pgid}` (a process stuck in the GPU driver)")


def port_holder_pids(port: int) -> set[int]:
    """Return pids of processes listening on TCP `port` (Linux /proc; empty elsewhere)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if len(cols) > 9 and cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(cols[9])
    if not inodes:
        return set()
    holders = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    holders.add(int(entry.name))
                    break
        except OSError:
            continue
    return holders


def gpu_holder_pids() -> set[int]:
    """Return pids nvidia-smi lists as GPU compute processes (empty without nvidia-smi)."""
    if shutil.which("nvidia-smi") is None:
        return set()
    try:
        done = proc.run(["nvidia-smi", "--query-compute-apps=pid", "--format=csv,noheader"], timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return set()
    if done.returncode != 0:
        return set()
    return {int(tok) for tok in done.stdout.decode(errors="replace").split() if tok.isdigit()}
