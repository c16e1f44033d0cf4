"""One router per feature; ``all_routers()`` lists them in the order they must be tried."""

from __future__ import annotations

from aiogram import Router


def all_routers() -> list[Router]:
    from wave_agent.bot.routers import (
        chat,
        commitments,
        debug,
        export,
        forget_me,
        health,
        memory,
        proposals,
        reflect,
        start,
        web,
    )

    # ``start`` goes last: its fallback answers unknown commands with help.
    return [
        chat.commands_router(),
        memory.router(),
        commitments.router(),
        proposals.router(),
        reflect.router(),
        health.router(),
        export.router(),
        forget_me.router(),
        debug.router(),
        web.router(),
        chat.router(),
        start.router(),
    ]
