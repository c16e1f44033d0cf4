"""The first stage of ``Recall.search``: the query as understood, before any voice is asked.

The query's intent picks a preset (voice weights, how strongly decay applies, the statuses it
searches); a date or period it names ("on 3 June, 2023", "в мае", "last week":
``when.query_span``) opens the dated voice. A relative it names by role ("сыну") joins it by
name ("(Игорь)"), and the rest of it ("что я обещал ?") is asked too; clipped words join in
full ("велосипед")."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Sequence
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

from graph import kin
from graph.stemming import language_of
from wave_agent.recall import colloquial, voices, when
from wave_agent.recall.candidates import Question
from wave_agent.recall.config import RecallConfig
from wave_agent.recall.presets import Preset

if TYPE_CHECKING:
    from graph.store import GraphStore

WORD = re.compile(r"\w+", re.UNICODE)


async def understand(graph: GraphStore, user_id: str, query: str, *, k: int, preset: Preset,
                     history: bool, now: datetime, tz: tzinfo, config: RecallConfig,
                     degraded: voices.Degraded,
                     relatives_read: Awaitable[list[Any]] | None = None) -> Question:
    """The ``Question`` for ``query``; reads the graph only when the query names a relative
    by role (one indexed read, guarded like a voice). ``relatives_read``: that read, already
    started and guarded (``read_relatives``: recall starts it while the question is embedded)."""
    span = when.query_span(query, now, tz)
    period = None if span is None else (
        span.start, span.end + timedelta(days=config.dated_after_days))
    statuses = preset.searched(history)
    # A question about "сына" is a question about Igor too, when the memory knows the son
    # is Igor ("Сыну Игорю девять лет"): his name joins the text voices' query, and his
    # entity the graph walk.
    relatives: list[Any] = []
    if relatives_read is not None:
        relatives = await relatives_read
    elif kin.roles_asked(query):
        relatives = await read_relatives(graph, user_id, query, config, degraded)
    wide = kin.expand(query, list(dict.fromkeys(e.name for e in relatives)))
    if config.colloquial:
        wide = colloquial.expand(wide)
    rest = without_roles(query) if relatives and config.relative_rest_weight > 0 else ""
    if not WORD.search(rest):
        rest = ""  # "сын?" alone: nothing is asked about him beyond who he is
    return Question(user_id=user_id, text=query, k=k, preset=preset, statuses=statuses,
                    span=span, period=period, relatives=tuple(relatives), wide=wide, rest=rest)


async def read_relatives(graph: GraphStore, user_id: str, query: str, config: RecallConfig,
                         degraded: voices.Degraded) -> list[Any]:
    """The person's relatives ``query`` names by role (none when it names no role), guarded
    like a voice."""
    asked = kin.roles_asked(query)
    if not asked:
        return []
    return await voices.guarded("relatives", lambda: voices.relatives(graph, user_id, asked),
                                [], config.voice_timeout_s, degraded)


def without_roles(query: str) -> str:
    """``query`` without the words that name a relative by role: "чем болела дочь?" ->
    "чем болела ?"."""
    return re.sub(r"[^\W\d_]+", lambda m: "" if kin.role_of(m.group(0)) else m.group(0),
                  query)


# Polish function words: prepositions, conjunctions, pronouns, particles, "być" and "mieć".
# Full-text has no Polish analyzer (graph.schema: Russian and English), so a Polish
# question's "za", "po", "mam", "teraz" reached Lucene as words and its first place went to a
# record that shared one of them ("ile zapłaciłem za rozrząd?" -> a record with "za"). Words
# that are English content words ("ten", "pod", "go") are left out of the list.
_POLISH_FUNCTION_WORDS_TEXT = """
    w we z ze na za po do od o u przy przez dla bez nad przed między ku
    i oraz a ale lub albo czy że żeby bo więc też także tylko jeszcze już nie tak
    ja mnie mi mną ty ciebie cię tobie on ona ono my nas nam nami wy was wam oni one
    jego jej mu ich im się sobie swój swoja swoje swojego swojej swoim mój moja moje mojego
    mojej moim moich moja twój twoja twoje nasz nasza nasze naszego naszej naszym naszych
    ta to te tego tej tym tych ten który która które którego której którym których
    kto co coś ktoś jak jaki jaka jakie jakiej jakim jakich ile kiedy gdzie dlaczego czym
    czego komu kogo jest są był była było byli były będzie będą jestem jesteśmy mam ma
    mamy mają miał miała teraz tu tam bardzo
"""
POLISH_FUNCTION_WORDS = frozenset(_POLISH_FUNCTION_WORDS_TEXT.split()) - {"ten", "pod", "go"}


def without_polish_function_words(query: str) -> str:
    """A Polish ``query`` (``graph.stemming.language_of``) without its function words, for
    the full-text voice; any other unchanged, and unchanged if nothing else would be left."""
    if language_of(query) != "polish":
        return query
    text = re.sub(r"[^\W\d_]+", lambda m: " " if m.group(0).lower() in POLISH_FUNCTION_WORDS
                  else m.group(0), query)
    return text if WORD.search(text) else query


def without_names(query: str, names: Sequence[str]) -> str:
    """``query`` without the given names (and their possessive); unchanged if nothing else
    would be left."""
    text = query
    for name in names:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?:'s|’s)?(?!\w)", " ", text, flags=re.IGNORECASE)
    return text if WORD.search(text) else query
