"""The learned kind of a noun the lexicon does not list (natasha's navec vectors)."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import read
from wave_agent.world.kinds import noun_kind
from wave_agent.world.reading import USER


def test_a_noun_takes_the_kind_its_nearest_lexicon_nouns_agree_on() -> None:
    assert noun_kind("ходьба") is EntityType.HOBBY
    assert noun_kind("скрипка") is EntityType.HOBBY
    assert noun_kind("инфаркт") is EntityType.ILLNESS
    assert noun_kind("кот") is EntityType.PET  # the lexicon's own word
    for everyday in ("работа", "банк", "отпуск", "деньги", "отчет", "врач", "ремонт"):
        assert noun_kind(everyday) is None, everyday


def test_a_verb_of_doing_reads_a_pastime_the_lexicon_does_not_list() -> None:
    reading = read("По средам вместе ходим на скандинавскую ходьбу.")
    links = {(link.source, link.type, link.target) for link in reading.links}
    assert (USER, "does", "скандинавская ходьба") in links
