"""One row per part and run out of ``wave bench entities --json`` outputs: Russian entities
(all, people, places, organisations) and relations with their counts, Polish and English
relations, and questions with a right record in the first 5; then the relations by type
(right / wrong / missed), for comparing two trees on the same held-out parts.

    python scripts/entities_table.py before.json after.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def _pr(t: dict[str, float]) -> str:
    return f"{t['P']:.1f} / {t['R']:.1f} ({t['tp']}, {t['fp']}, {t['fn']})"


def main() -> int:
    for name in sys.argv[1:]:
        for part in json.loads(Path(name).read_text(encoding="utf-8")):
            e, r = part["entities"], part["relations"]
            cells = [_pr(e["ru/all"]), *(_pr(e[f"ru/{k}"]) for k in
                                         ("person", "place", "organisation")),
                     _pr(r["ru/all"]), _pr(r["pl/all"]), _pr(r["en/all"]),
                     f"{part['questions']['all']['R@5']:.1f}"]
            print(f"| {Path(name).stem} {part['part']} | " + " | ".join(cells) + " |")
            kinds = sorted(k.split("/", 1)[1] for k in r if k.startswith("ru/") and k != "ru/all")
            print("   ru by type: " + ", ".join(
                f"{k} {r[f'ru/{k}']['tp']}/{r[f'ru/{k}']['fp']}/{r[f'ru/{k}']['fn']}"
                for k in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
