"""``--features FILE``: the benchmarks keep each question's candidates with their learned-ranker
features and what each record traces back to, so ``scripts/train_ranker.py`` can train and
compare rankers many times from one run of the stores (compute is scarce; a LongMemEval
question takes a minute and a half to write).

One JSON line per question: the set, the question's id, split and group (a LoCoMo
conversation), how it is scored (``metric``: ``first`` for a memory set, where any answer
counts; ``share`` for LoCoMo, the share of evidence found; ``turns`` for LongMemEval), the
answers, the question's language (``graph.stemming.language_of``: its someone-else weight
is fitted per language), the feature names, and per candidate its id, the keys it traces back to (the set's
fact id, dialogue ids, turn ids) and its feature row. Only the question's own search is
kept: warm-up searches find ``ask`` unset and are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graph.stemming import language_of
from wave_agent.recall.candidates import Candidates
from wave_agent.recall.learned import FEATURES


class FeatureLog:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._question: dict[str, Any] | None = None
        self._keys: Callable[[Any], Sequence[str]] | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)

    @property
    def observer(self) -> Callable[[Candidates, list[str], np.ndarray], None] | None:
        return self.observe if self.path is not None else None

    def ask(self, keys: Callable[[Any], Sequence[str]], **question: Any) -> None:
        """The next search is this question's; ``keys`` maps a record to what it traces to."""
        self._question, self._keys = question, keys

    def done(self) -> None:
        self._question = self._keys = None

    def observe(self, c: Candidates, ids: list[str], x: np.ndarray) -> None:
        if self.path is None or self._question is None or self._keys is None:
            return
        keys = self._keys
        line = {**self._question, "language": language_of(c.question.text),
                "features": list(FEATURES),
                "ids": ids, "keys": [list(keys(c.facts[i])) for i in ids],
                "x": np.round(x, 5).tolist()}
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._question = self._keys = None
