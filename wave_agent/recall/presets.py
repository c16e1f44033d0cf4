"""Named retrieval presets: how much each voice counts for a kind of question.

A preset is chosen from the query's intent (``classify``) unless the caller names one. By
default the text voices lead (lexical and semantic, each also through its context windows),
recency and the graph after them (weighted by what they earned on the benchmarks:
docs/benchmarks.md); a "when / last week / когда" question lifts the temporal voices; an explicit history
question ("what was it before", "раньше") also opens superseded and archived records.

A preset carries the statuses it searches: every voice that filters by status (full text, the
archive, the recent records, the graph walk, the context read) and the final filter ask for
exactly these, so a history question ("сколько стоила аренда раньше?") finds the price that
was replaced, not only the one in force.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from graph.models import Status

Voice = Literal["lexical", "semantic", "temporal", "graph", "dated"]
# "dated": the records created in the period the question names ("on 3 June", "в мае"),
# ranked by text; it answers only when the question names one.
VOICES: tuple[Voice, ...] = ("lexical", "semantic", "temporal", "graph", "dated")

# What a question about now searches: the records in force.
CURRENT: tuple[Status, ...] = (Status.ACTIVE,)
# What a question about the past searches: the records in force, those a later one replaced,
# and those put away. Quarantined records are never searched: they wait for the person.
EVER: tuple[Status, ...] = (Status.ACTIVE, Status.SUPERSEDED, Status.ARCHIVED)


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    weights: MappingProxyType[str, float]
    # How strongly type decay scales a record (1 = fully, 0 = not at all): a question about
    # the past must still find old records, a question about now must prefer current ones.
    decay_strength: float = 1.0
    # The statuses searched: history questions also search superseded and archived records.
    statuses: tuple[Status, ...] = CURRENT
    # A record said by someone the query names counts this much more (x (1 + bonus)).
    speaker_bonus: float = 1.0
    # MMR's weight of relevance against likeness to a record already picked, for the
    # hand-set fusion's order (where it was set) and, unless ``RecallConfig.learned_mmr_lambda``
    # is set, the learned order's too.
    mmr_lambda: float = 0.75
    notes: str = field(default="", compare=False)

    def weight(self, voice: str) -> float:
        return self.weights.get(voice, 0.0)

    def searched(self, history: bool = False) -> tuple[Status, ...]:
        """The statuses a search with this preset asks for; ``history`` (the caller asks for
        the past whatever the question: the memory page, ``wave recall --history``) adds
        superseded and archived records to any preset's."""
        if not history:
            return self.statuses
        return tuple(dict.fromkeys((*self.statuses, *EVER)))


def _w(lexical: float, semantic: float, temporal: float, graph: float,
       context: float = 1.0, dated: float = 2.0) -> MappingProxyType[str, float]:
    """Voice weights. ``context``: the lexical and semantic voices once more, each record
    scored together with the records said right before and after it (its context window).
    ``dated``: a question that names its period is mostly about that period."""
    return MappingProxyType({
        "lexical": lexical, "semantic": semantic, "temporal": temporal, "graph": graph,
        "context_lexical": context, "context_semantic": context, "dated": dated,
    })


# The lexical voice's own ranking counts 0.5 (was 0.25): once each full-text hit counts by
# how much of the question it covers (RecallConfig.lexical_coverage), its first places are
# worth more: +1.6 R@5 on memory-ru's tuning part, +0.7 on LoCoMo's (R@10 -0.1).
# The graph voice counts 0.1 outside "who is X" questions: weighted by what it earned on the
# Russian memory set with every name linked (docs/benchmarks.md, "Recall in Russian with
# e5"): at 0.4 it cost 3 R@5 on the tuning part, at 0.1 nothing; it earned nothing at any
# weight there, and LoCoMo and imports have no entities to measure it on.
DEFAULT = Preset("default", _w(0.5, 0.25, 0.15, 0.1), notes="text voices and their context first")
TEMPORAL = Preset(
    "temporal", _w(0.5, 0.25, 0.4, 0.1), decay_strength=0.3,
    notes="when / last week / когда: recency counts more, decay counts less",
)
HISTORY = Preset(
    "history", _w(0.5, 0.25, 0.1, 0.5), decay_strength=0.0, statuses=EVER,
    notes="what was it before: superseded and archived records too, no decay",
)
ENTITY = Preset(
    "entity", _w(0.5, 0.25, 0.1, 0.8),
    notes="who is / tell me about X: the graph around the named entity counts as much as text",
)

PRESETS: MappingProxyType[str, Preset] = MappingProxyType(
    {p.name: p for p in (DEFAULT, TEMPORAL, HISTORY, ENTITY)}
)

_HISTORY = re.compile(
    r"\b(before that|used to|previously|formerly|what was it before|history of|changed|"
    r"раньше|прежде|до этого|как менял|история|wcześniej|dawniej)\b",
    re.IGNORECASE,
)
_TEMPORAL = re.compile(
    r"\b(when|what time|what date|how long ago|last (week|month|year|time)|yesterday|recently|"
    r"lately|ago|since|today|tonight|this (week|month|morning)|"
    r"когда|вчера|недавно|на прошлой неделе|сегодня|давно|kiedy|wczoraj|ostatnio)\b",
    re.IGNORECASE,
)
_ENTITY = re.compile(
    r"^\s*(who is|who's|who was|tell me about|what do you know about|кто так|кто это|"
    r"что ты знаешь о|расскажи (мне )?(о|об|про)|kim jest|co wiesz o)\b",
    re.IGNORECASE,
)


def classify(query: str) -> Preset:
    """The preset for a query's intent; DEFAULT when nothing more specific fits."""
    if _HISTORY.search(query):
        return HISTORY
    if _ENTITY.search(query):
        return ENTITY
    if _TEMPORAL.search(query):
        return TEMPORAL
    return DEFAULT


def resolve(preset: Preset | str | None, query: str) -> Preset:
    if preset is None:
        return classify(query)
    if isinstance(preset, Preset):
        return preset
    try:
        return PRESETS[preset.lower()]
    except KeyError as exc:
        from wave_agent.errors import WaveError

        raise WaveError(
            f"unknown recall preset {preset!r}",
            next_step=f"use one of: {', '.join(PRESETS)} (or omit it to classify the query)",
        ) from exc
