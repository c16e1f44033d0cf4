"""Weekly compression of old episodes (``EpisodeStore.compress_old_weeks``): every finished
week gets a ``weekly/YYYY-Www.md`` summary linking its days. Day files are kept, and a weekly
file edited by hand is kept as it is."""

from __future__ import annotations

from episodes.store import iso_week_of
from wave_agent.ops.maintenance.base import JobContext, each_user
from wave_agent.ops.maintenance.report import Action, JobReport


class Compress:
    name = "compress"
    description = "summarise finished weeks of the episode log (day files kept)"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        try:
            store = await ctx.stores.episodes()
            users = list(ctx.user_ids) if ctx.user_ids is not None else await store.users()
        except Exception as exc:
            report.fail(None, exc)
            return

        async def work(user_id: str) -> None:
            zone = await store.timezone_for(user_id)
            today = ctx.now.astimezone(zone).date()
            if ctx.dry_run:
                current = iso_week_of(today)
                weeks = sorted({iso_week_of(d) for d in await store.days(user_id)
                                if iso_week_of(d) < current})
                for week in weeks:
                    if await store.weekly(user_id, week) is None:
                        report.add(Action("compressed", user_id, (week,), "weekly summary missing"))
                return
            for summary in await store.compress_old_weeks(user_id, today=today):
                report.add(Action("compressed", user_id, (summary.iso_week,),
                                  f"{len(summary.days)} day(s) -> {summary.path.name}",
                                  applied=True))

        await each_user(ctx, report, users, work)
