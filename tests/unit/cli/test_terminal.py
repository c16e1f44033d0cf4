"""``wave chat``'s screen: notices only, never inside the input line; one outage, two lines."""

from __future__ import annotations

import io
import logging

import pytest

from wave_agent.cli.chat_cmd import NOT_UTF8, read_line
from wave_agent.cli.terminal import Screen, ScreenHandler
from wave_agent.infra.outage import DriverOutageFilter, Outages


def test_a_notice_while_the_prompt_waits_is_printed_after_the_line_not_inside_it() -> None:
    stream = io.StringIO()
    screen = Screen(stream)
    screen.prompt("> ")
    screen.say("wave: Neo4j is not answering")
    assert stream.getvalue() == "> "  # the person may be typing: nothing lands on their line
    screen.line_read()
    assert stream.getvalue() == "> wave: Neo4j is not answering\n"


def test_the_screen_shows_notices_and_hides_the_rest_unless_verbose() -> None:
    quiet, loud = io.StringIO(), io.StringIO()
    logger = logging.getLogger("wave.test.terminal")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    handlers = [ScreenHandler(Screen(quiet), verbose=False), ScreenHandler(Screen(loud), verbose=True)]
    for handler in handlers:
        logger.addHandler(handler)
    try:
        logger.info("created archive collection wave__x")
        logger.warning("recall voice lexical timed out")
        logger.warning("start Neo4j: `wave services up`", extra={"notice": True})
    finally:
        for handler in handlers:
            logger.removeHandler(handler)
    assert quiet.getvalue() == "wave: start Neo4j: `wave services up`\n"
    assert "created archive collection" in loud.getvalue() and "timed out" in loud.getvalue()


def test_a_line_that_is_not_utf8_is_one_line_and_skipped() -> None:
    stream = io.StringIO()
    assert read_line(b"\xff\xfe\n", 2, Screen(stream)) is None
    assert stream.getvalue() == NOT_UTF8.format(2) + "\n"
    assert read_line("Привет\n".encode(), 3, Screen(stream)) == "Привет\n"


def test_driver_warnings_of_one_outage_become_one_line_and_its_end_another(
    caplog: pytest.LogCaptureFixture,
) -> None:
    outages = Outages()
    driver = logging.getLogger("neo4j.session.test")
    driver.addFilter(DriverOutageFilter(outages))
    caplog.set_level(logging.INFO)
    for attempt in range(64):
        driver.warning("Transaction failed and will be retried in %ss (%s)", 1.0,
                       f"Couldn't connect to localhost:7687 (attempt {attempt})\nblock line")
    outages.answered("Neo4j")
    outages.answered("Neo4j")
    shown = [r.getMessage() for r in caplog.records]
    assert len(shown) == 2, shown
    assert shown[0].startswith("Neo4j is not answering (Transaction failed") and "\n" not in shown[0]
    assert shown[1].startswith("Neo4j answers again")
    assert all(getattr(r, "notice", False) for r in caplog.records)



def test_stale_connections_after_neo4j_returns_open_no_second_outage(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Regression (merge of the restart fix and the outage lines): after Neo4j came back, the
    pool's dead connections made the driver warn once more, and a second outage was logged."""
    outages = Outages()
    driver = logging.getLogger("neo4j.io.test")
    driver.addFilter(DriverOutageFilter(outages))
    caplog.set_level(logging.INFO)
    driver.warning("Transaction failed and will be retried in 1.0s (Couldn't connect to x)")
    outages.answered("Neo4j")
    driver.warning("Transaction failed and will be retried in 0.9s (Failed to read from "
                   "defunct connection IPv4Address(('127.0.0.1', 7687)))")
    driver.warning("Transaction failed and will be retried in 0.8s (Failed to read from closed "
                   "connection IPv4Address(('127.0.0.1', 7687)))")
    shown = [r.getMessage() for r in caplog.records]
    assert len(shown) == 2 and shown[1].startswith("Neo4j answers again"), shown
    assert not outages.is_down("Neo4j")


def test_a_busy_retry_or_a_closing_connection_is_not_an_outage(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 30: "Neo4j is not answering" was printed while Neo4j was up, once for
    ``AttributeError: 'NoneType' object has no attribute 'complete'`` (a query on a pooled
    connection the driver was closing). Only "cannot reach the server" is an outage."""
    from graph.errors import GraphBusy, GraphUnavailable
    from wave_agent.infra.outage import is_outage

    outages = Outages()
    driver = logging.getLogger("neo4j.session.test-busy")
    driver.addFilter(DriverOutageFilter(outages))
    caplog.set_level(logging.INFO)
    driver.warning("Transaction failed and will be retried in 1.0s ({code: "
                   "Neo.TransientError.Transaction.DeadlockDetected} {message: deadlock})")
    driver.warning("[#C1A2]  _: <CONNECTION> RESET received SUCCESS (unexpected response) "
                   "=> dropping connection")
    assert not outages.is_down("Neo4j")
    assert not any(getattr(r, "notice", False) for r in caplog.records)
    assert not is_outage(AttributeError("'NoneType' object has no attribute 'complete'"))
    assert not is_outage(GraphBusy("deadlock"))
    assert is_outage(GraphUnavailable("bolt://127.0.0.1:7687", "connection refused"))
    # CI, stop 47: right after a restart a read met a pooled connection the restart had killed
    assert not is_outage(GraphUnavailable(
        "bolt://127.0.0.1:7687", "Failed to read from defunct connection IPv4Address(('127.0.0.1', 7687))"))
    driver.warning("Transaction failed and will be retried in 1.0s (Couldn't connect to x)")
    assert outages.is_down("Neo4j")  # a real outage still opens one
