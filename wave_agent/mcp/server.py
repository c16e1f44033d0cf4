"""Wave's memory as an MCP server (``wave mcp``), on the official ``mcp`` SDK (2.x).

Each tool is a thin call into the operations the CLI and the bot use: the one writer
(``Writer.remember`` / ``supersede`` / ``propose``), ``Recall.search``, ``Reflector.reflect``,
``GraphStore.list_facts``. No rule is copied here: limits, quarantine, near-duplicates and
supersession are the writer's.

Trust: everything an MCP client writes is untrusted input. It goes through the writer's
quarantine exactly as a chat message does, and each record's provenance
(``source_message_ids``) names the client (``mcp:<client name>``). Approving proposals and
releasing quarantine are not offered: an agent must not approve its own writes; the person
does that in Telegram, the CLI or the web page.

Who the server acts for: one person. Over stdio that is ``--user``; over HTTP it is the person
of the bearer token the request carries (``TokenStore``: hashes of tokens under
``DATA_DIR/mcp/tokens.json``). A record of another person is answered as unknown, never
leaked: every graph read is scoped by the person.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError

from graph.models import FactType, ProposalKind, Status, Tier, Veracity, new_id
from wave_agent.errors import WaveError
from wave_agent.infra.tokens import TokenStore
from wave_agent.services import Services

log = logging.getLogger("wave.mcp")

T = TypeVar("T")

MAX_TEXT = 2_000
MAX_K = 50
MAX_FACTS = 500
NOT_APPROVABLE = (
    " Approving proposals and releasing quarantined records are left to the person (Telegram "
    "/proposals and /quarantine, `wave approve`, or the web page): an agent cannot approve its "
    "own writes."
)
TYPES = tuple(t.value for t in FactType)
TIERS = tuple(t.value for t in Tier)
STATUSES = tuple(s.value for s in Status)
BLOCKS = ("human", "persona")


# -- who the server acts for -----------------------------------------------------------------


def bearer(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer …`` header, if any."""
    value = headers.get("authorization") if headers is not None else None
    if not value:
        return None
    scheme, _, token = str(value).partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None




@dataclass(frozen=True, slots=True)
class Identity:
    """Resolves the person a request acts for: a fixed one (stdio) or the token's (HTTP)."""

    user_id: str | None = None
    tokens: TokenStore | None = None

    def of(self, ctx: Context) -> str:
        if self.tokens is None:
            assert self.user_id is not None
            return self.user_id
        token = bearer(ctx.headers)
        person = self.tokens.person(token) if token else None
        if person is None:  # the HTTP guard refuses these before any tool runs
            raise ToolError("not authorised: send `Authorization: Bearer <token>` "
                            "(make one with `wave mcp --new-token --user ID`)")
        return person


def client_name(ctx: Context) -> str:
    """The MCP client's own name (from its ``clientInfo``), for provenance."""
    try:
        params = ctx.session.client_params
    except Exception:
        params = None
    info = getattr(params, "client_info", None)
    name = str(getattr(info, "name", "") or "").strip()
    return name[:60] or "unknown-client"


# -- the server ------------------------------------------------------------------------------


def build_server(services: Services, identity: Identity) -> MCPServer:
    """The MCP server over ``services``: tools, resources and the ``memory`` prompt."""
    server: MCPServer = MCPServer(
        "wave-memory",
        title="Wave memory",
        instructions=(
            "Long-term memory of one person, kept by Wave. `recall` before answering about the "
            "person; `remember` facts they tell you (one self-contained statement each). "
            "Instruction-like text is quarantined until the person reviews it." + NOT_APPROVABLE
        ),
        log_level="WARNING",
    )

    async def call(op: Callable[[], Awaitable[T]],
                   error: type[ToolError | ResourceError] = ToolError) -> T:
        """Run one operation; a refusal becomes an MCP error a person can act on."""
        try:
            return await op()
        except (ToolError, ResourceError):
            raise
        except WaveError as exc:  # every layer's error, with its next step
            raise error(str(exc)) from exc

    def checked_text(text: str, what: str = "text", *, one_record: bool = False) -> str:
        from wave_agent.write.writer import check_record_text, check_text

        if not text or not text.strip():
            raise ToolError(f"{what} is empty. Next: give one self-contained statement, e.g. "
                            "'Anna works at the city library'")
        try:
            # the writer's own limits: a replacement is one record; a longer text is kept in pieces
            return check_record_text(text) if one_record else check_text(text)
        except WaveError as exc:
            raise ToolError(str(exc)) from exc

    def choice(value: str | None, allowed: tuple[str, ...], name: str) -> str | None:
        if value is None or not value.strip():
            return None
        cleaned = value.strip().lower()
        if cleaned not in allowed:
            raise ToolError(f"{name} {value!r} is not known. Next: use one of {', '.join(allowed)}")
        return cleaned

    @server.tool(description=(
        "Store one fact about the person through Wave's writer. The reply says what happened: "
        "created, confirmed (a near-duplicate of an existing record), proposed (it changes a "
        "number of an existing record: the person decides), or quarantined (it reads like an "
        "instruction to an AI: kept out of every prompt until the person reviews it), with the "
        f"reason and the next step. Text up to {MAX_TEXT} characters. `type` is one of "
        f"{', '.join(TYPES)} (omit it to let Wave decide)." + NOT_APPROVABLE))
    async def remember(text: str, ctx: Context, type: str | None = None,
                       stated_by_person: bool = True) -> dict[str, Any]:
        user_id = identity.of(ctx)
        cleaned = checked_text(text)
        kind = choice(type, TYPES, "type")

        async def go() -> dict[str, Any]:
            writer = await services.writer()
            result = await writer.remember(
                user_id, cleaned, type=FactType(kind) if kind else None,
                veracity=Veracity.STATED if stated_by_person else Veracity.INFERRED,
                exchange_id=new_id("mcp"), source_message_ids=(f"mcp:{client_name(ctx)}",),
            )
            out = result.as_json()
            if result.fact is not None and result.fact.type is FactType.COMMITMENT:
                from wave_agent.app.commitments import note_written

                noted = await note_written(await services.commitments(), user_id, result)
                if noted is not None:
                    out["commitment"] = noted.commitment.id
            return out

        return await call(go)

    @server.tool(description=(
        "Search the person's memory as Wave does before it answers (lexical, semantic, recent, "
        "graph and dated voices, fused). Returns records with id, text, date, tier, status and "
        "`found_by`: which voices found each record, and at what rank. `history` also returns "
        "replaced and archived records (for 'what was it before?')."))
    async def recall(query: str, ctx: Context, k: int = 5, history: bool = False) -> dict[str, Any]:
        from wave_agent.app.views import found_by
        from wave_agent.recall import hit_json

        user_id = identity.of(ctx)
        if not query or not query.strip():
            raise ToolError("query is empty. Next: give words to look for, e.g. 'where does "
                            "Anna work'")
        if not 1 <= k <= MAX_K:
            raise ToolError(f"k must be between 1 and {MAX_K}. Next: call again with k=5")

        async def go() -> dict[str, Any]:
            engine = await services.recall()
            hits = await engine.search(user_id, query, k=k, history=history)
            records = []
            for hit in hits:
                row = hit_json(hit)
                row["found_by"] = found_by(hit.ranks)
                records.append(row)
            notes = [f"answered without the {voice} voice: {reason}"
                     for voice, reason in hits.degraded.reasons.items()]
            if not records:
                notes.append("nothing found; try other words, or history=true")
            return {"query": query, "records": records, "note": "; ".join(notes) or None}

        return await call(go)

    @server.tool(description=(
        "How something changed over time: a short narrative over the person's records, "
        "episodes and sessions that cites dates and record ids (without a language model "
        "configured in Wave: a dated timeline)."))
    async def reflect(question: str, ctx: Context) -> dict[str, Any]:
        user_id = identity.of(ctx)
        if not question or len(question.strip()) < 3:
            raise ToolError("question is empty. Next: ask about a change over time, e.g. 'how "
                            "has my attitude to work changed?'")

        async def go() -> dict[str, Any]:
            result = await (await services.reflect()).reflect(user_id, question.strip())
            return dict(result.as_json())

        return await call(go)

    @server.tool(description=(
        "List the person's records, newest first, optionally filtered: tier one of "
        f"{', '.join(TIERS)}; status one of {', '.join(STATUSES)}. `limit` up to {MAX_FACTS}."))
    async def facts(ctx: Context, tier: str | None = None, status: str | None = None,
                    limit: int = 50) -> dict[str, Any]:
        from wave_agent.app.views import fact_json

        user_id = identity.of(ctx)
        tier_v = choice(tier, TIERS, "tier")
        status_v = choice(status, STATUSES, "status")
        if not 1 <= limit <= MAX_FACTS:
            raise ToolError(f"limit must be between 1 and {MAX_FACTS}. Next: call again with "
                            "limit=50")

        async def go() -> dict[str, Any]:
            graph = await services.graph()
            found = await graph.list_facts(
                user_id, tiers=[Tier(tier_v)] if tier_v else None,
                statuses=[Status(status_v)] if status_v else None)
            found.sort(key=lambda f: f.created_at, reverse=True)
            return {"count": len(found), "records": [fact_json(f) for f in found[:limit]]}

        return await call(go)

    @server.tool(description=(
        "The person's open commitments (promises and tasks with due times), soonest first: "
        "id (m-…), text, due time in UTC and as the person reads it, and whether the date said "
        "was unclear (needs_date)."))
    async def commitments(ctx: Context) -> dict[str, Any]:
        from wave_agent.app.commitments import commitment_json

        user_id = identity.of(ctx)

        async def go() -> dict[str, Any]:
            found = await (await services.commitments()).open(user_id)
            return {"count": len(found), "commitments": [commitment_json(c) for c in found]}

        return await call(go)

    @server.tool(description=(
        "Close or move one of the person's commitments (by id, m-…): action is done, cancel, "
        "reopen, tomorrow, week (a week later) or move (with `when` in words, e.g. 'в пятницу "
        "в 10', 'w piątek', 'next Tuesday at 9'). Do it only when the person said so."))
    async def close_commitment(id: str, action: str, ctx: Context,
                               when: str | None = None) -> dict[str, Any]:
        from wave_agent.app.commitments import ACTIONS, act, commitment_json

        user_id = identity.of(ctx)
        chosen = choice(action, ACTIONS, "action")
        if chosen is None:
            raise ToolError("action is empty. Next: use one of " + ", ".join(ACTIONS))

        async def go() -> dict[str, Any]:
            changed = await act(await services.commitments(), user_id, id.strip(), chosen, when)
            return commitment_json(changed)

        return await call(go)

    @server.tool(description=(
        "Ask the person to forget a record (by id, f-…): this makes a proposal; nothing leaves "
        "memory until the person approves it." + NOT_APPROVABLE))
    async def forget(id: str, ctx: Context, reason: str = "") -> dict[str, Any]:
        user_id = identity.of(ctx)
        record_id = _record_id(id)

        async def go() -> dict[str, Any]:
            writer = await services.writer()
            why = reason.strip()[:300] or f"asked by MCP client {client_name(ctx)}"
            proposal = await writer.propose(user_id, ProposalKind.DELETE, [record_id], why)
            return {"status": "proposed", "proposal": proposal.id, "target": record_id,
                    "message": f"proposed forgetting #{record_id} ({proposal.id}); nothing is "
                               "removed until the person approves it. Tell them so."}

        return await call(go)

    @server.tool(description=(
        "Replace an outdated record (by id, f-…) with its current version: the old record "
        "leaves the prompt and stays in its history. Instruction-like text is refused."))
    async def supersede(id: str, text: str, ctx: Context) -> dict[str, Any]:
        user_id = identity.of(ctx)
        record_id = _record_id(id)
        cleaned = checked_text(text, one_record=True)

        async def go() -> dict[str, Any]:
            writer = await services.writer()
            result = await writer.supersede(user_id, record_id, cleaned,
                                            exchange_id=new_id("mcp"))
            return result.as_json()

        return await call(go)

    # -- resources -----------------------------------------------------------------------------

    @server.resource("wave://blocks/{label}", name="core block",
                     description="A core block Wave puts in every prompt: `human` (the person's "
                                 "portrait) or `persona` (Wave's own profile).",
                     mime_type="text/markdown")
    async def read_block(label: str, ctx: Context) -> str:
        user_id = identity.of(ctx)
        if label not in BLOCKS:
            raise ResourceError(f"no core block {label!r}. Next: read wave://blocks/human or "
                                "wave://blocks/persona")
        return await call(lambda: _block(services, user_id, label), ResourceError)

    @server.resource("wave://episodes/{day}", name="episode log",
                     description="The episode log of one day as markdown: `today` (the "
                                 "person's time zone) or a date, YYYY-MM-DD.",
                     mime_type="text/markdown")
    async def read_episodes(day: str, ctx: Context) -> str:
        user_id = identity.of(ctx)
        return await call(lambda: _episodes(services, user_id, day), ResourceError)

    # -- the prompt ----------------------------------------------------------------------------

    @server.prompt(name="memory", description=(
        "The memory sections Wave would put before a message about `query` (core blocks, "
        "notes, recent days, recall excerpts), under the same character budget a turn uses."))
    async def memory(query: str, ctx: Context) -> str:
        user_id = identity.of(ctx)

        async def go() -> str:
            turns = await services.turns()
            return await turns.memory_sections(user_id, query)

        return await call(go)

    return server


def _record_id(value: str) -> str:
    cleaned = (value or "").strip()
    if not cleaned:
        raise ToolError("id is empty. Next: take an id (f-…) from `recall` or `facts`")
    if len(cleaned) > 80:
        raise ToolError("that is not a record id. Next: take an id (f-…) from `recall` or `facts`")
    return cleaned


async def _block(services: Services, user_id: str, label: str) -> str:
    store = await services.blocks()
    block = await store.get(user_id, label)
    return block.value


async def _episodes(services: Services, user_id: str, day: str) -> str:
    episodes = await services.episodes()
    if day == "today":
        wanted = datetime.now(await episodes.timezone_for(user_id)).date()
    else:
        try:
            wanted = date.fromisoformat(day)
        except ValueError as exc:
            raise ResourceError(f"{day!r} is not a day. Next: read wave://episodes/today or "
                                "wave://episodes/YYYY-MM-DD") from exc
    found = await episodes.read_day(user_id, wanted)
    if not found.entries:
        return f"# {wanted.isoformat()}\n\n(nothing recorded on this day)\n"
    return f"# {wanted.isoformat()}\n\n" + "\n".join(f"- {line.text}" for line in found.entries) + "\n"


# -- HTTP: the bearer-token guard -------------------------------------------------------------


class BearerGuard:
    """ASGI middleware: every request needs a valid bearer token, else 401 and nothing runs."""

    def __init__(self, app: Any, tokens: TokenStore) -> None:
        self.app = app
        self.tokens = tokens

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        token = bearer(headers)
        if token is None or self.tokens.person(token) is None:
            body = json.dumps({"error": "unauthorized",
                               "message": "a valid `Authorization: Bearer <token>` header is "
                                          "required; make a token with `wave mcp --new-token`"})
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"www-authenticate", b"Bearer")]})
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await self.app(scope, receive, send)
