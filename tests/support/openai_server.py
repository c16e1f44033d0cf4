"""A scripted OpenAI-compatible HTTP server on 127.0.0.1 for tests.

The real ``openai`` client talks to it over HTTP (``base_url=server.base_url``). It speaks
``POST /v1/chat/completions`` (plain replies, ``tool_calls``, ``response_format`` JSON),
records every request body, and answers from two script queues:

- ``chat``: requests without ``response_format`` (the turn, reflect);
- ``json``: requests with ``response_format`` (structured output such as extraction).

Each queue entry is a ``Reply`` (or a callable ``request_body -> Reply``). When a queue is empty
its default answers (``default_chat`` / ``default_json``, also callables or ``Reply``).

    with ScriptedOpenAI() as llm:
        llm.chat.append(Reply.tool("memory_search", {"query": "city"}))
        llm.chat.append(Reply.text("You live in Berlin."))
        llm.json.append(Reply.json({"facts": []}))
        settings = Settings(_env_file=None, llm_base_url=llm.base_url, ...)
        ...
        assert llm.requests[0]["messages"][0]["role"] == "system"

Runs in a daemon thread (stdlib ``ThreadingHTTPServer``), so it also serves subprocesses
(``wave chat`` in a pipe) while the test blocks.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[dict[str, Any]], "Reply"]


@dataclass
class Reply:
    """One scripted answer: a message (content and/or tool calls) or a raw HTTP response."""

    content: str | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    raw_body: str | None = None  # sent as-is (with ``status``) when set
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)  # extra response headers

    @classmethod
    def text(cls, content: str) -> Reply:
        return cls(content=content)

    @classmethod
    def json(cls, value: Any) -> Reply:
        return cls(content=json.dumps(value, ensure_ascii=False))

    @classmethod
    def tool(cls, name: str, arguments: dict[str, Any] | str, call_id: str | None = None) -> Reply:
        return cls.tools([(name, arguments, call_id)])

    @classmethod
    def tools(cls, calls: list[tuple[str, dict[str, Any] | str, str | None]]) -> Reply:
        built = []
        for name, arguments, call_id in calls:
            args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
            built.append(
                {
                    "id": call_id or f"call_{next(_ids)}",
                    "type": "function",
                    "function": {"name": name, "arguments": args},
                }
            )
        return cls(tool_calls=built)

    @classmethod
    def error(cls, status: int = 500, message: str = "scripted failure",
              retry_after: str | None = None) -> Reply:
        body = json.dumps({"error": {"message": message, "type": "server_error", "code": None}})
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        return cls(status=status, raw_body=body, headers=headers)


_ids = itertools.count(1)


class ScriptedOpenAI:
    """The server; use as a context manager or call ``start()``/``stop()``."""

    def __init__(self, model: str = "scripted-model") -> None:
        self.model = model
        self.chat: deque[Reply | Responder] = deque()
        self.json: deque[Reply | Responder] = deque()
        self.default_chat: Reply | Responder = Reply.text("(scripted reply)")
        self.default_json: Reply | Responder = Reply.json({"facts": []})
        self.requests: list[dict[str, Any]] = []
        self.request_times: list[float] = []  # time.monotonic() of each chat request
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle --------------------------------------------------------------------------

    def start(self) -> ScriptedOpenAI:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="scripted-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "start() the server first"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # inspection -------------------------------------------------------------------------

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.requests if "response_format" not in r]

    def json_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.requests if "response_format" in r]

    # internals --------------------------------------------------------------------------

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            queue, default = (
                (self.json, self.default_json) if "response_format" in body else (self.chat, self.default_chat)
            )
            entry = queue.popleft() if queue else default
        return entry(body) if callable(entry) else entry

    def _completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = reply.tool_calls
        prompt_chars = sum(len(str(m.get("content") or "")) for m in body.get("messages", []))
        return {
            "id": f"chatcmpl-{next(_ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if reply.tool_calls else "stop",
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_chars // 4,
                "completion_tokens": len(reply.content or "") // 4,
                "total_tokens": (prompt_chars + len(reply.content or "")) // 4,
            },
        }


def _handler_for(server: ScriptedOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return None

        def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, json.dumps({"object": "list", "data": [{"id": server.model, "object": "model"}]}))
            else:
                self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8")
            server.paths.append(self.path)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))
                return
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                self._send(400, json.dumps({"error": {"message": "request body is not JSON"}}))
                return
            server.request_times.append(time.monotonic())
            reply = server._next_reply(body)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.raw_body is not None:
                self._send(reply.status, reply.raw_body, reply.headers)
                return
            self._send(reply.status, json.dumps(server._completion(body, reply), ensure_ascii=False))

    return Handler
