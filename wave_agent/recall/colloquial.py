"""Clipped everyday words and what they stand for (pure, no I/O).

People ask as they talk: "сколько заплатили за велик?", "когда днюха у Сони?", "ile dałem za
rower?". What they told was often said in full ("Велосипед обошёлся в 18 тысяч"); a stemmer
cannot see that "велик" is "велосипед", and a sentence model sees it only weakly. A question
that uses one of these words also asks with the full one (``expand``), as a question naming a
relative by role also asks with the name (``graph.kin.expand``).

Only clippings whose meaning is unambiguous in a personal memory are listed; "велик" as the
short adjective ("размер велик") is rare in a question and costs one extra query word."""

from __future__ import annotations

import re

# the clipped word's forms -> the full word
_RU: dict[str, str] = {
    **dict.fromkeys(("велик", "велика", "велику", "великом", "велике", "велики", "великов"),
                    "велосипед"),
    **dict.fromkeys(("комп", "компа", "компу", "компом", "компе"), "компьютер"),
    **dict.fromkeys(("ноут", "ноута", "ноуту", "ноутом", "ноуте"), "ноутбук"),
    **dict.fromkeys(("телек", "телека", "телеку", "телеком", "телик", "телика", "телике"),
                    "телевизор"),
    **dict.fromkeys(("холодос", "холодоса", "холодосе"), "холодильник"),
    **dict.fromkeys(("днюха", "днюхи", "днюху", "днюхе", "днюхой", "др"), "день рождения"),
    **dict.fromkeys(("универ", "универа", "универе", "универу"), "университет"),
    **dict.fromkeys(("тачка", "тачки", "тачку", "тачке", "тачкой"), "машина"),
    **dict.fromkeys(("мобила", "мобилу", "мобилы", "мобиле"), "телефон"),
    **dict.fromkeys(("зп", "зарплатка", "зарплатку"), "зарплата"),
    **dict.fromkeys(("косарь", "косаря", "косарей", "косаря"), "тысяча"),
    **dict.fromkeys(("инфа", "инфу", "инфы"), "информация"),
}
_PL: dict[str, str] = {
    **dict.fromkeys(("komp", "kompa", "kompie", "kompem"), "komputer"),
    **dict.fromkeys(("lapek", "lapka", "lapku"), "laptop"),
    **dict.fromkeys(("bryka", "brykę", "bryki", "fura", "furę"), "samochód"),
    **dict.fromkeys(("hajs", "hajsu", "hajsem"), "pieniądze"),
}
_FULL = {word: full for word, full in {**_RU, **_PL}.items() if word != full}

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def full_words(query: str) -> list[str]:
    """The full words for the clipped words of ``query``, in order, each once."""
    found: list[str] = []
    for match in _WORD.finditer(query):
        full = _FULL.get(match.group(0).lower())
        if full is not None and full not in found:
            found.append(full)
    return found


def expand(query: str) -> str:
    """The query with the full words of its clippings: "за велик? (велосипед)"."""
    words = full_words(query)
    return f"{query} ({', '.join(words)})" if words else query
