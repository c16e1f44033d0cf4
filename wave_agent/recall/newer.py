"""The newer record first, when a question asks about now and two records say the same thing
at different times.

A value that changed is often written twice and never superseded: "Машиноместо во дворе ...
1500 в месяц" in January and "Геннадий поднял плату за машиноместо до 2000 с мая" in April.
The writer's supersession needs to know which attribute both set, and recall's ranker scores
each record on its own: the older one, which matches the question's words better, came first.
On the memory sets a question about the current value put the right record first a third of
the time (docs/benchmarks.md, "The newer record first").

So after the ranker, among the ``WINDOW`` best candidates, a record goes just below a newer
one that says nearly the same thing (raw e5 cosine of their stored vectors at least
``RecallConfig.newer_first``) when the question asks about now ("сейчас", "теперь",
"последний", "now", "current", "teraz", "obecnie", ...) and not about the past. Both stay in
the list: the older is history, not an error.
"""

from __future__ import annotations

import re
from datetime import datetime

import numpy as np

from wave_agent.recall import decay
from wave_agent.recall.candidates import Candidates
from wave_agent.recall.presets import HISTORY

WINDOW = 10   # the best candidates compared, pair by pair
LEAST_DAYS = 1.0  # said on another day: the same day's two records are one account

# The words of a question about the value in force now, in Russian, Polish and English.
NOW = re.compile(
    r"сейчас|теперь|последн|в итоге|нынешн|текущ"
    r"|\bnow\b|current|latest"
    r"|teraz|obecn|aktualn|ostatni|w końcu",
    re.IGNORECASE)


def asks_now(text: str) -> bool:
    """Whether the question asks for the value in force now ("сколько я сейчас плачу...")."""
    return NOW.search(text) is not None


def newer_first(c: Candidates, now: datetime, same: float) -> int:
    """Move each of the ``WINDOW`` best candidates (``c.final``) that a newer one among them
    says again (cosine >= ``same``) to just below the lowest such one; how many moved.
    Nothing moves for a question about the past or one that does not ask about now."""
    q = c.question
    if q.preset is HISTORY or (c.asked is not None and c.asked.past) or not asks_now(q.text):
        return 0
    top = [fid for fid in sorted(c.final, key=lambda f: -c.final[f])[:WINDOW]
           if fid in c.vectors]
    if len(top) < 2:
        return 0
    vectors = np.stack([c.vectors[fid] for fid in top])
    close = vectors @ vectors.T
    age = [decay.age_days(c.facts[fid], now) for fid in top]
    below: dict[int, int] = {}  # a record's position -> the lowest newer one saying it again
    for a in range(len(top)):
        for b in range(a + 1, len(top)):
            if age[a] - age[b] >= LEAST_DAYS and close[a, b] >= same:
                below[a] = b
    # the farthest first, so a chain (three values of one thing) ends newest first
    for a, b in sorted(below.items(), key=lambda item: -item[1]):
        c.final[top[a]] = c.final[top[b]] - 1e-6
    return len(below)
