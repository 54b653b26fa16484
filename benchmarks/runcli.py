"""Run the real converter CLI as a child and measure it: wall time, CPU, peak RSS, progress timestamps.

`run_cli(argv, home)` starts `python audiobook.py ...` with AUDIOBOOK_HOME=`home`, reads its plain
progress lines (stderr is a pipe, so the CLI prints lines, not a bar) with the time each arrived,
and polls /proc every `poll` seconds for the CLI's process tree: the Python process's VmHWM
(exact peak), each ffmpeg child's VmHWM, and the largest sum of the tree's RSS seen at once.
CPU seconds of the tree come from RUSAGE_CHILDREN (every reaped descendant counts).
`start_loadgen(port, scale, ...)` starts the load generator and waits for /health.
"""
from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from app.core import proc

ROOT = Path(__file__).resolve().parents[1]
CLK = os.sysconf("SC_CLK_TCK")


@dataclass
class CliRun:
    """What one CLI run measured."""

    returncode: int
    wall: float
    cpu: float
    lines: list[tuple[float, str]] = field(default_factory=list)
    main_hwm_mb: float = 0.0
    ffmpeg_hwm_mb: float = 0.0
    ffmpeg_count: int = 0
    tree_peak_mb: float = 0.0

    @property
    def cpu_share(self) -> float:
        """CPU seconds per wall second of the whole CLI tree (2.0 = both cores of this box)."""
        return self.cpu / self.wall if self.wall else 0.0

    def first(self, prefix: str) -> float | None:
        """Return the time of the first progress line starting with `prefix`."""
        return next((t for t, s in self.lines if s.startswith(prefix)), None)

    def last(self, prefix: str) -> float | None:
        """Return the time of the last progress line starting with `prefix`."""
        return next((t for t, s in reversed(self.lines) if s.startswith(prefix)), None)

    def tail(self) -> dict[str, float] | None:
        """Return the seconds from the last chunk line to 'writing' (mux start) and to 'done:'."""
        last_chunk, writing, done = self.last("chunks "), self.first("writing "), self.first("done:")
        if last_chunk is None or done is None:
            return None
        return {"last_chunk_s": round(last_chunk, 2), "tail_s": round(done - last_chunk, 2),
                "mux_s": round(done - writing, 2) if writing is not None else -1.0,
                "tail_share": round((done - last_chunk) / done, 4)}


def _status(pid: int) -> dict[str, str]:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return dict(line.rstrip("\n").split(":\t", 1) for line in fh if ":\t" in line)
    except (OSError, ValueError):
        return {}


def _kb(value: str | None) -> float:
    return float(value.split()[0]) / 1024 if value else 0.0


def _children(root: int) -> list[int]:
    """Return every live descendant of `root` (one /proc scan)."""
    parent: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    parent[int(name)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    out, frontier = [], [root]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        frontier += kids
    return out


def run_cli(args: list[str], home: Path, *, timeout: float = 3600, poll: float = 0.1,
            echo: bool = False, entry: Path = ROOT / "audiobook.py", env: dict[str, str] | None = None) -> CliRun:
    """Run `python audiobook.py *args` with a private AUDIOBOOK_HOME and return what it measured."""
    home.mkdir(parents=True, exist_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    child = proc.spawn([sys.executable, str(entry), *args], cwd=ROOT,
                       env={"AUDIOBOOK_HOME": str(home), "PYTHONUNBUFFERED": "1", **(env or {})},
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    run = CliRun(returncode=-1, wall=0.0, cpu=0.0)
    ffmpeg_seen: dict[int, float] = {}

    def reader() -> None:
        assert child.stderr is not None
        for raw in child.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            run.lines.append((time.monotonic() - started, line))
            if echo:
                print("   |", line, file=sys.stderr, flush=True)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    deadline = started + timeout
    while child.poll() is None:
        if time.monotonic() > deadline:
            child.kill()
            break
        st = _status(child.pid)
        run.main_hwm_mb = max(run.main_hwm_mb, _kb(st.get("VmHWM")))
        total = _kb(st.get("VmRSS"))
        for pid in _children(child.pid):
            cst = _status(pid)
            rss = _kb(cst.get("VmRSS"))
            total += rss
            if cst.get("Name", "").startswith("ffmpeg"):
                ffmpeg_seen[pid] = max(ffmpeg_seen.get(pid, 0.0), _kb(cst.get("VmHWM")))
        run.tree_peak_mb = max(run.tree_peak_mb, total)
        time.sleep(poll)
    run.returncode = child.wait()
    run.wall = time.monotonic() - started
    thread.join(10)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    run.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    run.ffmpeg_hwm_mb = max(ffmpeg_seen.values(), default=0.0)
    run.ffmpeg_count = len(ffmpeg_seen)
    return run


def proc_cpu(pid: int) -> float:
    """Return CPU seconds used so far by process `pid` (user + system)."""
    with open(f"/proc/{pid}/stat") as fh:
        f = fh.read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / CLK


def start_loadgen(port: int, scale: float, *extra: str, max_seconds: float = 3000) -> subprocess.Popen:
    """Start the load generator on 127.0.0.1:`port` and return once /health answers.

    A port another process holds is refused first: /health would answer from that server
    (another session's benchmark), and both measurements would be wrong.
    """
    if port_taken(port):
        raise SystemExit(f"port {port} is taken by another process (another benchmark?); pass another --port")
    server = proc.spawn([sys.executable, "-m", "benchmarks.loadgen_server", "--port", str(port),
                         "--time-scale", str(scale), "--max-seconds", str(max_seconds), *extra],
                        cwd=ROOT, stdout=subprocess.DEVNULL, new_session=True)
    for _ in range(200):
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=1, trust_env=False)
            return server
        except httpx.HTTPError:
            if server.poll() is not None:
                raise SystemExit(f"loadgen exited with {server.returncode}")
            time.sleep(0.05)
    stop(server)
    raise SystemExit("loadgen never answered /health")


def port_taken(port: int) -> bool:
    """Return whether something listens on 127.0.0.1:`port`."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def free_port() -> int:
    """Return a port nothing listens on now (the kernel's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stats(port: int) -> dict:
    """Return the load generator's counters."""
    return httpx.get(f"http://127.0.0.1:{port}/stats", timeout=10, trust_env=False).json()


class InFlightSampler:
    """Poll the load generator's /health once a second for requests in the server (queued + running)."""

    def __init__(self, port: int, period: float = 1.0):
        self.url = f"http://127.0.0.1:{port}/health"
        self.period = period
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(timeout=5, trust_env=False) as client:
            while not self._stop.wait(self.period):
                try:
                    self.samples.append(int(client.get(self.url).json()["in_system"]))
                except (httpx.HTTPError, ValueError, KeyError):
                    continue

    def __enter__(self) -> "InFlightSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def summary(self) -> dict[str, int]:
        """Return the median and max in flight over the middle 80% of the run."""
        s = self.samples
        mid = s[len(s) // 10: len(s) - len(s) // 10] or s
        return {"inflight_p50": int(sorted(mid)[len(mid) // 2]) if mid else 0, "inflight_max": max(s, default=0)}


def stop(server: subprocess.Popen) -> None:
    """Stop a server started here and wait for it."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


def machine() -> str:
    """Return 'N cores, CPU model, date' for the report."""
    model = "?"
    with open("/proc/cpuinfo") as fh:
        for line in fh:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"nproc={os.cpu_count()}, {model}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, " \
           f"load {os.getloadavg()[0]:.2f}"
