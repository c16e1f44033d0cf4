"""Issue 29, round thirty-three: the wrong Russian ``works_as`` and ``owns`` links over the older
authors (``relation_constructions.OLDER``; their texts may be read), each put down to the first
cause that holds, read from natasha's parse and pymorphy alone:

- ``another_person``: the label gives the target to another source (the job or thing is
  someone else's), or the target's clause names a person other than the link's source;
- ``mood``: the verb of the target's clause is not said as so now: an infinitive (under a wish,
  plan or offer), a future or imperative form, or "бы" in the clause;
- ``no_longer``: the verb of the target's clause is a past form of selling, giving away,
  losing, leaving (``_GONE``, a list for counting only), or a past form beside "раньше";
- ``label_other_form``: the target matches no label, but a label's name starts with the
  target's first five letters ("новый финансовый директор" for "финансовый директор": the
  link may be right, the scorer does not match the name);
- ``unlabelled``: the target is no labelled entity or relation end of the statement (the
  writer labels no such job or thing: "я теперь дядя", "я свидетель");
- ``other``.

The links are the shipped reader's with the pair model cross-fitted in ``--folds`` groups of
the older authors (each group judged by a fit on the others, the held-out newest authors in no
fit and never read). ``--show N`` prints N statements of each cause (older authors only).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/wrong_holdings.py \\
        --cache /tmp/world33-w/readings.pkl [--folds 4] [--show 5] [--no-mood]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from relation_constructions import NEWEST, OLDER
from relation_losses import load
from relation_newest import refit
from train_relations import _end, _norm, examples

from wave_agent.bench.entities import labelled_relations
from wave_agent.world import governor
from wave_agent.world import pairs as model_pairs
from wave_agent.world.reader import as_read
from wave_agent.world.reading import USER, Reading

TYPES = ("works_as", "owns")
# for counting only (this script; the model reads the verb's lemma and tense, no list)
_GONE = frozenset({"продать", "отдать", "подарить", "потерять", "разбить", "сдать", "выбросить",
                   "уволиться", "уйти", "бросить", "сломаться", "умереть", "уволить"})
_BEFORE = frozenset({"раньше", "когда-то", "бывший", "прежний", "до"})
_PLAN = frozenset({"хотеть", "собираться", "планировать", "предлагать", "предложить",
                   "мечтать", "думать", "звать", "позвать", "уговаривать", "решить"})


def _target_word(reading: Reading, name: str) -> int | None:
    m = reading.mention(name)
    if m is None or not reading.words:
        return None
    return model_pairs._word_at(reading.words, (m.name, *m.aliases))


def cause(statement: dict[str, Any], reading: Reading, link: Any) -> str:
    labels = labelled_relations(statement)
    kind = _norm(link.type)
    if any(_norm(lb["type"]) == kind and _end(link.target, lb["to"], reading, statement)
           and not _end(link.source, lb["from"], reading, statement) for lb in labels):
        return "another_person"
    named = {e["name"] for e in statement["entities"]} | {lb["to"] for lb in labels}
    t = _target_word(reading, link.target)
    words = reading.words
    if t is not None:
        s = None if link.source == USER else _target_word(reading, link.source)
        people = {i for m in reading.mentions if m.type.value == "person"
                  and (i := _target_word(reading, m.name)) is not None}
        if governor.clause_person(words, t, s, people) == "syn:clp:other":
            return "another_person"
        mood = governor.verb_mood(words, t)
        if {"syn:mood:inf", "syn:mood:futr", "syn:mood:impr", "syn:mood:cond"} & set(mood):
            return "mood"
        if any(x.startswith("syn:mood:inf<") and x[13:] in _PLAN for x in mood):
            return "mood"
        if any(x.split(":")[-1] in {f"{g}|past" for g in _GONE} for x in mood) \
                or ("syn:mood:past" in mood and any(
                    w.lemma in _BEFORE for w in words if w.sentence == words[t].sentence)):
            return "no_longer"
    if not any(_end(link.target, n, reading, statement) for n in named):
        m = reading.mention(link.target)
        forms = {a.lower()[:5] for a in (link.target, *(m.aliases if m else ()))}
        if any(n.lower()[:5] in forms for n in named):
            return "label_other_form"
        return "unlabelled"
    return "other"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--trial", default="", help="pair features not shipped to compute "
                        "(``pairs.TRIAL``: mood, lastp)")
    parser.add_argument("--no-mood", action="store_true", help="fit without the mood features")
    args = parser.parse_args()
    model_pairs.TRIAL = frozenset(x for x in args.trial.split(",") if x)
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    shipped = model_pairs.Model.get("ru")
    assert shipped is not None
    older = [p for p in OLDER if p in data and p not in NEWEST]
    feats = {k: examples(data[k]["statements"], data[k]["readings"], True) for k in older}
    if args.no_mood:
        feats = {k: ([tuple(f for f in x if not f.startswith("syn:mood:")) for x in xs], ys)
                 for k, (xs, ys) in feats.items()}
    groups = [older[i::args.folds] for i in range(args.folds)]
    counts: Counter[str] = Counter()
    shown: dict[str, list[str]] = defaultdict(list)
    for group in groups:
        model = refit(feats, [k for k in older if k not in group], True, shipped, True)
        for k in group:
            d = data[k]
            for i, lang in enumerate(d["langs"]):
                if lang != "ru":
                    continue
                s, r = d["statements"][i], d["readings"][i]
                final = model_pairs.relink(as_read(s["text"]), r, model)
                labels = labelled_relations(s)
                used: set[int] = set()
                links = list(dict.fromkeys(final.links))
                for lb in labels:
                    hit = next((j for j, ln in enumerate(links) if j not in used
                                and _norm(ln.type) == _norm(lb["type"])
                                and _end(ln.source, lb["from"], final, s)
                                and _end(ln.target, lb["to"], final, s)), None)
                    if hit is not None:
                        used.add(hit)
                for j, ln in enumerate(links):
                    kind = _norm(ln.type)
                    if j in used or kind not in TYPES:
                        continue
                    c = cause(s, final, ln)
                    origin = "rules" if ln in r.links else "model"
                    counts[f"{kind}|{c}"] += 1
                    counts[f"{kind}|{origin}"] += 1
                    if len(shown[c]) < args.show * (3 if c == "another_person" else 1):
                        shown[c].append(f"  [{k}] {ln.source} -{kind}-> {ln.target} ({origin}): "
                                        f"{s['text'][:220]!r}")
        print(f"fold {group} done", file=sys.stderr)
    print(f"wrong works_as / owns links, the {len(older)} older authors cross-fitted in "
          f"{args.folds} groups (tuning figures):")
    for kind in TYPES:
        total = sum(v for key, v in counts.items() if key.startswith(kind + "|")
                    and key.split("|")[1] not in ("rules", "model"))
        print(f"  {kind}: {total} wrong (rules {counts[kind + '|rules']}, model "
              f"{counts[kind + '|model']})")
        for c in ("another_person", "mood", "no_longer", "label_other_form", "unlabelled",
                  "other"):
            print(f"    {c}: {counts[f'{kind}|{c}']}")
    for c, rows in shown.items():
        print(f"{c}:")
        print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
