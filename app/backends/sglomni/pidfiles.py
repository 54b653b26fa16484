"""Pid files: how a later command finds and stops a server this tool started.

One JSON record per managed port in paths.run_dir(), written atomically
(app.core.files) so a reader never sees half a record.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from app.core import paths
from app.backends.sglomni.procgroup import StopPath, StopTimeouts, group_alive, process_start_ticks, stop_group
from app.core.files import write_bytes_atomic


@dataclass
class PidRecord:
    """What a later command needs to find and stop a server this tool started."""

    pid: int
    pgid: int
    port: int
    model: str
    started_at: float
    log_path: str
    host: str = "127.0.0.1"
    label: str = ""
    proc_start: int | None = None

    def alive(self) -> bool:
        """Return whether the recorded process still runs and is the one we started."""
        ticks = process_start_ticks(self.pid)
        if self.proc_start is not None and ticks is not None and ticks != self.proc_start:
            return False  # the pid was reused; Linux never reuses a pid while its group lives
        return group_alive(self.pgid)


def pid_file(port: int) -> Path:
    """Return the pid file of the managed server on `port`."""
    return paths.run_dir() / f"sglomni-{port}.json"


def write_pidfile(rec: PidRecord) -> Path:
    """Write `rec` atomically and return its path."""
    path = pid_file(rec.port)
    write_bytes_atomic(path, json.dumps(asdict(rec), indent=1).encode("utf-8"))
    return path


def _read(path: Path) -> PidRecord | None:
    try:
        return PidRecord(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def read_pidfile(port: int) -> PidRecord | None:
    """Return the record for `port`, or None when there is none or it is unreadable."""
    return _read(pid_file(port))


def all_pidfiles() -> list[PidRecord]:
    """Return every readable pid-file record."""
    records = (_read(path) for path in sorted(paths.run_dir().glob("sglomni-*.json")))
    return [rec for rec in records if rec is not None]


def records(port: int | None = None) -> list[PidRecord]:
    """Return the record for `port`, or every record when `port` is None."""
    if port is None:
        return all_pidfiles()
    rec = read_pidfile(port)
    return [rec] if rec else []


def stop_from_pidfile(port: int | None = None, *, timeouts: StopTimeouts = StopTimeouts()) -> list[StopPath]:
    """Stop the server(s) this tool started (on `port`, or all) and remove their pid files."""
    results = []
    for rec in records(port):
        results.append(stop_group(rec.pgid, timeouts=timeouts) if rec.alive() else StopPath.ALREADY_DEAD)
        pid_file(rec.port).unlink(missing_ok=True)
    return results


def stop_model(key: str, *, timeouts: StopTimeouts = StopTimeouts()) -> list[StopPath]:
    """Stop every managed server hosting model `key` (before its weights are removed)."""
    return [stop_from_pidfile(rec.port, timeouts=timeouts)[0] for rec in all_pidfiles() if rec.model == key]
