"""The page speaks Russian, Polish and English: chosen from the browser, switched on the page,
dates and numbers in the person's locale, and no wrapped string left without a translation."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from starlette.requests import Request

from wave_agent.ops import health
from wave_agent.web import i18n
from wave_agent.web.app import WebApp

TEMPLATES = Path(i18n.__file__).with_name("templates")
WRAPPED = re.compile(r"""_\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]""")


def _request(query: str = "", accept: str | None = None, cookie: str | None = None) -> Request:
    headers = []
    if accept is not None:
        headers.append((b"accept-language", accept.encode()))
    if cookie is not None:
        headers.append((b"cookie", f"{i18n.COOKIE}={cookie}".encode()))
    return Request({"type": "http", "method": "GET", "path": "/records", "headers": headers,
                    "query_string": query.encode(), "scheme": "http",
                    "server": ("127.0.0.1", 8766)})


def test_every_wrapped_string_in_the_templates_has_russian_and_polish() -> None:
    wrapped = {m.group(1) for p in TEMPLATES.glob("*.html") for m in WRAPPED.finditer(p.read_text())}
    assert len(wrapped) > 20
    missing = sorted(s for s in wrapped if set(i18n.CATALOGUE.get(s, {})) != {"ru", "pl"})
    assert not missing, f"add these to wave_agent/web/i18n.py CATALOGUE: {missing}"


@pytest.mark.parametrize(("accept", "expected"), [
    ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
    ("pl-PL,pl;q=0.9,en;q=0.5", "pl"),
    ("de-DE,de;q=0.9,pl;q=0.4,ru;q=0.6", "ru"),
    ("en-US,en;q=0.9", "en"),
    ("de-DE", "en"),
    (None, "en"),
])
def test_the_browser_language_chooses_the_page_language(accept: str | None, expected: str) -> None:
    assert i18n.negotiate(None, None, accept) == expected


def test_the_switch_wins_and_is_remembered_over_the_browser() -> None:
    assert i18n.negotiate("pl", None, "ru") == "pl"
    assert i18n.negotiate(None, "pl", "ru") == "pl"
    assert i18n.negotiate("xx", None, "ru") == "ru"  # an unknown choice is ignored


def test_dates_and_numbers_in_the_persons_locale() -> None:
    day = date(2026, 12, 2)
    assert i18n.format_day(day, "ru") == "2 дек. 2026\u202fг."
    assert i18n.format_day(day, "pl") == "2 gru 2026"
    assert i18n.format_day(day, "en") == "Dec 2, 2026"
    assert i18n.format_number(12345, "ru") == "12\xa0345"
    assert i18n.format_number(12345, "pl") == "12\xa0345"


def test_a_page_renders_in_the_browsers_language_with_the_switch() -> None:
    web = WebApp(None, secret=b"s" * 32)  # type: ignore[arg-type]  # no store is read here
    russian = web.render(_request(accept="ru-RU,ru;q=0.9"), "error.html", 404,
                         title="t", detail="d").body.decode()
    assert '<html lang="ru">' in russian and "Язык" in russian
    assert 'href="?lang=pl"' in russian and 'href="?lang=en"' in russian
    switched = web.render(_request(query="lang=pl", accept="ru"), "error.html", 404,
                          title="t", detail="d")
    assert '<html lang="pl">' in switched.body.decode()
    assert f"{i18n.COOKIE}=pl" in switched.headers["set-cookie"]
    remembered = web.render(_request(accept="ru", cookie="pl"), "error.html", title="t", detail="d")
    assert '<html lang="pl">' in remembered.body.decode()


def test_every_message_the_server_makes_and_every_value_shown_has_russian_and_polish() -> None:
    import ast

    from graph.models import EntityType, FactType, ProposalKind, Status, Tier
    from wave_agent.app.views import VOICE_COLUMNS
    from wave_agent.write.entities import LINK_RELATIONS

    marked = set()
    for source in TEMPLATES.parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_"
                    and isinstance(node.args[0], ast.Constant)):
                marked.add(str(node.args[0].value))
    assert len(marked) >= 8
    shown = {v.value for e in (Tier, Status, FactType, EntityType, ProposalKind) for v in e}
    shown |= set(VOICE_COLUMNS) | {"open", "done", "cancelled", "missed", "human", "persona"}
    shown |= {k.replace("_", " ") for k in LINK_RELATIONS}
    shown |= set(health.NOTICE_KEYS)  # the health page's alarms and warnings
    missing = sorted(s for s in marked | shown if set(i18n.CATALOGUE.get(s, {})) != {"ru", "pl"})
    assert not missing, f"add these to wave_agent/web/i18n.py CATALOGUE: {missing}"


def test_relations_and_times_in_the_persons_language() -> None:
    assert i18n.link_name("lives_in", "ru") == "живёт в"
    assert i18n.link_name("kin:sister", "pl") == "siostra"
    assert i18n.link_name("kin:sister", "en") == "sister"
    assert i18n.format_moment("2026-12-02T11:45:00+00:00", "ru") == "02.12.2026, 11:45 UTC"


def test_the_health_pages_alarm_and_warnings_speak_the_persons_language() -> None:
    from datetime import UTC, datetime

    user = health.UserHealth("u1", by_status={"quarantined": 2}, proposals_pending=1)
    user.contradictions.append(health.Contradiction(
        ("f-1", "f-2"), ("Пользователь не пьёт алкоголь", "Пользователь пьёт вино"), "graph"))
    report = health.HealthReport(datetime(2026, 12, 2, tzinfo=UTC), users=[user],
                                 outbox_backlog=3)
    web = WebApp(None, secret=b"s" * 32)  # type: ignore[arg-type]  # no store is read here
    page = web.render(_request(accept="ru"), "health.html", report=report, text="",
                      series={}, queues={}).body.decode()
    assert "что из этого верно?" in page and "Пользователь пьёт вино" in page
    assert "u1: 2 запис(ей) в карантине" in page and "очередь обработки: 3" in page
    assert "which is true?" not in page and "in quarantine" not in page
    # the CLI and the bot keep printing the English lines
    assert any("which is true?" in a for a in report.alarms())
    assert "u1: 2 record(s) in quarantine (`wave quarantine`)" in report.warnings()
