"""Middlewares: who may talk to Wave, how fast, how long; and Telegram API errors.

Update middlewares (outer, in this order): ``AllowList`` (strangers get one polite refusal,
nothing about them is stored: the set of already-refused ids lives in process memory only and
is bounded), ``RateLimit`` (per user, sliding window, one kind answer per window) and
``MessageSize`` (a kind answer naming the limit). The allowed person's Wave user id is put in
the handler data as ``wave_user`` (``tg-<telegram id>``): each person has their own memory.

``ApiRetry`` is a request middleware on the bot's session: a 429 waits the ``retry_after``
Telegram asks for, a network or server error backs off exponentially (aiogram's ``Backoff``),
both a bounded number of times; other errors (the user blocked the bot, a bad request) are
raised to the dispatcher's error handler, which logs them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiogram import BaseMiddleware
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    RestartingTelegram,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import GetUpdates, TelegramMethod
from aiogram.methods.base import Response, TelegramType
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, Update, User
from aiogram.utils.backoff import Backoff, BackoffConfig

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger("wave.bot")

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]

USER_PREFIX = "tg-"


def wave_user_id(telegram_id: int) -> str:
    """The Wave user id (memory scope) of a Telegram user: ``tg-<telegram id>``."""
    return f"{USER_PREFIX}{telegram_id}"


async def _tell(bot: Bot, event: TelegramObject, chat: Chat | None, user: User, text: str) -> None:
    """Answer the person where they are: a callback gets a toast, a message a message."""
    if isinstance(event, Update) and event.callback_query is not None:
        await bot.answer_callback_query(event.callback_query.id, text[:200], show_alert=True)
        return
    if isinstance(event, CallbackQuery):
        await bot.answer_callback_query(event.id, text[:200], show_alert=True)
        return
    await bot.send_message(chat.id if chat else user.id, text)


class AllowList(BaseMiddleware):
    """Only the Telegram ids in ``TELEGRAM_ALLOWED_USERS`` reach Wave."""

    def __init__(self, allowed: set[int], *, remember: int = 10_000) -> None:
        self.allowed = allowed
        self._refused: OrderedDict[int, None] = OrderedDict()
        self._remember = remember

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: User | None = data.get("event_from_user")
        if user is None or user.is_bot:
            return None  # channel posts, service updates: nobody to answer, nothing to do
        if user.id in self.allowed:
            data["wave_user"] = wave_user_id(user.id)
            return await handler(event, data)
        if user.id in self._refused:
            log.info("ignored a further update from a refused stranger")
            return None
        self._refused[user.id] = None
        while len(self._refused) > self._remember:
            self._refused.popitem(last=False)
        log.info("refused a stranger (not in TELEGRAM_ALLOWED_USERS)")
        text = (
            "Hello! Wave is a personal assistant and only talks to the people its owner "
            f"has allowed, so I can't help you here, sorry. Your Telegram id is {user.id}: "
            "if you know the owner, they can add it to TELEGRAM_ALLOWED_USERS."
        )
        await _tell(data["bot"], event, data.get("event_chat"), user, text)
        return None


class RateLimit(BaseMiddleware):
    """At most ``per_minute`` messages per person per minute; one kind answer per window."""

    def __init__(self, per_minute: int, *, window_s: float = 60.0) -> None:
        self.per_minute = per_minute
        self.window_s = window_s
        self._seen: dict[int, deque[float]] = {}
        self._warned_until: dict[int, float] = {}

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: User | None = data.get("event_from_user")
        if user is None:
            return await handler(event, data)
        now = time.monotonic()
        seen = self._seen.setdefault(user.id, deque())
        while seen and now - seen[0] > self.window_s:
            seen.popleft()
        if len(seen) < self.per_minute:
            seen.append(now)
            return await handler(event, data)
        wait_s = int(self.window_s - (now - seen[0])) + 1
        if self._warned_until.get(user.id, 0.0) < now:
            self._warned_until[user.id] = now + wait_s
            log.info("rate limit reached for %s", data.get("wave_user"))
            await _tell(
                data["bot"], event, data.get("event_chat"), user,
                f"That's a lot of messages at once: I can take {self.per_minute} a minute. "
                f"Give me about {wait_s} seconds and send it again, I'll be right here.",
            )
        return None


    def forget(self, telegram_id: int) -> None:
        """Erasure (/forget_me): drop the person's window; nothing about them stays here."""
        self._seen.pop(telegram_id, None)
        self._warned_until.pop(telegram_id, None)


class MessageSize(BaseMiddleware):
    """Refuses, kindly, a message longer than ``max_chars`` (text or caption)."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if isinstance(event, Message):
            length = len(event.text or event.caption or "")
            if length > self.max_chars:
                await event.answer(
                    f"This message is {length:,} characters; I read up to {self.max_chars:,} "
                    "at a time. Could you send it in parts, or tell me the part that matters?"
                )
                return None
        return await handler(event, data)


class ApiRetry(BaseRequestMiddleware):
    """Retries Telegram's "retry after" and transient network/server errors, bounded."""

    def __init__(
        self,
        *,
        attempts: int = 4,
        max_retry_after_s: float = 60.0,
        backoff: BackoffConfig | None = None,
    ) -> None:
        self.attempts = attempts
        self.max_retry_after_s = max_retry_after_s
        self.backoff = backoff or BackoffConfig(min_delay=0.5, max_delay=10.0, factor=2.0, jitter=0.1)

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        if method.__api_method__ == GetUpdates.__api_method__:  # polling has its own backoff
            return await make_request(bot, method)
        backoff = Backoff(self.backoff)
        for attempt in range(1, self.attempts + 1):
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as exc:
                if attempt == self.attempts or exc.retry_after > self.max_retry_after_s:
                    raise
                log.warning("Telegram asked to wait %ss before %s", exc.retry_after,
                            type(method).__name__)
                await asyncio.sleep(exc.retry_after)
            except (TelegramNetworkError, TelegramServerError, RestartingTelegram) as exc:
                if attempt == self.attempts:
                    raise
                log.warning("%s failed (%s); retrying in %.1fs", type(method).__name__, exc,
                            backoff.next_delay)
                await backoff.asleep()
        raise AssertionError("unreachable")  # pragma: no cover


class InFlight(BaseMiddleware):
    """Counts updates being handled, so shutdown can let them finish before draining."""

    def __init__(self) -> None:
        self.count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self.count += 1
        self._idle.clear()
        try:
            return await handler(event, data)
        finally:
            self.count -= 1
            if self.count == 0:
                self._idle.set()

    async def wait_idle(self, timeout_s: float) -> bool:
        """True when no update is being handled any more (within ``timeout_s``)."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout_s)
        except TimeoutError:
            return False
        return True
