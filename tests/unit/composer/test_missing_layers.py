"""The bot's sentence about missing memory: the turn's failed sections and recall's failed
voices become layers a person understands, named in the language they wrote in."""

from __future__ import annotations

from wave_agent.conversation.missing import (
    FACTS,
    MEANING,
    PORTRAIT,
    missing_layers,
    missing_sentence,
)


def test_recall_voices_say_which_layer_its_section_lacked() -> None:
    assert missing_layers(["excerpts"], ["semantic"]) == (MEANING,)
    assert missing_layers(["excerpts"]) == (FACTS,)  # timed out whole: the search is facts
    assert missing_layers(["notes", "persona"], ["lexical", "semantic"]) == (
        FACTS, MEANING, PORTRAIT)
    assert missing_layers([], []) == ()


def test_the_sentence_in_each_language_names_every_missing_layer() -> None:
    assert missing_sentence((), "ru") is None
    ru = missing_sentence((MEANING, FACTS), "ru")
    assert ru == ("Часть моей памяти сейчас недоступна (записанные факты и поиск по смыслу), "
                  "поэтому ответ может быть неполным.")
    pl = missing_sentence((FACTS, MEANING, PORTRAIT), "pl")
    assert pl is not None and "zapisane fakty, wyszukiwanie po znaczeniu i to, co wiem" in pl
    assert missing_sentence((PORTRAIT,), "de") == missing_sentence((PORTRAIT,), "en")
