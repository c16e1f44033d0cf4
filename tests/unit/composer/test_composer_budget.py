"""The one composer: one ceiling, exact eviction order, excerpt caps and visibility."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from wave_agent.conversation.composer import (
    DEEPER_WINDOW,
    EXCERPTS,
    FRAME,
    LAST_EXCHANGE,
    NOTES,
    PERSONA,
    SUMMARY,
    Composer,
    ComposerInput,
    Exchange,
    Note,
)
from wave_agent.llm.prompts.system import Section

NOW = datetime(2026, 6, 3, 12, 0, tzinfo=UTC)


def _exchange(i: int, size: int = 400) -> Exchange:
    return Exchange(f"x-{i}", f"question {i} " + "q" * (size // 2), f"answer {i} " + "a" * (size // 2))


def _greedy_input(n: int = 200) -> ComposerInput:
    """Every layer asks for far more than the whole budget."""
    return ComposerInput(
        now=NOW,
        message="what about my trip?",
        persona=[Section("About the person", "p" * 3000), Section("About Wave", "w" * 3000)],
        last_exchange=_exchange(999, 600),
        summary=[f"summary item {i} " + "s" * 180 for i in range(n)],
        notes=[Note(f"f-{i:04d}", f"note {i} " + "n" * 150, "identity") for i in range(n)],
        excerpts=[Note(f"f-e{i}", f"excerpt {i} " + "e" * 300) for i in range(n)],
        deeper_window=[_exchange(i) for i in range(n)],
    )


def _actual_budgeted_chars(composer: Composer, inp: ComposerInput) -> tuple[int, int]:
    composition = composer.compose(inp)
    outside = composition.layer(PERSONA).got_chars + composition.layer(FRAME).got_chars
    return composition.prefix_chars - outside, composition.spent_chars


@pytest.mark.parametrize("budget", [2_000, 5_000, 18_000, 40_000])
def test_budget_holds_when_every_layer_asks_too_much(budget: int) -> None:
    composer = Composer(budget)
    inp = _greedy_input()
    actual, spent = _actual_budgeted_chars(composer, inp)
    assert spent <= budget
    # The accounting is exact: what the layers report is what the prefix carries.
    assert actual == spent
    composition = composer.compose(inp)
    for layer in composition.layers:
        assert layer.got_chars <= layer.asked_chars


def test_persona_is_outside_the_budget_and_never_cut() -> None:
    composition = Composer(2_000).compose(_greedy_input())
    persona = composition.layer(PERSONA)
    assert not persona.in_budget
    assert persona.got_chars == persona.asked_chars
    assert "p" * 3000 in composition.system and "w" * 3000 in composition.system


def test_last_exchange_is_never_cut_even_over_the_ceiling() -> None:
    inp = _greedy_input()
    huge = Exchange("x-big", "u" * 3000, "r" * 3000)
    composition = Composer(2_000).compose(
        ComposerInput(now=NOW, message="m", last_exchange=huge, summary=inp.summary,
                      notes=inp.notes, excerpts=inp.excerpts, deeper_window=inp.deeper_window)
    )
    assert composition.layer(LAST_EXCHANGE).got_chars == 6000
    assert [m.content for m in composition.prefix] == ["u" * 3000, "r" * 3000]
    for name in (SUMMARY, NOTES, EXCERPTS, DEEPER_WINDOW):
        assert composition.layer(name).got_chars == 0


def test_eviction_order_is_exact() -> None:
    """Shrinking the ceiling takes from the right first: window, excerpts, notes, summary."""
    inp = ComposerInput(
        now=NOW,
        message="m",
        last_exchange=_exchange(100, 200),
        summary=[f"summary {i} " + "s" * 90 for i in range(10)],
        notes=[Note(f"f-{i}", f"note {i} " + "n" * 90) for i in range(10)],
        excerpts=[Note(f"f-e{i}", f"excerpt {i} " + "e" * 90) for i in range(4)],
        deeper_window=[_exchange(i, 200) for i in range(10)],
    )
    full = Composer(1_000_000).compose(inp)
    need = {layer.name: layer.asked_chars for layer in full.layers}
    assert all(full.layer(n).got_chars == need[n] for n in (SUMMARY, NOTES, EXCERPTS, DEEPER_WINDOW))

    previous: dict[str, int] | None = None
    order = [LAST_EXCHANGE, SUMMARY, NOTES, EXCERPTS, DEEPER_WINDOW]
    for budget in range(sum(need[n] for n in order), 1_999, -37):
        got = {layer.name: layer.got_chars for layer in Composer(budget).compose(inp).layers}
        # A layer loses anything only when every layer to its right has nothing left.
        for i, name in enumerate(order):
            if got[name] < need[name]:
                assert all(got[right] == 0 or got[right] < need[right] for right in order[i + 1:])
                right_has = [r for r in order[i + 1:] if got[r] > 0]
                assert not right_has, f"budget {budget}: {name} cut while {right_has} kept chars"
        if previous is not None:
            assert all(got[n] <= previous[n] for n in order)
        previous = got
    assert previous is not None and previous[LAST_EXCHANGE] == need[LAST_EXCHANGE]


def test_deeper_window_keeps_the_newest_exchanges() -> None:
    inp = ComposerInput(now=NOW, message="m", deeper_window=[_exchange(i, 400) for i in range(10)])
    composition = Composer(2_000).compose(inp)
    shown = [m.content for m in composition.prefix if m.role == "user"]
    numbers = [int(text.split()[1]) for text in shown]
    assert numbers and numbers == list(range(10 - len(numbers), 10))
    assert len(numbers) < 10
    assert composition.layer(DEEPER_WINDOW).got_items == len(shown)


def test_excerpts_are_capped_at_four_and_two_thousand_chars() -> None:
    few_big = [Note(f"f-b{i}", "b" * 900) for i in range(5)]
    many_small = [Note(f"f-s{i}", f"small {i}") for i in range(10)]
    for hits, most in ((few_big, 2), (many_small, 4)):
        composition = Composer(18_000).compose(ComposerInput(now=NOW, message="m", excerpts=hits))
        assert len(composition.excerpt_ids) == most
        section = composition.system.split("## Excerpts", 1)[1]
        assert len(section) < 2_000 + 200


def test_excerpts_ride_in_the_prompt_never_in_history() -> None:
    hit = Note("f-1", "The user lives in Berlin")
    composition = Composer(18_000).compose(
        ComposerInput(now=NOW, message="where do I live?", excerpts=[hit])
    )
    assert "The user lives in Berlin" in composition.system
    assert composition.prefix == ()
    assert composition.memory_lines == ("The user lives in Berlin",)


def test_excerpts_already_visible_are_dropped() -> None:
    last = Exchange("x-1", "I moved to Lisbon last week", "Noted!")
    notes = [Note("f-note", "The user likes green tea")]
    excerpts = [
        Note("f-note", "The user likes green tea"),  # already a note
        Note("f-said", "I moved to Lisbon last week"),  # said in the window
        Note("f-from-window", "The user moved", exchange_ids=("x-1",)),  # extracted from it
        Note("f-new", "The user's sister is Ola"),
    ]
    composition = Composer(18_000).compose(
        ComposerInput(now=NOW, message="m", last_exchange=last, notes=notes, excerpts=excerpts)
    )
    assert composition.excerpt_ids == ("f-new",)
    assert set(composition.dropped_visible) == {"f-note", "f-said", "f-from-window"}
    assert "1 already visible" not in composition.layer(EXCERPTS).note
    assert "3 already visible" in composition.layer(EXCERPTS).note


def test_failed_sections_are_reported() -> None:
    composition = Composer(18_000).compose(
        ComposerInput(now=NOW, message="m", failed={NOTES: "graph timed out"})
    )
    assert "graph timed out" in composition.layer(NOTES).note


def test_offline_memory_lines_keep_hits_the_notes_already_show() -> None:
    """Regression: offline, "Как меня зовут?" answered "nothing found" although recall found
    the name, because the hit was dropped as already visible in the notes."""
    note = Note("f-name", "Пользователя зовут Влад")
    composition = Composer(18_000).compose(
        ComposerInput(now=NOW, message="Как меня зовут?", notes=[note], excerpts=[note])
    )
    assert composition.excerpt_ids == ()
    assert composition.memory_lines == ("Пользователя зовут Влад",)


def test_memory_that_could_not_be_read_is_told_to_the_model_not_passed_as_empty() -> None:
    """Regression: during an outage the turn looked like an empty memory."""
    down = Composer(18_000).compose(ComposerInput(
        now=NOW, message="Что ты знаешь про мою черепаху?",
        failed={EXCERPTS: "timed out after 2s", NOTES: "ServiceUnavailable"}))
    assert "## Memory status\nMemory could not be read" in down.system
    assert down.memory_unreadable and "timed out" in down.memory_unreadable
    fine = Composer(18_000).compose(ComposerInput(now=NOW, message="m"))
    assert "Memory status" not in fine.system and fine.memory_unreadable is None


def test_a_slow_store_is_told_to_the_offline_reply_as_slow() -> None:
    """The search missing because its store was slow, not down (``infra.outage.SLOW``): the
    reason says so first; with another section down too, it is down."""
    from wave_agent.infra.outage import SLOW, is_slow

    slow = Composer(18_000).compose(ComposerInput(
        now=NOW, message="Где я живу?", failed={EXCERPTS: f"{SLOW}still running after 8s"}))
    assert slow.memory_unreadable is not None and is_slow(slow.memory_unreadable)
    both = Composer(18_000).compose(ComposerInput(
        now=NOW, message="Где я живу?",
        failed={EXCERPTS: f"{SLOW}still running after 8s", NOTES: "ServiceUnavailable"}))
    assert both.memory_unreadable is not None and not is_slow(both.memory_unreadable)
