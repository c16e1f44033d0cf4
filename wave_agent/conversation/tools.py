"""The model's tools and their dispatch.

Five tools: ``memory_search``, ``memory_reflect``, ``remember``, ``supersede``, ``forget``.
Arguments are pydantic models, so the JSON schema the model sees and the validation it gets
are the same thing. Malformed output from the model (bad JSON, an unknown tool, arguments that
do not validate) never crashes the turn: it becomes a tool message that says what was wrong
and how to call correctly, which the model reads and can act on. A refusal of the store
(``WaveError``) goes back the same way, with its next step.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wave_agent.errors import WaveError
from wave_agent.infra.lazy import Open
from wave_agent.llm.client import BadToolArguments, ToolCall, ToolSpec

if TYPE_CHECKING:
    from graph.models import Fact
    from wave_agent.recall import Recall
    from wave_agent.write.writer import Writer

log = logging.getLogger("wave.tools")

MAX_TOOL_RESULT_CHARS = 4_000


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class MemorySearchArgs(_Args):
    query: str = Field(min_length=1, max_length=500, description="What to look for, in words.")
    limit: int = Field(default=5, ge=1, le=20, description="How many records at most.")
    include_history: bool = Field(
        default=False, description="Also return superseded records (for 'what was it before?')."
    )


class MemoryReflectArgs(_Args):
    question: str = Field(
        min_length=3, max_length=500,
        description="A question about change over time, e.g. 'how has his attitude to work changed?'",
    )


class RememberArgs(_Args):
    text: str = Field(
        min_length=1, max_length=2000,
        description="One self-contained fact about the person, in their language.",
    )
    type: Literal[
        "identity", "preference", "relationship", "decision", "event", "commitment", "state"
    ] | None = Field(default=None, description="Fact type; omit to let Wave decide.")
    stated_by_person: bool = Field(
        default=True, description="True if the person said it; false if you inferred it."
    )


class SupersedeArgs(_Args):
    old_id: str = Field(min_length=3, max_length=40, description="Id of the outdated fact (f-...).")
    new_text: str = Field(min_length=1, max_length=2000, description="The fact as it is now.")


class ForgetArgs(_Args):
    id: str = Field(min_length=3, max_length=40, description="Id of the fact to forget (f-...).")
    reason: str = Field(default="", max_length=300, description="Why, in a few words.")


TOOL_ARGS: dict[str, type[_Args]] = {
    "memory_search": MemorySearchArgs,
    "memory_reflect": MemoryReflectArgs,
    "remember": RememberArgs,
    "supersede": SupersedeArgs,
    "forget": ForgetArgs,
}

DESCRIPTIONS = {
    "memory_search": "Search long-term memory with another query than the person's message. "
    "Returns records with ids and dates.",
    "memory_reflect": "Gather memories across time and write a short narrative with dates and "
    "record ids. Use for questions about how something changed.",
    "remember": "Store one fact the person asked you to keep. Facts are also extracted "
    "automatically after each reply; use this only when asked or when it is important.",
    "supersede": "Replace an outdated fact (by id) with its current version; the old one is "
    "kept for history.",
    "forget": "Propose forgetting a fact (by id); the person confirms it.",
}


def _schema(model: type[_Args]) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return schema


TOOL_SPECS: tuple[ToolSpec, ...] = tuple(
    ToolSpec(name, DESCRIPTIONS[name], _schema(model)) for name, model in TOOL_ARGS.items()
)

Handler = Callable[[str, Any], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    call: ToolCall
    content: str  # what goes back to the model
    ok: bool
    error: str | None = None


class ToolDispatcher:
    """Validates and runs the model's tool calls for one user; never raises on bad calls."""

    def __init__(self, handlers: Mapping[str, Handler]) -> None:
        unknown = set(handlers) - set(TOOL_ARGS)
        if unknown:
            raise ValueError(f"handlers for unknown tools: {sorted(unknown)}")
        self.handlers = dict(handlers)

    @property
    def specs(self) -> tuple[ToolSpec, ...]:
        return tuple(spec for spec in TOOL_SPECS if spec.name in self.handlers)

    async def run(self, user_id: str, call: ToolCall) -> ToolOutcome:
        handler = self.handlers.get(call.name)
        if handler is None:
            names = ", ".join(sorted(self.handlers)) or "none"
            return self._refuse(call, f"unknown tool {call.name!r}. Available tools: {names}. "
                                      "Call one of them, or answer without a tool")
        try:
            raw = call.parsed_arguments()
        except BadToolArguments as exc:
            return self._refuse(call, str(exc))
        try:
            args = TOOL_ARGS[call.name].model_validate(raw)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                for err in exc.errors()
            )
            schema = json.dumps(_schema(TOOL_ARGS[call.name])["properties"], ensure_ascii=False)
            return self._refuse(
                call,
                f"tool {call.name}: bad arguments ({problems}). Next: call {call.name} again "
                f"with arguments matching {schema}",
            )
        try:
            content = await handler(user_id, args)
        except WaveError as exc:
            return self._refuse(call, f"tool {call.name} refused: {exc}")
        except Exception as exc:
            log.exception("tool %s failed", call.name)
            return self._refuse(
                call,
                f"tool {call.name} failed ({type(exc).__name__}). Next: answer with what you "
                "already know and say that memory could not be reached just now",
            )
        if len(content) > MAX_TOOL_RESULT_CHARS:
            content = content[: MAX_TOOL_RESULT_CHARS - 40].rstrip() + "\n… (more results cut)"
        return ToolOutcome(call, content, ok=True)

    @staticmethod
    def _refuse(call: ToolCall, message: str) -> ToolOutcome:
        log.warning("tool call %s (%s) refused: %s", call.name, call.id, message)
        return ToolOutcome(call, "ERROR: " + message, ok=False, error=message)


# Handlers over recall, the writer and reflection ----------------------------------------------


class Reflecting(Protocol):
    """What ``memory_reflect`` calls (``wave_agent.app.reflect.Reflector``, which lives above
    the conversation and is handed in by the composition root)."""

    async def reflect(self, user_id: str, question: str) -> object: ...


def _fact_line(fact: Fact) -> str:
    return (f"[{fact.id}] {fact.text} ({fact.type.value}, {fact.tier.value}, "
            f"{fact.status.value}, {fact.created_at:%Y-%m-%d})")


def build_handlers(
    recall: Open[Recall],
    writer: Open[Writer],
    reflector: Open[Reflecting] | None = None,
) -> dict[str, Handler]:
    """The five tools. Each store is opened when a tool is called, so a store that is down
    costs that call (an error the model reads), not the turn. Without ``reflector``,
    ``memory_reflect`` answers that it is not available and suggests ``memory_search``. A write
    announces itself (the writer's ``MemoryChanges``): the turn's cached notes follow without a
    call."""
    from graph.models import FactType, ProposalKind, Veracity

    async def memory_search(user_id: str, args: MemorySearchArgs) -> str:
        from wave_agent.conversation.reads import facts_of

        result = await (await recall()).search(user_id, args.query, k=args.limit,
                                               history=args.include_history)
        facts = facts_of(result)
        if not args.include_history:
            facts = [f for f in facts if f.in_prompt_path]
        if not facts:
            return "No records found. Try other words, or say you do not know."
        return "\n".join(_fact_line(f) for f in facts[: args.limit])

    async def memory_reflect(user_id: str, args: MemoryReflectArgs) -> str:
        if reflector is None:
            return ("ERROR: memory_reflect is not available in this build. Next: use "
                    "memory_search with a few queries instead")
        return str(await (await reflector()).reflect(user_id, args.question))

    async def remember(user_id: str, args: RememberArgs) -> str:
        result = await (await writer()).remember(
            user_id,
            args.text,
            type=FactType(args.type) if args.type else None,
            veracity=Veracity.STATED if args.stated_by_person else Veracity.INFERRED,
        )
        return str(result.message)

    async def supersede(user_id: str, args: SupersedeArgs) -> str:
        result = await (await writer()).supersede(user_id, args.old_id, args.new_text)
        return str(result.message)

    async def forget(user_id: str, args: ForgetArgs) -> str:
        proposal = await (await writer()).propose(
            user_id, ProposalKind.DELETE, [args.id], args.reason or "the model proposed forgetting it"
        )
        return (f"proposed forgetting #{args.id} ({proposal.id}); nothing is deleted until the "
                "person approves it with /proposals. Tell them so.")

    return {
        "memory_search": memory_search,
        "memory_reflect": memory_reflect,
        "remember": remember,
        "supersede": supersede,
        "forget": forget,
    }
