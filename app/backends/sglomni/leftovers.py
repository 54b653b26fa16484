"""Leftover hunting: a managed server (or a stage process of one) an earlier run left behind.

A stage process that survived an earlier stop keeps its GPU memory pinned and the
next boot dies with a spurious CUDA out of memory (guide section 4).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from app.core import paths
from app.backends.sglomni.pidfiles import pid_file, read_pidfile
from app.backends.sglomni.procgroup import StopPath, StopTimeouts, gpu_holder_pids, port_holder_pids, stop_group

log = logging.getLogger(__name__)


def runs_from_our_venv(pid: int, *, serving: bool = False) -> bool:
    """Return whether `pid` runs from this tool's managed venv; with `serving`, only `sgl-omni serve` itself.

    Without `serving` a server's stage processes count too (they hold the GPU memory).
    """
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return False
    venv_dir = str(paths.envs_dir() / "sglomni")
    return (not serving or "serve" in args) and any(a.startswith(venv_dir) for a in args)


def _stop_group_of(pid: int, timeouts: StopTimeouts) -> StopPath | None:
    try:
        return stop_group(os.getpgid(pid), timeouts=timeouts)
    except ProcessLookupError:
        return None


def find_leftover(port: int, *, timeouts: StopTimeouts = StopTimeouts()) -> StopPath | None:
    """Stop a leftover managed server (pid file, our process on `port` or on the GPU); return how, or None."""
    rec = read_pidfile(port)
    if rec is not None:
        pid_file(port).unlink(missing_ok=True)
        if rec.alive():
            log.warning("stopping a leftover sgl-omni (pid %d, model %s) from an earlier run", rec.pid, rec.model)
            return stop_group(rec.pgid, timeouts=timeouts)
    for pid in port_holder_pids(port):
        if runs_from_our_venv(pid, serving=True):
            log.warning("stopping a leftover sgl-omni (pid %d) still holding port %d", pid, port)
            return _stop_group_of(pid, timeouts) or StopPath.ALREADY_DEAD
    path = None
    for pid in gpu_holder_pids():
        if runs_from_our_venv(pid):
            log.warning("stopping a leftover sgl-omni process (pid %d) still holding GPU memory", pid)
            path = _stop_group_of(pid, timeouts) or path
    return path
