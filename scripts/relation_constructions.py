"""Every missed and every wrong Russian relation of the older honest authors put in a class, and
the construction each is said in (issue 29, round thirty). Built on ``relation_losses``: each
part's pairs are judged by a pair model fitted at the shipped setting without that part's
author **and without the held-out newest authors** (``NEWEST``), so nothing here is fitted on
them or lists them: only the older parts are taken from the readings.

Missed labels, by class:

- ``both ends found, not read``: the reader has both ends, no link of the type between them
  (the pair not offered, scored "none" or under its threshold);
- ``read as another type`` / ``read the wrong way round``: both ends found, a link between
  them of another type, or of the type from the target to the source;
- ``an end not found``: an end the reader never read as a mention (by what it is: a job, a
  firm, a thing, a person named in lower case ...);
- ``an end found under another name``: the reader has the end, named otherwise than the label
  (a short form, a case form, a part of the name).

Wrong links, by class: ``another type`` (the labelled pair, another type), ``wrong way round``
(the labelled pair and type, from target to source), ``an end under another name`` (an end no
label names, sharing a word's first letters with a labelled entity), ``an end not labelled``
(an end no label names at all: a false entity), ``no relation labelled`` (both ends labelled,
nothing labelled between them).

Each label and link is also given its construction: the lemma of the verb its target hangs on
in natasha's tree (the first verb up from the target word; the head word when no verb is
above it) and the preposition and case the target takes ("устроиться | в+Acc", "болеть |
-+Ins", "у меня Солярис" -> "быть | -+Nom" or the root's lemma).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/relation_constructions.py \\
        --cache /tmp/w30/readings.pkl --models /tmp/w30/loao_old.pkl [--show CLASS]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from relation_losses import _end, _kind_of, _near, _norm, held_out_models, load, losses
from train_relations import HONEST, pr, score

from wave_agent.world import pairs as model_pairs
from wave_agent.world.reader import as_read
from wave_agent.world.reading import USER, Link, Reading, Word

NEWEST = ("tuning_42", "tuning_43", "tuning_44", "tuning_45", "tuning_46")  # held out (round thirty-eight)
OLDER = tuple(p for p in HONEST if p not in NEWEST)

NOT_READ = ("no_pair", "under_threshold", "scored_none", "not_allowed", "wrong_kind")


def _group(kind: str) -> str:
    kind = _norm(kind)
    return "kin" if kind.startswith("kin:") else kind


def _target_word(label: str, statement: dict[str, Any], words: tuple[Word, ...]) -> int | None:
    """The statement's word that names ``label``: a word beginning as a word of the label's
    name or one of its aliases (four letters, three for a short word); of a multi-word name,
    the one whose head lies outside the name."""
    entity = next((e for e in statement["entities"] if e["name"] == label), {})
    heads = {w.lower()[:4] for n in (label, *entity.get("aliases", ()))
             for w in n.replace("-", " ").split() if len(w) >= 3}
    found = [i for i, w in enumerate(words) if w.text.lower()[:4] in heads
             or (len(w.text) == 3 and w.text.lower() in heads)]
    if not found:
        return None
    inside = set(found)
    return next((i for i in found if words[i].head not in inside), found[0])


def construction(label: dict[str, str], statement: dict[str, Any], reading: Reading) -> str:
    """"<verb lemma> | <preposition>+<case>" of the label's far end (its target; its source
    when the target is the speaker)."""
    words = reading.words
    end = label["to"] if label["to"] != "user" else label["from"]
    at = _target_word(end, statement, words)
    if at is None:
        return "(the end not said in a word of the statement)"
    w = words[at]
    up, seen = w.head, set()
    while 0 <= up < len(words) and words[up].pos not in ("VERB", "AUX") and up not in seen:
        seen.add(up)
        up = words[up].head
    governor = words[up].lemma if 0 <= up < len(words) and words[up].pos in ("VERB", "AUX") \
        else (words[w.head].lemma if 0 <= w.head < len(words) else "ROOT")
    return f"{governor} | {w.preposition or '-'}+{w.case or '-'}"


_FIRST = frozenset({"я", "меня", "мне", "мной", "мы", "нас", "нам", "нами", "мой", "моя", "моё",
                    "мое", "мои", "наш", "наша", "наше", "наши"})


def where(label: dict[str, str], statement: dict[str, Any], reading: Reading) -> str:
    """Where the label's source stands against its target: the speaker with or without a
    first-person word in the target's sentence (without one, only a verb's ending can say
    who); a named person in the target's sentence or only in another (a pronoun or no subject
    between: coreference)."""
    words = reading.words
    far = label["to"] if label["to"] != "user" else label["from"]
    near = label["from"] if label["to"] != "user" else label["to"]
    at = _target_word(far, statement, words)
    if at is None:
        return "the far end in no word"
    sentence = words[at].sentence
    if near == "user":
        first = any(w.sentence == sentence and w.text.lower() in _FIRST for w in words)
        return "the speaker, a first-person word beside" if first else \
            "the speaker, no first-person word in the sentence"
    src = _target_word(near, statement, words)
    if src is None:
        return "a person named in no word"
    return "a person in the same sentence" if words[src].sentence == sentence else \
        "a person named in another sentence"


def _between(links: list[Link], label: dict[str, str], reading: Reading,
             statement: dict[str, Any]) -> str | None:
    """What the reader linked between the label's two ends, when not the label itself."""
    for link in links:
        if _end(link.source, label["from"], reading, statement) \
                and _end(link.target, label["to"], reading, statement):
            return "read as another type"
        if _end(link.source, label["to"], reading, statement) \
                and _end(link.target, label["from"], reading, statement) \
                and _group(link.type) == _group(label["type"]):
            return "read the wrong way round"
    return None


def missed_class(label: dict[str, str], cause: str, final: Reading, statement: dict[str, Any],
                 rules: Reading) -> tuple[str, str]:
    """(class, sub-class) of one missed label."""
    if cause == "end:other_name":
        return "an end found under another name", ""
    if cause.startswith("end:"):
        kind = _norm(label["type"])
        missing = [(label["from"], False)] if cause in ("end:source", "end:both") else []
        missing += [(label["to"], True)] if cause in ("end:target", "end:both") else []
        return "an end not found", "; ".join(
            _kind_of(e, kind, statement, t) for e, t in missing)
    other = _between(list(dict.fromkeys(final.links)), label, final, statement)
    if other:
        return other, ""
    return "both ends found, not read", cause


def wrong_class(link: Link, cause: str, final: Reading, statement: dict[str, Any],
                labels: list[dict[str, str]]) -> str:
    if cause == "wrong_kind":
        return "another type"
    if any(_group(lb["type"]) == _group(link.type)
           and _end(link.source, lb["to"], final, statement)
           and _end(link.target, lb["from"], final, statement) for lb in labels):
        return "wrong way round"
    if cause == "no_relation":
        return "no relation labelled"
    names = [e["name"] for e in statement["entities"]]
    ends = [e for e in (link.source, link.target) if e != USER
            and not any(_end(e, n, final, statement) for n in names)]
    if ends and all(any(_near(n, Reading(mentions=tuple(
            m for m in final.mentions if m.name == e))) for n in names) for e in ends):
        return "an end under another name"
    return "an end not labelled"


def main() -> int:
    from wave_agent.bench.entities import labelled_relations

    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="", help="readings of the older parts (a pickle)")
    parser.add_argument("--models", default="", help="the held-out pair models (a pickle)")
    parser.add_argument("--parts", default=",".join(OLDER))
    parser.add_argument("--show", default="", help="print the labels of this class")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    parts = [p for p in args.parts.split(",") if p]
    assert not set(parts) & set(NEWEST), "the newest authors are held out: never listed"
    data = {k: v for k, v in load(Path(args.data), Path(args.cache) if args.cache else None,
                                  parts).items() if k in parts}
    shipped = model_pairs.Model.get()
    assert shipped is not None
    models = held_out_models(data, shipped.threshold, False,
                             Path(args.models) if args.models else None)
    missed: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    by_type: dict[str, Counter[str]] = defaultdict(Counter)
    said: dict[str, Counter[str]] = defaultdict(Counter)
    total: Counter[str] = Counter()
    for held, d in data.items():
        model = models[held]
        model.keep_rules = shipped.keep_rules
        model.languages = shipped.languages
        model.thresholds = dict(shipped.thresholds)
        idx = [i for i, g in enumerate(d["langs"]) if g == "ru"]
        finals = []
        for i in idx:
            s, rules = d["statements"][i], d["readings"][i]
            text = as_read(s["text"])
            final = model_pairs.relink(text, rules, model)
            finals.append(final)
            items: list[tuple[str, Any, str]] = []
            losses(s, rules, final, model, text, items)
            labels = labelled_relations(s)
            for what, item, cause in items:
                if what == "missed":
                    cls, sub = missed_class(item, cause, final, s, rules)
                    group = _group(item["type"])
                    missed[cls] += 1
                    by_type[group][f"missed: {cls}"] += 1
                    if sub:
                        missed[f"{cls} / {sub}"] += 1
                    if cls == "both ends found, not read":
                        missed[f"{cls} / where: {where(item, s, final)}"] += 1
                    if cls in ("both ends found, not read", "an end not found"):
                        said[f"{group}: {cls}"][construction(item, s, final)] += 1
                else:
                    cls = wrong_class(item, cause, final, s, labels)
                    wrong[cls] += 1
                    by_type[_group(item.type)][f"wrong: {cls}"] += 1
                if args.show and args.show == cls:
                    print(f"[{held}] {s['text']}\n   {what}: {item}\n   read "
                          f"{[(m.name, m.type.value) for m in final.mentions]}\n"
                          f"   links {list(final.links)}")
        total += score([d["statements"][i] for i in idx], finals)
    print(f"Russian relations, {len(data)} older authors, each held out: "
          + "/".join(f"{v:.1f}" for v in pr(total))
          + f" (right {total['tp']}, wrong {total['fp']}, missed {total['fn']})")
    print(f"missed ({sum(v for k, v in missed.items() if ' / ' not in k)}), by class:")
    for k, n in missed.most_common():
        if " / " not in k:
            print(f"  {k}: {n}")
            for sub, m in missed.most_common():
                if sub.startswith(f"{k} / "):
                    print(f"      {sub[len(k) + 3:]}: {m}")
    print(f"wrong ({sum(wrong.values())}), by class: "
          + ", ".join(f"{k} {n}" for k, n in wrong.most_common()))
    print("by type:")
    for group, row in sorted(by_type.items(), key=lambda x: -sum(x[1].values())):
        print(f"  {group}: " + ", ".join(f"{k} {n}" for k, n in row.most_common()))
    print("constructions (the target's governing verb | preposition+case), by type and class:")
    for key, row in sorted(said.items(), key=lambda x: -sum(x[1].values())):
        print(f"  {key} ({sum(row.values())}): " + ", ".join(
            f"{k} {n}" for k, n in row.most_common(args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
