"""The memory page: one person's memory, server-rendered (Starlette + Jinja2), htmx for the
actions, cytoscape.js and Chart.js for the graph and the charts, all served by Wave itself.

Every page reads through the same services as the CLI and the bot; every change is a POST that
carries the session's CSRF token and goes through the one writer (``Writer``). A person sees
only their own memory: the session names the person, every graph read is scoped by them, and
another person's record id is answered 404 like an unknown one.

Why one file of this size: each route is a short method that reads through the same session,
CSRF check, language and renderer (``self.render``); the views' logic lives in ``app/`` and the
templates, so what stays here is the table of routes and their thin handlers.
"""

from __future__ import annotations

import difflib
import hmac
import itertools
import logging
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from graph.models import Fact, FactType, Status, Tier, utcnow
from wave_agent.app import page_auth as auth
from wave_agent.errors import NotFound, WaveError
from wave_agent.services import Services
from wave_agent.web import i18n
from wave_agent.web.i18n import N_

log = logging.getLogger("wave.web")

HERE = Path(__file__).resolve().parent
MODULES = HERE / "static" / "node_modules"
# What the page loads, and where npm put it (pinned in static/package.json).
ASSETS = {
    "htmx.min.js": MODULES / "htmx.org" / "dist" / "htmx.min.js",
    "cytoscape.min.js": MODULES / "cytoscape" / "dist" / "cytoscape.min.js",
    "chart.umd.min.js": MODULES / "chart.js" / "dist" / "chart.umd.min.js",
    "wave.css": HERE / "static" / "wave.css",
}
PAGE_SIZE = 50
ACTIONS = ("forget", "restore", "pin", "supersede", "delete")


class WebApp:
    """The page over ``services`` for whoever the session names."""

    def __init__(self, services: Services, *, secret: bytes) -> None:
        self.services = services
        self.secret = secret
        self.spent = auth.SpentLinks()
        self.templates = Environment(loader=FileSystemLoader(HERE / "templates"),
                                     autoescape=select_autoescape(["html"]))
        # dates and numbers in the page's language (Babel); strings through ``_`` (web.i18n)
        self.templates.filters["day"] = pass_context(
            lambda ctx, d: i18n.format_day(d, ctx.get("lang", i18n.DEFAULT)))
        self.templates.filters["number"] = pass_context(
            lambda ctx, n: i18n.format_number(n, ctx.get("lang", i18n.DEFAULT)))
        self.templates.filters["moment"] = pass_context(
            lambda ctx, m: i18n.format_moment(m, ctx.get("lang", i18n.DEFAULT)))
        self.templates.filters["link"] = pass_context(
            lambda ctx, k: i18n.link_name(k, ctx.get("lang", i18n.DEFAULT)))
        missing = [name for name, path in ASSETS.items() if not path.exists()]
        if missing:
            log.warning("the page's JavaScript is not installed (%s): run `make install` "
                        "(npm ci); pages still load, without the graph and charts",
                        ", ".join(missing))

    # -- plumbing ---------------------------------------------------------------------------

    def session(self, request: Request) -> auth.Session | None:
        return auth.read_session(self.secret, request.cookies.get(auth.SESSION_COOKIE))

    def render(self, request: Request, name: str, status_code: int = 200,
               **context: Any) -> HTMLResponse:
        session = self.session(request)
        asked = request.query_params.get("lang")
        lang = self.lang(request)

        def _(text: str, **values: object) -> str:
            return i18n.translate(lang, text, **values)

        html = self.templates.get_template(name).render(
            request=request, user_id=session.user_id if session else None,
            csrf=session.csrf(self.secret) if session else "", now=utcnow(),
            done=request.query_params.get("done"), lang=lang, languages=i18n.NAMES, _=_,
            **context)
        response = HTMLResponse(html, status_code=status_code)
        if asked == lang:  # the switch: remembered for the next pages
            response.set_cookie(i18n.COOKIE, lang, max_age=365 * 24 * 3600, samesite="strict")
        return response

    @staticmethod
    def lang(request: Request) -> str:
        """The language of this request's page (``i18n.negotiate``)."""
        return i18n.negotiate(request.query_params.get("lang"), request.cookies.get(i18n.COOKIE),
                              request.headers.get("accept-language"))

    def refuse(self, request: Request, status_code: int, title: str, detail: str) -> HTMLResponse:
        return self.render(request, "error.html", status_code, title=title, detail=detail)

    def app(self) -> Starlette:
        routes = [
            Route("/login", self.login),
            Route("/", lambda r: RedirectResponse("/records", 303)),
            Route("/static/{name}", self.static),
            Route("/records", self.records),
            Route("/records/{id}", self.record),
            Route("/records/{id}/delete", self.confirm_delete, methods=["GET"]),
            Route("/records/{id}/{action}", self.act, methods=["POST"]),
            Route("/waiting", self.waiting),
            Route("/waiting/{id}/{decision}", self.decide, methods=["POST"]),
            Route("/commitments", self.commitments),
            Route("/commitments/{id}/{action}", self.commitment_act, methods=["POST"]),
            Route("/entities", self.entities),
            Route("/entities/{id}", self.entity),
            Route("/entities/{id}/graph.json", self.entity_graph),
            Route("/days", self.days),
            Route("/days/{day}", self.day),
            Route("/reflect", self.reflect),
            Route("/health", self.health),
            Route("/blocks", self.blocks),
            Route("/export", self.export),
            Route("/export.json", self.export_json),
        ]
        app = Starlette(routes=routes, exception_handlers={404: self.not_found})
        app.add_middleware(_Guard, web=self)
        return app

    async def not_found(self, request: Request, exc: Exception) -> Response:
        return self.refuse(request, 404, N_("Not found"),
                           N_("Nothing here for you. Back to your records."))

    # -- access -----------------------------------------------------------------------------

    async def login(self, request: Request) -> Response:
        payload = auth.unsign(self.secret, "login", request.query_params.get("token", ""))
        if payload is None or (payload.get("once") and not self.spent.spend(
                str(payload.get("n")), float(payload["exp"]))):  # type: ignore[arg-type]
            return self.refuse(request, 401, N_("This login link does not open anything"),
                               N_("It is wrong, expired or already used. Ask the bot for /web "
                                  "again, or run `wave web` on the machine for a new link."))
        response = RedirectResponse("/records", 303)
        response.set_cookie(auth.SESSION_COOKIE, auth.session_cookie(self.secret, str(payload["u"])),
                            max_age=auth.SESSION_TTL_S, httponly=True, samesite="strict")
        return response

    async def static(self, request: Request) -> Response:
        path = ASSETS.get(request.path_params["name"])
        if path is None or not path.exists():
            return Response("not installed: run `make install`", 404)
        return FileResponse(path, headers={"cache-control": "max-age=3600"})

    # -- records ----------------------------------------------------------------------------

    async def records(self, request: Request) -> Response:
        user_id = _user(request)
        q = request.query_params
        tier, status, kind = (_pick(q.get("tier"), Tier), _pick(q.get("status"), Status),
                              _pick(q.get("type"), FactType))
        query = (q.get("q") or "").strip()
        lang = self.lang(request)
        page = max(1, _int(q.get("page"), 1))
        graph = await self.services.graph()
        found_by: dict[str, str] = {}
        missing: dict[str, str] = {}  # a voice recall answered without, and why
        if query:
            from wave_agent.app.views import found_by as voices

            engine = await self.services.recall()
            hits = await engine.search(user_id, query, k=30, history=True)
            facts = [h.fact for h in hits]
            found_by = {h.fact.id: voices(h.ranks, name=lambda v: i18n.translate(lang, v))
                        for h in hits}
            missing = dict(hits.degraded.reasons)
            total = len(facts)
        else:
            facts = await graph.list_facts(
                user_id, tiers=[tier] if tier else None, statuses=[status] if status else None,
                types=[kind] if kind else None, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
            total = sum(c.count for c in await graph.count_facts(user_id)
                        if (not tier or c.tier is tier) and (not status or c.status is status)
                        and (not kind or c.type is kind))
        pages = max(1, -(-total // PAGE_SIZE))
        base = {k: v for k, v in (("tier", tier and tier.value), ("status", status and status.value),
                                   ("type", kind and kind.value)) if v}
        return self.render(
            request, "records.html", facts=facts, found_by=found_by, missing=missing,
            query=query, total=total,
            page=page, pages=pages, filters=base, tiers=list(Tier), statuses=list(Status),
            types=list(FactType),
            page_url=lambda n: "/records?" + urlencode({**base, "page": n}))

    async def record(self, request: Request) -> Response:
        user_id = _user(request)
        graph = await self.services.graph()
        fact = await graph.get_fact(user_id, request.path_params["id"])
        if fact is None:
            return await self.not_found(request, KeyError())
        chain = await graph.history(user_id, fact.id)
        conflicts = [c for c in await graph.list_conflicts(user_id, resolved=None)
                     if fact.id in c.fact_ids]
        others = {f.id: f for f in await graph.get_facts(
            user_id, [i for c in conflicts for i in c.fact_ids if i != fact.id])}
        about = await graph.about(user_id, fact.id)
        return self.render(request, "record.html", fact=fact, chain=chain, conflicts=conflicts,
                           others=others, about=about, decay=_decay_svg(fact))

    async def confirm_delete(self, request: Request) -> Response:
        user_id = _user(request)
        fact = await (await self.services.graph()).get_fact(user_id, request.path_params["id"])
        if fact is None:
            return await self.not_found(request, KeyError())
        return self.render(request, "delete.html", fact=fact)

    async def act(self, request: Request) -> Response:
        user_id = _user(request)
        record_id, action = request.path_params["id"], request.path_params["action"]
        if action not in ACTIONS:
            return await self.not_found(request, KeyError())
        form = await request.form()
        writer = await self.services.writer()
        try:
            if action == "supersede":
                result = await writer.supersede(user_id, record_id, str(form.get("text", "")))
            elif action == "delete":
                if form.get("confirm") != "yes":
                    return RedirectResponse(f"/records/{record_id}/delete", 303)
                # erasure reaches every layer (graph, archive, episodes, snapshots, logs,
                # blocks), as `wave delete` does
                report = await (await self.services.eraser()).delete(user_id, record_id)
                return RedirectResponse(f"/records?{urlencode({'done': report.message})}", 303)
            else:
                result = await getattr(writer, action)(user_id, record_id)
        except WaveError as exc:
            return await self._refused(request, exc, record_id)
        where = "/records" if action == "delete" else f"/records/{result.id or record_id}"
        return RedirectResponse(f"{where}?{urlencode({'done': result.message})}", 303)

    async def _refused(self, request: Request, exc: WaveError, record_id: str) -> Response:
        """A record or proposal that does not exist (for this person) is the page's 404;
        any other refusal is shown with its next step."""
        if isinstance(exc, NotFound):
            return await self.not_found(request, KeyError())
        return self.refuse(request, 400, N_("Not done"), str(exc))

    # -- waiting for the person --------------------------------------------------------------

    async def waiting(self, request: Request) -> Response:
        user_id = _user(request)
        graph = await self.services.graph()
        proposals = await graph.list_proposals(user_id)
        targets = {f.id: f for f in await graph.get_facts(
            user_id, [t for p in proposals for t in p.target_ids])}
        held = await graph.list_facts(user_id, statuses=[Status.QUARANTINED])
        return self.render(request, "waiting.html", proposals=proposals, targets=targets, held=held)

    async def decide(self, request: Request) -> Response:
        user_id = _user(request)
        record_id, decision = request.path_params["id"], request.path_params["decision"]
        if decision not in ("approve", "reject"):
            return await self.not_found(request, KeyError())
        from wave_agent.app.decisions import decide

        try:
            result = await decide(await self.services.writer(), self.services.eraser, user_id,
                                  record_id, approve=decision == "approve")
        except WaveError as exc:
            return await self._refused(request, exc, record_id)
        if decision == "approve" and result.id:
            return RedirectResponse(f"/records/{result.id}?{urlencode({'done': result.message})}", 303)
        return RedirectResponse(f"/waiting?{urlencode({'done': result.message})}", 303)

    # -- commitments ---------------------------------------------------------------------------

    async def commitments(self, request: Request) -> Response:
        from wave_agent.app.commitments import commitment_json

        user_id = _user(request)
        graph = await self.services.graph()
        open_ones = await graph.list_commitments(user_id)
        closed = await graph.list_commitments(user_id, ("done", "cancelled", "missed"), limit=30)
        return self.render(request, "commitments.html",
                           open=[commitment_json(c) for c in open_ones],
                           closed=[commitment_json(c) for c in closed])

    async def commitment_act(self, request: Request) -> Response:
        from wave_agent.app.commitments import ACTIONS, act

        user_id = _user(request)
        cid, action = request.path_params["id"], request.path_params["action"]
        if action not in ACTIONS:
            return await self.not_found(request, KeyError())
        form = await request.form()
        try:
            changed = await act(await self.services.commitments(), user_id, cid, action,
                                str(form.get("when", "")) or None)
        except WaveError as exc:
            return await self._refused(request, exc, cid)
        lang = self.lang(request)
        done = f"{i18n.translate(lang, changed.state.value)}: {changed.text}"
        return RedirectResponse(f"/commitments?{urlencode({'done': done})}", 303)

    # -- people and things --------------------------------------------------------------------

    async def entities(self, request: Request) -> Response:
        user_id = _user(request)
        found = await (await self.services.graph()).list_entities(user_id, limit=500)
        return self.render(request, "entities.html", entities=found)

    async def entity(self, request: Request) -> Response:
        user_id = _user(request)
        graph = await self.services.graph()
        entity = await graph.get_entity(user_id, request.path_params["id"])
        if entity is None:
            return await self.not_found(request, KeyError())
        mentions = await graph.neighbourhood(user_id, [entity.id], hops=0, limit=200, statuses=None)
        return self.render(request, "entity.html", entity=entity,
                           mentions=[m.fact for m in mentions],
                           relations=await self._relations_of(user_id, entity))

    async def _relations_of(self, user_id: str, entity: Any) -> list[dict[str, Any]]:
        """The entity's typed relations, each with the records it came from (current first;
        one a later record ended, as "lives in" after a move, stays as history)."""
        from wave_agent.write.entities import SELF_NAME, link_type_of

        graph = await self.services.graph()
        rows: list[dict[str, Any]] = []
        for rel in await graph.relations(user_id, entity.id):
            ends = {}
            for end in (rel.source_id, rel.target_id):
                found = entity if end == entity.id else await graph.get_entity(user_id, end)
                ends[end] = found
            if any(e is None for e in ends.values()):
                continue
            records = await graph.get_facts(user_id, list(rel.provenance))
            rows.append({
                "source": ends[rel.source_id], "target": ends[rel.target_id],
                "type": link_type_of(rel), "ended_at": rel.ended_at, "records": records,
                "self_name": SELF_NAME,
            })
        rows.sort(key=lambda r: (r["ended_at"] is not None, r["type"]))
        return rows

    async def entity_graph(self, request: Request) -> Response:
        """Cytoscape elements: the entity, its neighbours and theirs (two hops)."""
        from wave_agent.write.entities import link_type_of

        user_id = _user(request)
        graph = await self.services.graph()
        root = await graph.get_entity(user_id, request.path_params["id"])
        if root is None:
            return JSONResponse({"error": "not found"}, 404)
        names = {root.id: root}
        edges: dict[tuple[str, str, str], int] = {}
        frontier = [root.id]
        for _hop in range(2):
            following: list[str] = []
            for entity_id in frontier:
                for rel in await graph.relations(user_id, entity_id):
                    edges[(rel.source_id, rel.target_id, link_type_of(rel))] = 1
                    for other in (rel.source_id, rel.target_id):
                        if other not in names:
                            found = await graph.get_entity(user_id, other)
                            if found is not None:
                                names[other] = found
                                following.append(other)
            frontier = following
        nodes = [{"data": {"id": e.id, "label": e.name, "type": e.type.value,
                           "root": e.id == root.id}} for e in names.values()]
        lang = self.lang(request)
        links = [{"data": {"id": f"{s}-{t}-{k}", "source": s, "target": t,
                           "label": i18n.link_name(k, lang)}}
                 for (s, t, k) in edges if s in names and t in names]
        return JSONResponse({"nodes": nodes, "edges": links})

    # -- days, snapshots, reflect --------------------------------------------------------------

    async def days(self, request: Request) -> Response:
        user_id = _user(request)
        episodes = await self.services.episodes()
        found = sorted(await episodes.days(user_id), reverse=True)
        snapshots = await (await self.services.snapshots()).recent(user_id, limit=20)
        return self.render(request, "days.html", days=found, snapshots=snapshots)

    async def day(self, request: Request) -> Response:
        user_id = _user(request)
        try:
            wanted = date.fromisoformat(request.path_params["day"])
        except ValueError:
            return await self.not_found(request, KeyError())
        found = await (await self.services.episodes()).read_day(user_id, wanted)
        return self.render(request, "day.html", day=wanted, lines=found.entries)

    async def reflect(self, request: Request) -> Response:
        user_id = _user(request)
        question = (request.query_params.get("q") or "").strip()
        result = None
        if question:
            result = await (await self.services.reflect()).reflect(user_id, question)
        return self.render(request, "reflect.html", question=question, result=result)

    # -- health, blocks, export ----------------------------------------------------------------

    async def health(self, request: Request) -> Response:
        from wave_agent.ops.health import health_report, render_text

        user_id = _user(request)
        report = await health_report(self.services.ops_stores(), user_id)
        graph = await self.services.graph()
        facts = await graph.list_facts(user_id)
        conflicts = await graph.list_conflicts(user_id, resolved=None)
        from wave_agent.ops import health_history

        samples = health_history.read(self.services.settings.data_dir, user_id)
        queues = {"labels": [x["at"][:16].replace("T", " ") for x in samples],
                  **{name: [x.get(name) for x in samples]
                     for name in ("drift", "proposals", "quarantine", "outbox")}}
        return self.render(request, "health.html", report=report, text=render_text(report),
                           series=_series(facts, conflicts), queues=queues)

    async def blocks(self, request: Request) -> Response:
        user_id = _user(request)
        store = await self.services.blocks()
        shown = []
        for label in ("human", "persona"):
            block = await store.get(user_id, label)
            versions = await store.history(user_id, label)
            diffs = []
            for older, newer in itertools.pairwise(versions):
                diffs.append((newer, "\n".join(difflib.unified_diff(
                    older.value.splitlines(), newer.value.splitlines(),
                    f"v{older.version}", f"v{newer.version}", lineterm=""))))
            shown.append((block, list(reversed(diffs))))
        return self.render(request, "blocks.html", blocks=shown)

    async def export(self, request: Request) -> Response:
        return self.render(request, "export.html")

    async def export_json(self, request: Request) -> Response:
        from wave_agent.app.export import export_memory

        user_id = _user(request)
        done = await export_memory(
            user_id, graph=await self.services.graph(), blocks=await self.services.blocks(),
            episodes=await self.services.episodes(), snapshots=await self.services.snapshots())
        return Response(done.json_bytes, media_type="application/json", headers={
            "content-disposition": f'attachment; filename="wave-memory-{datetime.now(UTC):%Y%m%d}.json"'})


class _Guard:
    """Every page but /login and /static needs a session; every POST needs its CSRF token.
    A store that is down is one page saying so, never a traceback."""

    def __init__(self, app: Any, web: WebApp) -> None:
        self.app = app
        self.web = web

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        path = scope["path"]
        if path != "/login" and not path.startswith("/static/"):
            session = self.web.session(request)
            if session is None:
                response = self.web.refuse(
                    request, 401, N_("Please log in"),
                    N_("Open the login link that `wave web` printed, or ask the bot for /web."))
                await response(scope, receive, send)
                return
            scope.setdefault("state", {})["user_id"] = session.user_id
            if scope["method"] == "POST":
                body = await request.body()
                fields = parse_qs(body.decode("utf-8", "replace"))
                sent = request.headers.get("x-csrf-token") or (fields.get("csrf") or [""])[0]
                receive = _replay(body)
                if not hmac.compare_digest(sent, session.csrf(self.web.secret)):
                    response = self.web.refuse(
                        request, 403, N_("Refused: the form is stale"),
                        N_("This action did not carry the page's security token. Reload the "
                           "page and try again."))
                    await response(scope, receive, send)
                    return
        try:
            await self.app(scope, receive, send)
        except WaveError as exc:
            log.warning("page %s failed: %s", path, exc)
            response = self.web.refuse(request, 503, N_("Memory could not be read"), str(exc))
            await response(scope, receive, send)


def _replay(body: bytes) -> Any:
    """A ``receive`` that hands the already-read body to the route (read once for CSRF)."""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


def _user(request: Request) -> str:
    return str(request.state.user_id)


def _pick(value: str | None, kind: Any) -> Any:
    if not value:
        return None
    try:
        return kind(value)
    except ValueError:
        return None


def _int(value: str | None, default: int) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


def _decay_svg(fact: Fact, *, days: int = 365, width: int = 320, height: int = 80) -> dict[str, Any]:
    """The record's recall weight over its first year (decay x confidence), as SVG points."""
    from wave_agent.recall.decay import record_factor

    points = []
    for step in range(0, days + 1, 5):
        at = fact.last_confirmed_at + timedelta(days=step)
        points.append((step, record_factor(fact, at)))
    top = max((v for _, v in points), default=1.0) or 1.0
    svg = " ".join(f"{width * d / days:.1f},{height - height * v / top:.1f}" for d, v in points)
    age = min(days, max(0, (utcnow() - fact.last_confirmed_at).days))
    now_weight = record_factor(fact, utcnow())
    return {"points": svg, "width": width, "height": height, "age": age,
            "x": width * age / days, "y": height - height * now_weight / top,
            "now": now_weight}


def _series(facts: list[Fact], conflicts: list[Any]) -> dict[str, Any]:
    """Records by tier and contradictions over time (cumulative, by day of creation)."""
    by_day: dict[str, Counter[str]] = {}
    for fact in facts:
        by_day.setdefault(fact.created_at.date().isoformat(), Counter())[fact.tier.value] += 1
    labels = sorted(by_day | {c.created_at.date().isoformat(): Counter() for c in conflicts})
    running: Counter[str] = Counter()
    tiers: dict[str, list[int]] = {t.value: [] for t in Tier}
    contradictions: list[int] = []
    for label in labels:
        running.update(by_day.get(label, Counter()))
        for tier in tiers:
            tiers[tier].append(running[tier])
        contradictions.append(sum(1 for c in conflicts if c.created_at.date().isoformat() <= label))
    return {"labels": labels, "tiers": tiers, "contradictions": contradictions}


def build_app(services: Services) -> tuple[Starlette, WebApp]:
    web = WebApp(services, secret=auth.load_secret(services.settings))
    return web.app(), web


__all__ = ["WebApp", "build_app"]
