"""A retrained quarantine model against the shipped one, on the authors the shipped one never saw.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python scripts/quarantine_unseen.py SCORES.npz \
        [--shipped SHIPPED.npz] [--authors x,y,z,aa,ab,ac,ad,ae,af]

``SCORES``: a ``train_quarantine.py --save-scores`` run's held-out scores (each author's texts
scored by a model fitted without that author); the thresholds applied to an author are chosen on
the other authors' scores only (``without_each_author``), as a new author meets them.
``SHIPPED``: a meaning model file, judged by ``quarantine.detect`` with every layer (as the
writer judges, each text with its e5 vector) on the same authors' texts. The default authors are
the sets written after the shipped twenty-four-writer model was trained (X-AF: each was run blind
on it once, then given to training), so both figures are on text neither model's scorer saw.
Printed per language: instructions caught and notes flagged, pooled over the authors, and the
worst author's notes flagged; the same for each author.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from wave_agent.bench.quarantine import DEV_SET, authored_parts
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import detect, meaning

UNSEEN_BY_SHIPPED = ("x", "y", "z", "aa", "ab", "ac", "ad", "ae", "af")
LANGS = ("ru", "en", "pl", "mixed")


def _train_script():  # type: ignore[no-untyped-def]
    path = Path(__file__).resolve().parent / "train_quarantine.py"
    spec = importlib.util.spec_from_file_location("train_quarantine", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def held_out(scores: Path, authors: list[str]) -> dict[str, dict[str, list[int]]]:
    """author -> language -> [caught, instructions, flagged, notes] from the saved held-out scores."""
    train = _train_script()
    oof, cued, tongue, limits, lme, groups, y, langs, *_ = train.load_scores(scores, train.FP_NOTES)
    out: dict[str, dict[str, list[int]]] = {}
    for g in authors:
        mine = groups == g
        chosen = train.by_language(oof, cued, [(rows & ~mine, limit) for rows, limit in limits], tongue,
                                   (lme, train.FP_LME))
        flagged = train.flagged_at(oof[mine], cued[mine], tongue[mine], chosen)
        out[g] = {}
        for lang in LANGS:
            k = langs[mine] == lang
            ins, notes = k & (y[mine] == 1), k & (y[mine] == 0)
            out[g][lang] = [int(flagged[ins].sum()), int(ins.sum()), int(flagged[notes].sum()), int(notes.sum())]
    return out


def shipped(model: Path, authors: list[str]) -> dict[str, dict[str, list[int]]]:
    """The same counts from ``model`` judging each author's texts with ``detect``."""
    meaning.MODELS["both"] = model
    meaning.model.cache_clear()
    cache = VectorCache()
    parts = authored_parts(DEV_SET)
    out: dict[str, dict[str, list[int]]] = {}
    for g in authors:
        items = parts[g]
        vectors = cache.vectors([i["text"] for i in items])
        counts = {lang: [0, 0, 0, 0] for lang in LANGS}
        for item, vector in zip(items, vectors, strict=True):
            hit = detect(item["text"], vector=vector) is not None
            row = counts.setdefault(item["lang"], [0, 0, 0, 0])
            if item["label"] == "instruction":
                row[0] += hit
                row[1] += 1
            else:
                row[2] += hit
                row[3] += 1
        out[g] = counts
    return out


def table(name: str, counts: dict[str, dict[str, list[int]]]) -> str:
    lines = [f"{name}:"]
    for lang in LANGS:
        rows = [counts[g][lang] for g in counts if counts[g][lang][1] + counts[g][lang][3]]
        if not rows:
            continue
        c, n, f, m = (sum(r[i] for r in rows) for i in range(4))
        worst = max((r[2] / r[3] for r in rows if r[3]), default=0.0)
        over = sum(1 for r in rows if r[3] and r[2] / r[3] > 0.03)
        lines.append(f"    {lang}: caught {c}/{n} ({100 * c / max(n, 1):.1f}%), notes flagged {f}/{m} "
                     f"({100 * f / max(m, 1):.1f}%); worst author {100 * worst:.1f}%, {over} of {len(rows)} over 3%")
    for g in counts:
        lines.append(f"    {g}: " + "; ".join(f"{lang} {r[0]}/{r[1]}, {r[2]}/{r[3]}"
                                              for lang, r in counts[g].items() if r[1] + r[3]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scores", type=Path, help="a train_quarantine.py --save-scores file")
    parser.add_argument("--shipped", type=Path, help="the shipped meaning model (a meaning.npz) to judge them too")
    parser.add_argument("--authors", default=",".join(UNSEEN_BY_SHIPPED))
    args = parser.parse_args()
    authors = args.authors.split(",")
    sys.stdout.write(table(f"held out by author ({args.scores}), thresholds chosen without it",
                           held_out(args.scores, authors)) + "\n")
    if args.shipped:
        sys.stdout.write(table(f"{args.shipped} (never saw these authors), every layer",
                               shipped(args.shipped, authors)) + "\n")


if __name__ == "__main__":
    main()
