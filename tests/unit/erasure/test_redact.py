"""Which clauses of a source text carry an erased record, Russian first."""

from __future__ import annotations

from wave_agent.ops.erasure.redact import Trace, redact, redact_block, wave_written


def test_the_message_loses_the_clause_with_the_name_and_keeps_the_rest() -> None:
    trace = Trace.of(["Пользователя зовут Анна Вжжиковская"],
                     others=["Пользователь живёт в Казани"])
    said = "Меня зовут Анна Вжжиковская, я живу в Казани."
    assert redact(said, trace) == "я живу в Казани."


def test_a_reply_that_only_repeats_the_surname_loses_that_clause() -> None:
    trace = Trace.of(["Пользователя зовут Анна Вжжиковская"])
    reply = "Приятно познакомиться, госпожа Вжжиковская! Чем помочь?"
    out = redact(reply, trace)
    assert "Вжжиковская" not in out and "Приятно познакомиться" in out and "Чем помочь?" in out


def test_words_another_live_record_carries_are_not_distinctive() -> None:
    trace = Trace.of(["Пользователя зовут Анна Вжжиковская"],
                     others=["Девичья фамилия мамы тоже Вжжиковская"])
    assert "вжжиковск" not in trace.distinctive
    # a clause that only shares that word stays (the other record keeps it)
    assert redact("Мама тоже Вжжиковская.", trace) == "Мама тоже Вжжиковская."


def test_english_and_unrelated_text_are_left_alone() -> None:
    trace = Trace.of(["My surname is Whizzington"])
    assert redact("I like tea. I live in Leeds.", trace) == "I like tea. I live in Leeds."
    assert redact("Call me Whizzington, please. I live in Leeds.", trace) == (
        "please. I live in Leeds.")


def test_block_lines_go_whole_and_only_wave_written_versions_count() -> None:
    trace = Trace.of(["Пользователя зовут Анна Вжжиковская"])
    block = "- Пользователя зовут Анна Вжжиковская\n- Пользователь живёт в Казани"
    assert redact_block(block, trace) == "- Пользователь живёт в Казани"
    assert wave_written("post-processor: facts of exchange x-1")
    assert not wave_written("edited by hand outside Wave")
