"""How much a single line weighs against a month's message in the small-talk judge, and which
bar on the single-line statements the thresholds are chosen under, measured per new author
(h/smalltalk25, issue 30).

For each weight of a single line (``SMALLTALK_SINGLE_LINE``, the months' messages at
``SMALLTALK_IN_CONVERSATION``), every part (a month, a line set; one author each) is scored by a
model trained without it (``train_smalltalk.out_of_fold``); then, for each bar, every part's
thresholds are chosen on the other parts' out-of-fold scores only (``train_smalltalk.pick``
with the part left out), so each figure below is cross-fitted: neither the model nor the
thresholds saw the part they score. Prints the 19 months the package's judge never saw
(``tuning_6`` .. ``tuning_24``), all 24 months, and the other sets (single lines, chat sets).
``kept_aside.json`` is never read.

    SMALLTALK_CACHE=/tmp/st.npz PYTHONPATH=. python scripts/smalltalk_weights.py [--weights 1,3,6]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_smalltalk as ts

# (each month, the other sets together, each other set)
BARS = ((0.0, 0.90, 0.0), (0.0, 0.90, 0.85), (0.0, 0.90, 0.88), (0.0, 0.92, 0.88))
UNSEEN = {f"month_tuning_{n}" for n in range(6, 25)}


def main() -> None:
    arg = sys.argv[sys.argv.index("--weights") + 1] if "--weights" in sys.argv else "1,3,6"
    data = ts.lines()
    groups = np.asarray([g for g, _, _ in data])
    texts, y = [t for _, t, _ in data], np.asarray([label for _, _, label in data])
    x, extra, ext, stated, promise = ts.features(texts)
    months = np.char.startswith(groups.astype(str), "month_")
    unseen = np.isin(groups, list(UNSEEN))
    for w in (float(v) for v in arg.split(",")):
        ts.SINGLE_LINE = w
        c = ts.C_GRID[0]
        oof = ts.out_of_fold(x, y, groups, extra, c)
        for each, bar, each_set in BARS:
            ts.MIN_MONTH, ts.MIN_LINES, ts.MIN_EACH_SET = each, bar, each_set
            kept = np.zeros(len(y), dtype=bool)
            chosen = {}
            for part in sorted(set(groups)):
                at = groups == part
                _, t, k = ts.pick(oof, y, groups, ext, stated, promise, ~at)
                kept[at] = ts.stored(oof, ext, stated, promise, t, k)[at]
                chosen[part] = (t, k)
            _, t_all, k_all = ts.pick(oof, y, groups, ext, stated, promise, np.ones(len(y), bool))
            drops = sorted({t for t, _ in chosen.values()})
            print(f"single line {w:g}, C={c:g}, bar: each month >= {each:.2f}, other sets >= "
                  f"{bar:.2f}, each other set >= {each_set:.2f} | 19 unseen months {ts.tally(kept, y, unseen)} | 24 months "
                  f"{ts.tally(kept, y, months)} | other sets {ts.tally(kept, y, ~months)} | "
                  f"drop {drops[0]:.2f}-{drops[-1]:.2f}; on every part {t_all:.2f} / {k_all:.2f}",
                  flush=True)
            for part in sorted(set(groups[~months])):
                print(f"    {part} {ts.tally(kept, y, groups == part)}", flush=True)


if __name__ == "__main__":
    main()
