"""Lower-case words of the honest authors' Russian statements that the capitalising before
round twenty-seven (``first-reading``) left alone, counted by whether a labelled person of the
statement begins like them (three letters), for each condition tried: some dictionary reading
a name (``anyname``), with a kin role word before it, with "с" / "со" before it, in lower-case
chat; an unknown word after a kin role. Then the words ``anyname`` in chat takes, by count.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/name_readings.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from train_relations import HONEST

from graph import kin
from wave_agent.world.morphology import _WORD, _morph, lower_case_chat, truecase

_NAMES = {"Name", "Surn", "Patr"}


def main() -> None:
    stats: Counter[tuple[str, bool]] = Counter()
    taken: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    for part in HONEST:
        data = json.loads(Path(f"bench/data/entities/{part}.json").read_text(encoding="utf-8"))
        for s in (s for p in data["people"] if p["lang"] == "ru" for s in p["statements"]):
            text = s["text"]
            capitalised, chat = truecase(text, names="first-reading"), lower_case_chat(text)
            forms = {w[:3] for e in s["entities"] if e["type"] == "person"
                     for n in (e["name"], *e.get("aliases", ())) for w in n.lower().split()
                     if len(w) >= 3}
            words = list(_WORD.finditer(text))
            for i, m in enumerate(words):
                w = m.group()
                if (not w.islower() or capitalised[m.start()].isupper() or len(w) < 3
                        or kin.role_of(w) is not None):
                    continue
                known = _morph().word_is_known(w)
                anyname = known and any(_NAMES & p.tag.grammemes for p in _morph().parse(w))
                previous = words[i - 1].group().lower() if i else ""
                after_role = kin.role_of(previous) is not None
                gold = w[:3] in forms
                for condition, holds in [
                        ("anyname", anyname), ("anyname+prevkin", anyname and after_role),
                        ("anyname+with", anyname and previous in ("с", "со")),
                        ("anyname+chat", anyname and chat),
                        ("unknown+prevkin", not known and after_role)]:
                    if holds:
                        stats[(condition, gold)] += 1
                if anyname and chat:
                    taken[gold][w] += 1
    for condition in sorted({k[0] for k in stats}):
        print(condition, "a labelled person", stats[(condition, True)],
              "no one", stats[(condition, False)])
    for gold, words in taken.items():
        print("anyname+chat, a labelled person" if gold else "anyname+chat, no one",
              words.most_common(40))


if __name__ == "__main__":
    main()
