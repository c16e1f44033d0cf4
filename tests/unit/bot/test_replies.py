"""Next steps written for the CLI name the bot's own way on Telegram."""

from __future__ import annotations

from wave_agent.bot.replies import for_telegram


def test_cli_listing_becomes_memory_and_the_user_hint_goes() -> None:
    text = "list ids with `wave facts` (add --user tg-1 if it is not the default)"
    assert for_telegram(text) == "list ids with /memory"


def test_approve_and_reject_point_at_the_buttons() -> None:
    text = "Next: `wave approve p-abc` to replace it, or `wave reject p-abc` to keep both"
    out = for_telegram(text)
    assert "✅ Approve button under p-abc in /proposals" in out
    assert "✖️ Reject button under p-abc in /proposals" in out
    assert "`wave" not in out


def test_commands_without_a_bot_equivalent_stay_with_their_user_hint() -> None:
    text = "`wave forget f-x` archives it, `wave delete f-x` erases it (add --user tg-1)"
    assert for_telegram(text) == "/forget f-x archives it, `wave delete f-x` erases it (add --user tg-1)"
