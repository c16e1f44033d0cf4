"""The person's world read from what they say, without a model: the people, places,
organisations, pets, devices, illnesses and hobbies a statement names, and how they connect
(lives in, works at / as, owns, kin ...). ``read(text)`` is the one entry; the writer resolves
what it returns against the person's graph (``wave_agent.write.entities``).

Russian goes through natasha (NER, morphology and syntax, shipped in its wheel) and pymorphy3
for lemmas; English and Polish through patterns over capitalised words and the kin table
(``graph.kin``). See ``docs/architecture.md`` ("The person's world").
"""

from wave_agent.world.reader import read, read_many, warm_up
from wave_agent.world.reading import USER, Link, Mention, Reading

__all__ = ["USER", "Link", "Mention", "Reading", "read", "read_many", "warm_up"]
