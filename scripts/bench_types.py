"""Accuracy of the type guesser (``wave_agent/policy/types.py``) on labelled statements.

Reads ``bench/data/types/{tune,heldout,fresh,other_author}.tsv`` (``type<TAB>language<TAB>text``; see the README
there) and prints, for each part: overall accuracy, accuracy by language, and per type the
recall (labelled X, guessed X) and precision (guessed X, labelled X). ``--misses`` lists the
wrong guesses. No services needed. Usage:

    .venv/bin/python scripts/bench_types.py [--misses]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph.models import FactType  # noqa: E402
from wave_agent.policy.types import guess_type  # noqa: E402

DATA = ROOT / "bench" / "data" / "types"


def load(path: Path) -> list[tuple[FactType, str, str]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        label, language, text = line.split("\t", 2)
        try:
            rows.append((FactType(label), language, text))
        except ValueError:
            raise SystemExit(f"{path.name}:{number}: unknown type {label!r}") from None
    return rows


def report(name: str, rows: list[tuple[FactType, str, str]], misses: bool) -> None:
    guessed = [(label, language, text, guess_type(text)) for label, language, text in rows]
    right = sum(1 for label, _, _, guess in guessed if guess is label)
    print(f"== {name}: {right}/{len(rows)} = {100 * right / len(rows):.1f}%")
    by_language: Counter[str] = Counter()
    right_language: Counter[str] = Counter()
    for label, language, _, guess in guessed:
        by_language[language] += 1
        right_language[language] += guess is label
    print("   by language: " + ", ".join(
        f"{lang} {right_language[lang]}/{n} = {100 * right_language[lang] / n:.0f}%"
        for lang, n in sorted(by_language.items(), key=lambda kv: "rupl en".index(kv[0]))))
    print(f"   {'type':<13}{'n':>4}{'recall':>9}{'precision':>11}")
    for kind in FactType:
        labelled = [g for g in guessed if g[0] is kind]
        predicted = [g for g in guessed if g[3] is kind]
        hits = sum(1 for g in labelled if g[3] is kind)
        recall = f"{100 * hits / len(labelled):.0f}%" if labelled else "-"
        precision = f"{100 * hits / len(predicted):.0f}%" if predicted else "-"
        print(f"   {kind.value:<13}{len(labelled):>4}{recall:>9}{precision:>11}")
    if misses:
        for label, language, text, guess in guessed:
            if guess is not label:
                print(f"   miss [{language}] {label.value} -> {guess.value}: {text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="list the wrong guesses")
    args = parser.parse_args()
    for part in ("tune", "heldout", "fresh", "other_author"):
        report(part, load(DATA / f"{part}.tsv"), args.misses)


if __name__ == "__main__":
    main()
