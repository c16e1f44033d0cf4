"""Mentions' names made whole. The full name a short one stands for: "Катя" is Екатерина, "Серёга Бахтин" Сергей Бахтин,
"Kuba" Jakub, "Питер" Санкт-Петербург (``names.json``: a dictionary of everyday short forms,
data, not read from any test). pymorphy derives "Сашка" -> Саша (``morphology.full_name``)
but knows no link from Витя to Виктор. The full form is added to the mention's aliases: the
name as written stays the entity's name, and the writer resolves either to one entity.
A person "named" by a first name's possessive adjective ("Анин брат": the NER's span is the
adjective) is that first name; a "name" with no letter or digit in it (an emoji after a pet's
name) is no mention."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from graph.models import EntityType
from wave_agent.world.morphology import name_of_possessive
from wave_agent.world.reading import Link, Mention, Reading

_PATH = Path(__file__).with_name("names.json")


def _key(word: str) -> str:
    return word.lower().replace("ё", "е")


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    data = json.loads(_PATH.read_text(encoding="utf-8"))
    people = {_key(short): full for table in ("ru_first_names", "pl_first_names")
              for full, shorts in data[table].items() for short in shorts}
    places = {_key(short): full for full, shorts in data["places"].items() for short in shorts}
    return people, places


def full_form(name: str, kind: EntityType) -> str | None:
    """The full name a short first name (with its surname, if any) or a colloquial city name
    stands for; None when it is no short form the dictionary knows."""
    people, places = _tables()
    if kind is EntityType.PERSON:
        first, *rest = name.split()
        full = people.get(_key(first))
        return " ".join([full, *rest]) if full else None
    if kind is EntityType.PLACE:
        return places.get(_key(name))
    return None


def is_first_name(word: str) -> bool:
    """A first name of the dictionary, full or short ("Виктор", "Витя", "Kuba")."""
    people, _ = _tables()
    return _key(word) in people or _key(word) in _full_names()


@lru_cache(maxsize=1)
def _full_names() -> frozenset[str]:
    people, _ = _tables()
    return frozenset(_key(full) for full in people.values())


def with_full_names(reading: Reading) -> Reading:
    """The reading with each short name's full form among its mention's aliases, possessive
    adjectives read as the names they are made of, and wordless mentions left out."""
    renamed: dict[str, str | None] = {}
    mentions: dict[str, Mention] = {}
    for m in reading.mentions:
        if not any(ch.isalnum() for ch in m.name):
            renamed[m.name] = None
            continue
        name, kind = m.name, m.type
        if kind in (EntityType.PLACE, EntityType.ORGANISATION) and is_first_name(name):
            kind = EntityType.PERSON  # "Витя и Света живут в Питере": the NER's places
        if kind is EntityType.PERSON and " " not in name and (
                owner := name_of_possessive(name)) is not None:
            name = renamed[m.name] = owner
        aliases = tuple(a for a in m.aliases if a != name)
        if name != m.name:
            aliases = (*aliases, m.name)
        full = full_form(name, kind)
        if full is not None and full != name and full not in aliases:
            aliases = (*aliases, full)
        if name in mentions:
            aliases = tuple(dict.fromkeys((*mentions[name].aliases, *aliases)))
        mentions[name] = Mention(name, kind, aliases)
    if tuple(mentions.values()) == reading.mentions:
        return reading
    links = []
    for link in reading.links:
        source = renamed.get(link.source, link.source)
        target = renamed.get(link.target, link.target)
        if source is not None and target is not None and source != target:
            links.append(Link(source, link.type, target))
    return replace(reading, mentions=tuple(mentions.values()),
                   links=tuple(dict.fromkeys(links)))


__all__ = ["full_form", "is_first_name", "with_full_names"]
