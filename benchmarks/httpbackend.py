"""A minimal HTTP backend for benchmarks: POSTs /v1/audio/speech with httpx, adaptive unless pinned.

It stands in for the sglomni backend (whose `adaptive` flag is another helper's) so the
whole pipeline can be measured against the load generator today.
"""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from app.backends.base import Backend, BackendOptions
from app.errors import ServerError


class LoadgenBackend(Backend):
    name = "loadgen"

    def __init__(self, options: BackendOptions):
        self.options = options
        self.url = options.api_urls[0].rstrip("/")
        self._client: httpx.Client | None = None
        self._busy = 0
        self._lock = threading.Lock()

    @property
    def default_chunk_size(self) -> int:
        return 24

    @property
    def concurrency(self) -> int:
        return self.options.concurrency or 256

    @property
    def adaptive(self) -> bool:
        return self.options.concurrency is None

    @property
    def busy_signals(self) -> int:
        return self._busy

    def identity(self) -> dict[str, Any]:
        return {"backend": self.name, "url": self.url}

    def start(self) -> None:
        self._client = httpx.Client(base_url=self.url, timeout=600, trust_env=False,
                                    limits=httpx.Limits(max_connections=self.concurrency + 4))

    def stop(self) -> None:
        if self._client:
            self._client.close()

    def synthesize(self, text: str, seed: int, out_path: Path) -> None:
        assert self._client is not None
        for attempt in range(8):
            r = self._client.post("/v1/audio/speech", json={"input": text, "seed": seed,
                                                            "response_format": "wav", "stream": False})
            if r.status_code == 200:
                tmp = Path(out_path).with_name(Path(out_path).name + f".{os.getpid()}.part")
                tmp.write_bytes(r.content)
                os.replace(tmp, out_path)
                return
            if r.status_code in (429, 503) or r.status_code >= 500:
                with self._lock:
                    self._busy += 1
                time.sleep(0.2 * 2 ** attempt)
                continue
            raise ServerError(f"loadgen answered HTTP {r.status_code}", status=r.status_code, transient=False)
        raise ServerError("loadgen kept answering 503", status=503, transient=True)


def create(options: BackendOptions) -> Backend:
    """Return the benchmark backend for `options`."""
    return LoadgenBackend(options)
