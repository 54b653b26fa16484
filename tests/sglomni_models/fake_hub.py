"""A tiny Hugging Face Hub double: the endpoints snapshot_download uses, on 127.0.0.1.

Usage: python fake_hub.py SPEC.json PORTFILE. SPEC maps repo ids to {"files": {name: text}};
a file named in "slow" is streamed in chunks ("slow_chunk" bytes, default 1024) with a
pause ("slow_pause" seconds) between them, so a
test can cancel mid-download. With "stall_after" (bytes), a slow file's first, unranged download
stops there and holds the connection until the client goes away: a pause point, so a test cancels
a transfer that is certainly under way however loaded the machine (a resumed download is not held). Every request line (and its Range header, when a download
resumes) is appended to SPEC + ".log".
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse

SPEC: dict = {}
LOG = ""


def _sha(repo: str) -> str:
    return hashlib.sha1(repo.encode()).hexdigest()


class Hub(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet; the request log file is the record
        pass

    def _json(self, obj, status=200):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _route(self):
        with open(LOG, "a") as fh:
            rng = self.headers.get("Range")
            fh.write(f"{self.command} {self.path}" + (f" Range: {rng}" if rng else "") + "\n")
        path = unquote(urlparse(self.path).path)
        for repo, info in SPEC["repos"].items():
            files, sha = info["files"], _sha(repo)
            if path.startswith(f"/api/models/{repo}/revision/"):
                return self._json({"id": repo, "sha": sha, "siblings": [{"rfilename": f} for f in files]})
            if path.startswith(f"/api/models/{repo}/tree/"):
                return self._json([
                    {"type": "file", "path": f, "size": len(c.encode()), "oid": hashlib.sha1(c.encode()).hexdigest()}
                    for f, c in files.items()
                ])
            prefix = f"/{repo}/resolve/"
            if path.startswith(prefix):
                _rev, _, name = path[len(prefix):].partition("/")
                if name in files:
                    return self._file(repo, name, files[name].encode(), sha)
        return self._json({"error": "Repository not found"}, 404)

    def _file(self, repo, name, data, sha):
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0] or 0)
        body = data[start:]
        self.send_response(206 if start else 200)
        self.send_header("ETag", '"' + hashlib.sha1(data).hexdigest() + '"')
        self.send_header("X-Repo-Commit", sha)
        self.send_header("Content-Length", str(len(body)))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.end_headers()
        if self.command == "HEAD":
            return
        if name in SPEC.get("slow", []):
            step = SPEC.get("slow_chunk", 1024)
            stall = SPEC.get("stall_after") if not start else None
            for i in range(0, len(body), step):
                if stall is not None and i >= stall:
                    self._hold()
                    return
                self.wfile.write(body[i:i + step])
                self.wfile.flush()
                time.sleep(SPEC.get("slow_pause", 0.05))
        else:
            self.wfile.write(body)

    def _hold(self):
        """Send nothing more until the client closes its end (bounded: ten minutes)."""
        self.connection.settimeout(600)
        try:
            while self.connection.recv(1024):
                pass
        except OSError:
            pass

    do_GET = _route
    do_HEAD = _route


def main() -> None:
    global SPEC, LOG
    spec_path, port_file = sys.argv[1], sys.argv[2]
    SPEC = json.loads(open(spec_path).read())
    LOG = spec_path + ".log"
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    with open(port_file + ".tmp", "w") as fh:
        fh.write(str(server.server_address[1]))
    import os
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
