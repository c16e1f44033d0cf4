"""Sums of ``train_smalltalk.py --cross-fitted`` output over a chosen set of months: the months
the judge in the package never saw (``tuning_6`` on; it was trained on ``tuning`` to
``tuning_5``), so both columns are held-out figures.

    PYTHONPATH=. .venv/bin/python scripts/cross_fitted_sums.py LOG [--from 6]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LINE = re.compile(r"^month_tuning(?:_(\d+))? .*?: now small talk stored (\d+)/(\d+), statements kept "
                  r"(\d+)/(\d+); cross-fitted small talk stored (\d+)/(\d+), statements kept (\d+)/(\d+)")


def main() -> None:
    first = int(sys.argv[sys.argv.index("--from") + 1]) if "--from" in sys.argv else 6
    sums = [0] * 8
    months = 0
    under = [0, 0]
    for line in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines():
        m = LINE.match(line)
        if not m or int(m.group(1) or 1) < first:
            continue
        months += 1
        n = [int(g) for g in m.groups()[1:]]
        sums = [a + b for a, b in zip(sums, n, strict=True)]
        under[0] += n[2] / n[3] < 0.95
        under[1] += n[6] / n[7] < 0.95
    print(f"{months} months (tuning_{first} on): now small talk {sums[0]}/{sums[1]} "
          f"({sums[0] / sums[1]:.1%}), statements {sums[2]}/{sums[3]} ({sums[2] / sums[3]:.1%}), "
          f"months under 95% {under[0]}; cross-fitted small talk {sums[4]}/{sums[5]} "
          f"({sums[4] / sums[5]:.1%}), statements {sums[6]}/{sums[7]} ({sums[6] / sums[7]:.1%}), "
          f"months under 95% {under[1]}")


if __name__ == "__main__":
    main()
