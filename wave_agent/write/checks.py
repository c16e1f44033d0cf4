"""What a text must be before the writer stores it: the refusals that need no store.

Pure functions the writer calls first, and the CLI and MCP server call before they open any
store, so a refusal (empty, too long, not UTF-8, a record replacing itself) costs nothing and
always names the working next step. A text longer than one record (``MAX_FACT_CHARS``) is not
refused by ``check_text``: the writer stores it in pieces (``policy.edge_input.pieces``); only
one past ``MAX_TEXT_CHARS`` is, and a replacement (``check_record_text``) must fit one record.
"""

from __future__ import annotations

from graph.models import MAX_FACT_CHARS, MAX_TEXT_CHARS
from wave_agent.policy.edge_input import not_utf8
from wave_agent.write.result import WriteRejected


def check_text(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """The text as it will be stored (in pieces when longer than one record), or
    ``WriteRejected`` (never truncated)."""
    cleaned = text.strip()
    if not_utf8(cleaned):  # lone surrogates: bytes that were not UTF-8 (argv, a pipe)
        raise WriteRejected("Cannot remember this text: it is not valid UTF-8",
                            next_step="retype it in a UTF-8 terminal (check `locale`) or "
                                      "convert the file with `iconv -t UTF-8`")
    if not cleaned:
        raise WriteRejected("Cannot remember an empty text",
                            next_step="say what to remember, e.g. `wave remember \"...\"`")
    if len(cleaned) > limit:
        raise WriteRejected(
            f"Cannot remember a text of {len(cleaned):,} characters: the limit is "
            f"{limit:,} and texts are never cut",
            next_step=(f"split it into notes under {limit:,} characters, or save the "
                       "document and remember a summary"),
        )
    return cleaned


def check_record_text(text: str) -> str:
    """``check_text`` for a text that must be one record (a replacement of one record)."""
    return check_text(text, MAX_FACT_CHARS)


def check_supersede_target(old_id: str | None, text: str) -> str:
    """The target id, or the refusal for a missing target or a record replacing itself."""
    if not old_id or not old_id.strip():
        raise WriteRejected(
            "Cannot supersede: say which record this replaces",
            next_step="`wave supersede <id> \"new text\"` (ids from `wave recall` or "
                      "`wave facts`); to add a new record instead, `wave remember`")
    old_id = old_id.strip()
    if text.strip() == old_id:
        raise WriteRejected(
            f"Cannot supersede #{old_id} by itself",
            next_step=f"give the new text: `wave supersede {old_id} \"new text\"`; if it is "
                      "still true as it is, `wave remember` the same words to confirm it")
    return old_id


__all__ = ["check_record_text", "check_supersede_target", "check_text"]
