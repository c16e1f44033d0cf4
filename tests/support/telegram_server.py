"""A local HTTP server that speaks the Telegram Bot API, for end-to-end bot tests.

The real aiogram ``Bot`` talks to it through ``TelegramAPIServer.from_base(server.base_url)``;
nothing inside aiogram is patched. The server keeps what a test needs to see:

- every call the bot made (``calls``: method, parsed parameters, uploaded files, time);
- the messages the bot sent or edited, per chat, so a test can press an inline button on one;
- a queue of updates the test enqueues (``send_text``, ``send_command``, ``forward``,
  ``press_button``...), handed out by ``getUpdates`` with real long-poll semantics (the call
  waits up to ``timeout`` seconds for an update, ``offset`` confirms what was delivered).

A test can also make the next calls of a method fail (``fail_next``) with the error shapes
Telegram uses (429 with ``retry_after``, 403 "bot was blocked by the user", 5xx).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any

from aiohttp import web

BOT_ID = 7_000_000_001
BOT_USERNAME = "wave_test_bot"

# Methods that answer ``true`` and need nothing else.
_TRUE_METHODS = {
    "sendchataction",
    "answercallbackquery",
    "deletewebhook",
    "setwebhook",
    "setmycommands",
    "deletemycommands",
    "setmydescription",
    "setmyshortdescription",
    "close",
    "logout",
}


@dataclass
class Call:
    """One request the bot made."""

    method: str
    params: dict[str, Any]
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    at: float = field(default_factory=time.monotonic)
    wall: datetime = field(default_factory=lambda: datetime.now(UTC))
    shown: str | None = None  # the text as the person sees it (HTML parsed), when accepted


@dataclass
class _Failure:
    status: int
    description: str
    retry_after: int | None = None


class TelegramTestServer:
    """A Bot API server on 127.0.0.1 with a random port. Use ``async with``."""

    def __init__(self, token: str = "123456:TEST-token") -> None:
        self.token = token
        self.calls: list[Call] = []
        self.sent: dict[int, dict[int, dict[str, Any]]] = {}  # chat -> message id -> message
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._callback_ids = itertools.count(1)
        self._new_update = asyncio.Condition()
        self._new_call = asyncio.Condition()
        self._failures: dict[str, list[_Failure]] = {}
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    # Lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> TelegramTestServer:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.base_url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # Updates a test enqueues -------------------------------------------------------------

    @staticmethod
    def user(user_id: int, first_name: str = "Тест", language_code: str = "ru") -> dict[str, Any]:
        return {
            "id": user_id,
            "is_bot": False,
            "first_name": first_name,
            "language_code": language_code,
        }

    def _message(self, user_id: int, text: str, **extra: Any) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": {"id": user_id, "type": "private", "first_name": "Тест"},
            "from": self.user(user_id),
            "text": text,
        }
        message.update(extra)
        return message

    async def push_update(self, update: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": next(self._update_ids), **update}
        async with self._new_update:
            self._updates.append(update)
            self._new_update.notify_all()
        return update

    async def send_text(self, user_id: int, text: str, **extra: Any) -> dict[str, Any]:
        """The person with ``user_id`` writes ``text`` in their private chat with the bot
        (or in the chat given as ``chat=``)."""
        return await self.push_update({"message": self._message(user_id, text, **extra)})

    async def send_command(
        self, user_id: int, command: str, args: str = "", **extra: Any
    ) -> dict[str, Any]:
        text = f"/{command}" + (f" {args}" if args else "")
        entity = {"type": "bot_command", "offset": 0, "length": len(command) + 1}
        return await self.send_text(user_id, text, entities=[entity], **extra)

    @staticmethod
    def group(chat_id: int, title: str = "Семья", chat_type: str = "supergroup") -> dict[str, Any]:
        """A group chat, for ``send_text(..., chat=TelegramTestServer.group(-100...))``."""
        return {"id": chat_id, "type": chat_type, "title": title}

    async def wait_delivered(self, update: dict[str, Any], *, timeout: float = 120.0) -> None:
        """Wait until the bot has confirmed ``update`` (a later ``getUpdates`` offset)."""
        await self.wait_for(
            lambda c: c.method == "getupdates"
            and int(c.params.get("offset", 0) or 0) > update["update_id"],
            timeout=timeout,
        )

    async def forward(
        self, user_id: int, text: str, *, origin_name: str = "Новости", channel: bool = True
    ) -> dict[str, Any]:
        """A message forwarded into the chat (from a channel by default)."""
        if channel:
            origin: dict[str, Any] = {
                "type": "channel",
                "date": int(time.time()) - 3600,
                "chat": {"id": -100123, "type": "channel", "title": origin_name},
                "message_id": 77,
            }
        else:
            origin = {"type": "hidden_user", "date": int(time.time()) - 3600,
                      "sender_user_name": origin_name}
        return await self.send_text(user_id, text, forward_origin=origin)

    async def quote(self, user_id: int, text: str, quoted: str) -> dict[str, Any]:
        """A message replying to a quoted fragment of another message (web content, often)."""
        return await self.send_text(
            user_id, text, quote={"text": quoted, "position": 0, "is_manual": True}
        )

    async def press_button(
        self, user_id: int, chat_id: int, message_id: int, data: str
    ) -> dict[str, Any]:
        """The person presses an inline button with ``data`` on a message the bot sent."""
        message = self.sent[chat_id][message_id]
        callback = {
            "id": str(next(self._callback_ids)),
            "from": self.user(user_id),
            "message": message,
            "chat_instance": f"ci-{chat_id}",
            "data": data,
        }
        return await self.push_update({"callback_query": callback})

    # Failures a test injects -------------------------------------------------------------

    def fail_next(
        self, method: str, *, status: int = 429, description: str | None = None,
        retry_after: int | None = 1, times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail the way Telegram fails them."""
        if description is None:
            description = {
                429: f"Too Many Requests: retry after {retry_after}",
                403: "Forbidden: bot was blocked by the user",
            }.get(status, "Internal Server Error")
        failure = _Failure(status, description, retry_after if status == 429 else None)
        self._failures.setdefault(method.lower(), []).extend([failure] * times)

    # What a test reads -------------------------------------------------------------------

    def calls_of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method.lower()]

    def texts_to(self, chat_id: int) -> list[str]:
        """What the person in ``chat_id`` saw, message by message (tags parsed away)."""
        return [
            c.shown
            for c in self.calls_of("sendMessage")
            if int(c.params.get("chat_id", 0)) == chat_id and c.shown is not None
        ]

    async def wait_for(
        self, predicate: Callable[[Call], bool], *, count: int = 1, timeout: float = 120.0
    ) -> list[Call]:
        """Wait until ``count`` calls match ``predicate``; return them (in order)."""
        async def matched() -> list[Call]:
            async with self._new_call:
                while True:
                    found = [c for c in self.calls if predicate(c)]
                    if len(found) >= count:
                        return found
                    await self._new_call.wait()

        try:
            return await asyncio.wait_for(matched(), timeout)
        except TimeoutError as exc:
            seen = [(c.method, c.params.get("text", "")[:80]) for c in self.calls[-10:]]
            raise AssertionError(f"timed out waiting for {count} matching call(s); last: {seen}") from exc

    async def wait_for_method(
        self, method: str, chat_id: int | None = None, *, count: int = 1, timeout: float = 120.0
    ) -> list[Call]:
        def match(call: Call) -> bool:
            if call.method != method.lower():
                return False
            return chat_id is None or int(call.params.get("chat_id", 0)) == chat_id

        return await self.wait_for(match, count=count, timeout=timeout)

    # The Bot API -------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return self._error(401, "Unauthorized")
        method = request.match_info["method"].lower()
        params, files = await self._read_params(request)
        call = Call(method, params, files)
        async with self._new_call:
            self.calls.append(call)
            self._new_call.notify_all()

        queued = self._failures.get(method)
        if queued:
            failure = queued.pop(0)
            return self._error(failure.status, failure.description, failure.retry_after)

        if method == "getupdates":
            return self._ok(await self._get_updates(params))
        if method == "getme":
            return self._ok({"id": BOT_ID, "is_bot": True, "first_name": "Wave",
                             "username": BOT_USERNAME, "can_join_groups": False,
                             "can_read_all_group_messages": False,
                             "supports_inline_queries": False})
        if method == "sendmessage":
            try:
                content = _content(params)
            except ValueError as exc:
                return self._error(400, f"Bad Request: {exc}")
            call.shown = content["text"]
            return self._ok(self._store_sent(params, **content))
        if method == "senddocument":
            name, data = files.get("document", ("document", b""))
            document = {"file_id": f"doc-{len(data)}-{name}", "file_unique_id": f"u-{name}",
                        "file_name": name, "file_size": len(data)}
            extra: dict[str, Any] = {"document": document}
            if params.get("caption"):
                extra["caption"] = params["caption"]
            return self._ok(self._store_sent(params, **extra))
        if method in {"editmessagetext", "editmessagereplymarkup"}:
            return self._edit(method, params, call)
        if method == "getwebhookinfo":
            return self._ok({"url": "", "has_custom_certificate": False,
                             "pending_update_count": len(self._updates)})
        if method in _TRUE_METHODS:
            return self._ok(True)
        return self._error(404, "Not Found: method not found")

    async def _read_params(
        self, request: web.Request
    ) -> tuple[dict[str, Any], dict[str, tuple[str, bytes]]]:
        params: dict[str, Any] = {}
        files: dict[str, tuple[str, bytes]] = {}
        if request.method == "GET":
            raw: Any = dict(request.query)
        elif request.content_type == "application/json":
            raw = await request.json()
        else:
            raw = await request.post()
        for key, value in raw.items():
            if isinstance(value, web.FileField):
                files[key] = (value.filename, value.file.read())
                continue
            params[key] = _decode(value)
        return params, files

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset", 0) or 0)
        limit = int(params.get("limit", 100) or 100)
        timeout = float(params.get("timeout", 0) or 0)
        async with self._new_update:
            if offset:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if not self._updates and timeout > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._new_update.wait(), timeout)
            return list(self._updates[:limit])

    def _store_sent(self, params: dict[str, Any], **content: Any) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": ({"id": chat_id, "type": "private", "first_name": "Тест"} if chat_id > 0
                     else self.group(chat_id)),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Wave",
                     "username": BOT_USERNAME},
            **content,
        }
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        self.sent.setdefault(chat_id, {})[message["message_id"]] = message
        return message

    def _edit(self, method: str, params: dict[str, Any], call: Call) -> web.Response:
        chat_id = int(params.get("chat_id", 0))
        message_id = int(params.get("message_id", 0))
        message = self.sent.get(chat_id, {}).get(message_id)
        if message is None:
            return self._error(400, "Bad Request: message to edit not found")
        if method == "editmessagetext":
            try:
                content = _content(params)
            except ValueError as exc:
                return self._error(400, f"Bad Request: {exc}")
            message.pop("entities", None)
            message.update(content)
            call.shown = content["text"]
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        else:
            message.pop("reply_markup", None)
        return self._ok(message)

    @staticmethod
    def _ok(result: Any) -> web.Response:
        return web.json_response({"ok": True, "result": result})

    @staticmethod
    def _error(status: int, description: str, retry_after: int | None = None) -> web.Response:
        body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
        if retry_after is not None:
            body["parameters"] = {"retry_after": retry_after}
        return web.json_response(body, status=status)


def _decode(value: Any) -> Any:
    """aiogram sends scalars as text and objects (reply_markup, entities) as JSON text."""
    if not isinstance(value, str):
        return value
    if value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


# Telegram HTML: what the real server accepts, turned into text + entities (UTF-16 offsets).
_ENTITY_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "code": "code", "pre": "pre", "a": "text_link", "tg-spoiler": "spoiler",
    "blockquote": "blockquote", "span": "spoiler",
}


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class _TelegramHTML(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text = ""
        self.entities: list[dict[str, Any]] = []
        self.stack: list[tuple[str, int, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _ENTITY_TAGS:
            raise ValueError(f"can't parse entities: unsupported start tag \"{tag}\"")
        self.stack.append((tag, _units(self.text), dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            raise ValueError(f"can't parse entities: unexpected end tag \"{tag}\"")
        name, start, attrs = self.stack.pop()
        length = _units(self.text) - start
        if length:
            entity: dict[str, Any] = {"type": _ENTITY_TAGS[name], "offset": start,
                                      "length": length}
            if name == "a":
                entity["url"] = attrs.get("href") or ""
            self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.text += data


def _content(params: dict[str, Any]) -> dict[str, Any]:
    """A message's text (and entities) as Telegram would store it; ValueError as Telegram's 400."""
    raw = str(params.get("text", ""))
    if str(params.get("parse_mode", "")).lower() == "html":
        if re.search(r"&(?!(?:amp|lt|gt|quot|#\d+|#x[0-9a-fA-F]+);)", raw):
            raise ValueError("can't parse entities: unsupported entity or a bare \"&\"")
        parser = _TelegramHTML()
        parser.feed(raw)
        parser.close()
        if parser.stack:
            raise ValueError(f"can't parse entities: can't find end tag \"{parser.stack[-1][0]}\"")
        text, entities = parser.text, parser.entities
    else:
        text, entities = raw, []
    if not text.strip():
        raise ValueError("message text is empty")
    if _units(text) > 4096:
        raise ValueError("message is too long")
    content: dict[str, Any] = {"text": text}
    if entities:
        content["entities"] = sorted(entities, key=lambda e: (e["offset"], -e["length"]))
    return content
