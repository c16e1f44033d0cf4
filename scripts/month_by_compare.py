"""Every ``by`` figure of two ``wave bench month --json`` runs of one month side by side (false
alarms and contradictions raised too, which ``month_compare.py`` leaves out); a changed line is
marked ``*``. Totals only: no message text is printed.

    python scripts/month_by_compare.py before.json after.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def shown(value: Any) -> str:
    if isinstance(value, dict):
        return f"{value.get('n')}/{value.get('of')} ({value.get('pct')}%)"
    return str(value)


def main() -> None:
    before, after = (json.loads(Path(p).read_text())[0]["by"] for p in sys.argv[1:3])
    for month, was in before.items():
        now = after.get(month, {})
        print(month)
        for key, value in was.items():
            a, b = shown(value), shown(now.get(key))
            print(f"{'*' if a != b else ' '} {key}: {a} -> {b}")


if __name__ == "__main__":
    main()
