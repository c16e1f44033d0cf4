"""Write copies of the entity sets' English and Polish authors, their statements lower-cased
("lower") or as written ("cased"), the entity names as labelled, for
``wave bench entities --data <out>`` (round thirty-five, docs/benchmarks.md): how the reader
does for a writer who types no capitals. No text is printed.

    PYTHONPATH=$PWD python scripts/lower_case_entities.py /tmp/lower-case lower
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> None:
    source, out, mode = Path("bench/data/entities"), Path(sys.argv[1]), sys.argv[2]
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("tuning*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        part["people"] = [p for p in part["people"] if p["lang"] in ("en", "pl")]
        if mode == "lower":
            for person in part["people"]:
                for statement in person["statements"]:
                    statement["text"] = statement["text"].lower()
        (out / path.name).write_text(json.dumps(part, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
