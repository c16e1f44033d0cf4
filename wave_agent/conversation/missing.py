"""The sentence the bot adds to a reply when part of memory could not be read.

No second detector: the turn already knows what failed. Its sections (``TurnService._read``:
core blocks, notes, recent days, the memory search) land in the turn's ``failed`` map, which
``/debug`` shows, and the memory search's own voices land in ``RecallResult.degraded``, which
the CLI's stderr line, the MCP ``note`` and the page's banner show. Here both become the
layers a person can understand, named in the language of their message, without internals
(no store names, no errors): those stay in ``/debug`` and the log.
"""

from __future__ import annotations

from collections.abc import Iterable

# layers, in the order a sentence names them
FACTS = "facts"          # the graph: notes, the lexical/temporal/graph voices, commitments
MEANING = "meaning"      # the semantic archive (and the embedding model that queries it)
PORTRAIT = "portrait"    # the core blocks
DAYS = "days"            # the episode log and the previous session's snapshot
ORDER = (FACTS, MEANING, PORTRAIT, DAYS)

# the turn's sections (``turn.py``) and recall's voices and steps (``recall/gather.py``)
_SECTIONS = {"notes": FACTS, "excerpts": FACTS, "commitments": FACTS, "persona": PORTRAIT,
             "episodes": DAYS, "snapshot": DAYS, "summary": DAYS}
_ARCHIVE_STEPS = {"semantic", "vectors", "rest"}

_NAMES = {
    "ru": {FACTS: "записанные факты", MEANING: "поиск по смыслу",
           PORTRAIT: "то, что я храню о вас и о себе", DAYS: "дневник последних дней"},
    "pl": {FACTS: "zapisane fakty", MEANING: "wyszukiwanie po znaczeniu",
           PORTRAIT: "to, co wiem o Tobie i o sobie", DAYS: "dziennik ostatnich dni"},
    "en": {FACTS: "the facts I keep", MEANING: "the search by meaning",
           PORTRAIT: "what I keep about you and about myself", DAYS: "the log of recent days"},
}
_SENTENCE = {
    "ru": "Часть моей памяти сейчас недоступна ({0}), поэтому ответ может быть неполным.",
    "pl": "Część mojej pamięci jest teraz niedostępna ({0}), więc odpowiedź może być niepełna.",
    "en": "Part of my memory is out of reach right now ({0}), so this answer may be incomplete.",
}
_AND = {"ru": " и ", "pl": " i ", "en": " and "}


def missing_layers(failed: Iterable[str], voices: Iterable[str] = ()) -> tuple[str, ...]:
    """The layers behind the turn's failed sections and recall's failed voices, in ``ORDER``.
    When recall named its failed voices, they say which layers its section lacked; a section
    the turn does not name a layer for (a new one) counts as the facts."""
    voices = tuple(voices)
    layers = {_SECTIONS.get(name, FACTS) for name in failed
              if not (voices and name == "excerpts")}
    layers |= {MEANING if name in _ARCHIVE_STEPS else FACTS for name in voices}
    return tuple(layer for layer in ORDER if layer in layers)


def missing_sentence(layers: Iterable[str], lang: str) -> str | None:
    """One sentence naming ``layers`` in ``lang`` (ru, pl, en; anything else is English);
    None when nothing is missing."""
    lang = lang if lang in _SENTENCE else "en"
    names = [_NAMES[lang][layer] for layer in ORDER if layer in set(layers)]
    if not names:
        return None
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + _AND[lang] + names[-1]
    return _SENTENCE[lang].format(listed)
