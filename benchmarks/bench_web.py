"""What the browser face costs: start to first menu, key to screen, reattach, memory.

    python -m benchmarks.bench_web [--presses 40]

Runs the real `audiobook.py hub --web --port 0` (own AUDIOBOOK_HOME in a temp folder) and
talks to it as textual.js does (one websocket, ["stdin", ...] messages, terminal bytes back),
reading the screen with pyte. Prints one JSON object of figures.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pyte

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 120, 40


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    return [int(c) for t in Path(f"/proc/{pid}/task").glob("*/children") for c in t.read_text().split()]


class Screen:
    def __init__(self, ws) -> None:
        self.ws = ws
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, predicate, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self.text()):
            message = await self.ws.receive(timeout=deadline - time.monotonic())
            if message.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(message.data)

    def highlighted(self) -> int:
        """Return the menu row whose background differs from the other entries' (the cursor), or -1."""
        rows = {}
        display = self.screen.display  # builds every line: once per call, not per row
        for y, line in enumerate(display):
            if re.search(r"\[[gbstq]\]", line):
                x = next(i for i, ch in enumerate(line) if ch.isalpha())
                rows[y] = self.screen.buffer[y][x].bg
        backgrounds = list(rows.values())
        for y, bg in rows.items():
            if backgrounds.count(bg) == 1:
                return y
        return -1


async def measure(presses: int, settle: float, gap: float) -> dict:
    home = tempfile.mkdtemp(prefix="bench-web-")
    env = {**os.environ, "AUDIOBOOK_HOME": home}
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, str(ROOT / "audiobook.py"), "hub", "--web", "--no-setup",
                             "--port", "0"], stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        url = re.search(r"served at (\S+)", proc.stdout.readline()).group(1)
        served = time.monotonic() - t0
        port, token = urlsplit(url).port, parse_qs(urlsplit(url).query)["token"][0]
        ws_url = f"http://127.0.0.1:{port}/ws?width={WIDTH}&height={HEIGHT}&token={token}"
        async with aiohttp.ClientSession() as session:
            t1 = time.monotonic()
            async with session.ws_connect(ws_url) as ws:
                page = Screen(ws)
                await page.until(lambda s: "Generate Audiobooks" in s)
                first_menu = time.monotonic() - t1
                await ws.send_str(json.dumps(["focus"]))  # as textual.js does when the page has focus
                await asyncio.sleep(settle)
                latencies = []
                for i in range(presses + 1):  # the first press after connecting is reported on its own
                    await asyncio.sleep(gap)  # a person's pace; frames that arrive meanwhile are read below
                    before = page.highlighted()
                    key = "\x1b[B" if i % 2 == 0 else "\x1b[A"  # Down, Up
                    t = time.monotonic()
                    await ws.send_str(json.dumps(["stdin", key]))
                    await page.until(lambda s: page.highlighted() != before)
                    latencies.append((time.monotonic() - t) * 1000)
                hub_pid = children(proc.pid)[0]
                memory = {"server_rss_mib": round(rss_mib(proc.pid), 1), "hub_rss_mib": round(rss_mib(hub_pid), 1)}
            t2 = time.monotonic()
            async with session.ws_connect(ws_url) as ws:
                page = Screen(ws)
                await page.until(lambda s: "Generate Audiobooks" in s)
                reattach = time.monotonic() - t2
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    first_key, latencies = latencies[0], sorted(latencies[1:])
    return {
        "first_key_to_screen_ms": round(first_key, 1),
        "served_after_s": round(served, 2),
        "first_menu_after_connect_s": round(first_menu, 2),
        "key_to_screen_ms_median": round(statistics.median(latencies), 1),
        "key_to_screen_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
        "reattach_redraw_s": round(reattach, 3),
        **memory,
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--settle", type=float, default=0.0, help="seconds to wait after the menu appears")
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between key presses")
    args = parser.parse_args()
    print(json.dumps({"settle_s": args.settle, "gap_s": args.gap,
                      **asyncio.run(measure(args.presses, args.settle, args.gap))}))


if __name__ == "__main__":
    main()
