"""A language-model server double speaking OpenAI's chat protocol: /v1/models, /v1/chat/completions.

    python llm_double.py PORT

LLM_DOUBLE_ANSWERS  JSON {"words of a quotation": "name"}: each numbered quotation |n|...|n| of the
                    prompt that holds those words is answered with that name (others with null)
LLM_DOUBLE_MODE     "json" (default), "prose" (an answer wrapped in chatter), "garbage" (no JSON at all)
LLM_DOUBLE_RECORD   append every chat request as a JSON line
"""
from __future__ import annotations

import json
import os
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MARKED = re.compile(r"\|(\d+)\|(.*?)\|\1\|", re.S)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def _json(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/v1/models":
            return self._json(200, {"object": "list", "data": [{"id": "tiny-llm", "object": "model",
                                                                 "owned_by": "double"}]})
        return self._json(404, {"error": {"message": "Not Found"}})

    def do_POST(self):
        if self.path != "/v1/chat/completions":
            return self._json(404, {"error": {"message": "Not Found"}})
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if os.environ.get("LLM_DOUBLE_RECORD"):
            with open(os.environ["LLM_DOUBLE_RECORD"], "a", encoding="utf-8") as fh:
                fh.write(json.dumps(body) + "\n")
        if body.get("model") != "tiny-llm" or not isinstance(body.get("messages"), list):
            return self._json(400, {"error": {"message": "model and messages are required"}})
        user = next((m["content"] for m in body["messages"] if m.get("role") == "user"), "")
        answers = json.loads(os.environ.get("LLM_DOUBLE_ANSWERS", "{}"))
        said = {}
        for n, text in MARKED.findall(user):
            said[n] = next((name for words, name in answers.items() if words in text), None)
        mode = os.environ.get("LLM_DOUBLE_MODE", "json")
        content = {"json": json.dumps(said), "prose": f"Sure! Here you go:\n{json.dumps(said)}\nHope it helps.",
                   "garbage": "I think the first one is probably Hartley, maybe."}[mode]
        return self._json(200, {"id": "chatcmpl-1", "object": "chat.completion", "model": "tiny-llm",
                                "choices": [{"index": 0, "finish_reason": "stop",
                                             "message": {"role": "assistant", "content": content}}],
                                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
