"""Two or more outputs of ``scripts/contradictions_months.py`` side by side (issue 30, round
thirty, h/contra28): labelled contradictions raised and raised on a message labelled none, for
the months named with ``--held`` (not read while building) and for the rest, and the message
ids that differ between the first output and each other one. Ids and counts only.

    python scripts/contradictions_sweep_compare.py --held tuning_19,tuning_28 base.txt new.txt
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LINE = re.compile(r"^(tuning_\d+) (m\d+)(?: -> m\d+)?: (.*?)(?: \| replay: .*)?$")


def tally(path: Path) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = LINE.match(line)
        if m:
            cls = m.group(3)
            out[(m.group(1), m.group(2))] = ("alarm" if cls.startswith("raised on no labelled")
                                             else "raised" if cls == "raised" else "missed")
    return out


def main() -> None:
    args = sys.argv[1:]
    held: set[str] = set()
    if "--held" in args:
        i = args.index("--held")
        held = set(args[i + 1].split(","))
        del args[i:i + 2]
    runs = [(p, tally(Path(p))) for p in args]
    for name, t in runs:
        for group, inside in (("held out", True), ("the rest", False)):
            keys = [k for k in t if (k[0] in held) == inside]
            labelled = [k for k in keys if t[k] != "alarm"]
            raised = sum(t[k] == "raised" for k in keys)
            alarms = sum(t[k] == "alarm" for k in keys)
            months = len({k[0] for k in keys})
            print(f"{name} {group} ({months} months): raised {raised} of {len(labelled)}, "
                  f"raised on no labelled contradiction {alarms}")
    first = runs[0][1]
    for name, t in runs[1:]:
        for k in sorted(set(first) | set(t)):
            if first.get(k) != t.get(k):
                print(f"{name}: {k[0]} {k[1]} {first.get(k)} -> {t.get(k)}")


if __name__ == "__main__":
    main()
