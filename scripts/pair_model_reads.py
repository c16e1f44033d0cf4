"""The links each pair model (``relations.npz`` files) reads in a few statements, side by side:
what a refit changes where the unit tests look.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/pair_model_reads.py A.npz B.npz \
        ["statement" ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from wave_agent.world import pairs
from wave_agent.world.reader import as_read, complete, parsed

STATEMENTS = ("У Кости кот Барсик.", "Сестра Андрея Юля живёт в Омске.",
              "Жену Олега зовут Алсу.", "дома со мной кот Рыжик, ему уже 14, старенький совсем")


def main() -> int:
    models = [a for a in sys.argv[1:] if a.endswith(".npz")]
    texts = [a for a in sys.argv[1:] if not a.endswith(".npz")] or list(STATEMENTS)
    readings = [complete(t, r) for t, r in zip(texts, parsed(texts), strict=True)]
    for path in models:
        model = pairs.Model.load(Path(path))
        assert model is not None, path
        for text, reading in zip(texts, readings, strict=True):
            out = pairs.relink(as_read(text), reading, model)
            print(f"{path}: {text} -> "
                  f"{sorted((x.source, x.type, x.target) for x in out.links)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
