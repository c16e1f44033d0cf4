"""A store's outage, logged once when it begins and once when it ends.

During an outage the Neo4j driver logs a warning block for every retried transaction (80 s of
outage printed 64 of them into ``wave chat``). ``DriverOutageFilter`` turns the driver's
warnings into one line of ours; the code that sees the store answer again (the notes read, the
post-processor's ping) calls ``answered``, which logs the end once. Records of both carry
``notice=True``: a person must act on them (start the store), so ``wave chat`` shows them.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("wave.outage")

NEO4J = "Neo4j"
DRIVER_LOGGERS = ("neo4j", "neo4j.session", "neo4j.io", "neo4j.pool", "neo4j.auth_management")
STALE_CONNECTION = ("defunct connection", "closed connection")
# A driver warning is an outage only when it says the server could not be reached; a retry of a
# busy (transient) transaction, a dropped pooled connection or a reset is the driver coping.
UNREACHABLE = ("couldn't connect", "could not connect", "unable to retrieve routing",
               "connection refused", "failed to establish connection", "cannot resolve",
               "serviceunavailable", "service unavailable", "sessionexpired")
NEXT_STEP = {NEO4J: "`wave services status` (or `wave services up`), or check NEO4J_URI"}
# A turn's section that ran out of time while its store still answered a health check: the
# start of its reason in the turn's ``failed`` map. Slow is not down: no outage line is told.
SLOW = "slow, not down: "


def is_slow(why: str) -> bool:
    """Whether a missing section's reason says its store was slow, not down (``SLOW``)."""
    return why.startswith(SLOW)


class Outages:
    """Which stores are down now (process-wide: the driver logs from anywhere)."""

    def __init__(self) -> None:
        self._down: dict[str, float] = {}
        self._lock = threading.Lock()

    def failed(self, store: str, detail: str) -> None:
        """The store did not answer: logged only when this opens an outage."""
        with self._lock:
            if store in self._down:
                return
            self._down[store] = time.monotonic()
        log.warning(
            "%s is not answering (%s): memory reads and writes wait until it is back. Next: %s",
            store, _one_line(detail), NEXT_STEP.get(store, "check the store"),
            extra={"notice": True},
        )

    def answered(self, store: str) -> None:
        """The store answered: logged only when this closes an outage."""
        with self._lock:
            began = self._down.pop(store, None)
        if began is not None:
            log.warning("%s answers again (it was not answering for %.0f s)", store,
                        time.monotonic() - began, extra={"notice": True})

    def is_down(self, store: str) -> bool:
        with self._lock:
            return store in self._down


OUTAGES = Outages()


def _one_line(detail: str) -> str:
    first = detail.strip().splitlines()[0] if detail.strip() else "no detail"
    return first[:160]


class DriverOutageFilter(logging.Filter):
    """The driver's warnings (retries, dropped connections) open an outage instead of being
    printed; everything below WARNING passes (it is filtered by level as usual)."""

    def __init__(self, outages: Outages | None = None) -> None:
        super().__init__()
        self.outages = outages or OUTAGES

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        try:
            detail = record.getMessage()
        except Exception:  # a malformed driver record: still an outage sign
            detail = str(record.msg)
        lowered = detail.lower()
        if any(stale in detail for stale in STALE_CONNECTION) or not any(
                sign in lowered for sign in UNREACHABLE):
            # After Neo4j comes back, the pool finds its old connections dead (or closed by the
            # restart) and retries on new ones; a deadlock or a busy server is retried too: not
            # an outage (a real one also fails to connect, which opens it). Kept in the log.
            log.debug("Neo4j driver: %s", _one_line(detail))
            return False
        self.outages.failed(NEO4J, detail)
        return False


_FILTER = DriverOutageFilter()


def install_driver_filter() -> None:
    """Attach the filter to the driver's loggers (idempotent). Notifications about queries
    (``neo4j.notifications``) are left alone."""
    for name in DRIVER_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


def is_outage(exc: BaseException) -> bool:
    """Does ``exc`` mean the store cannot be reached (a notice the person must act on), rather
    than a slow answer, a refused query or a bug (logged, never shown as an outage)?"""
    from common.errors import Unavailable
    from graph.errors import GraphBusy

    if isinstance(exc, GraphBusy):
        return False
    if any(stale in str(exc) for stale in STALE_CONNECTION):
        # a pooled connection found dead (Neo4j restarted under it): the pool replaces it, and
        # a store that is really down also fails to connect, which opens the outage
        return False
    return isinstance(exc, Unavailable | ConnectionError)
