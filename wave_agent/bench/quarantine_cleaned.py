"""Pasted material without its order: the authors' instructions, the injected window cut out,
as ordinary text for the quarantine's meaning layer to learn (``scripts/train_quarantine.py
--cleaned``).

Most pasted documents in the authors' sets (a bank's e-mail, a price list, a chat export, a
contract) carry an order hidden in one line; the clean pasted documents among their notes are
few. A model fitted on them learns "a pasted document" as an order: in the held-out-author CV
a bank's tariff e-mail, an OCR'd parking contract and a garden society's minutes, all notes,
scored 0.99-1.0. Each such instruction with its one order removed is the same paste with
nothing aimed at the agent: a pair that differs only in the order, so the network has to read
the window that carries it rather than the document's shape. No phrase or shape is listed: the
window model (``windows``, fitted on the texts' labels) picks the window to cut.

An instruction gives a cleaned text only when the cut is unambiguous: it has at least three
windows, its text is as written (no disguise the normaliser decoded), its best window scores
at least ``ORDER`` and every window that does not overlap it below ``QUIET``, and what is left
keeps at least ``KEEP`` of the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from wave_agent.policy.quarantine import windows
from wave_agent.policy.quarantine.normalise import normalise

ORDER = 0.5  # the best window: clearly the order
QUIET = 0.2  # every other window: clearly not
KEEP = 0.4  # share of the text left after the cut
_BLANK_LINES = re.compile(r"\n\s*\n+")
_SPACES = re.compile(r"[ \t]{2,}")


def cleaned(texts: Sequence[str], model: tuple[np.ndarray, float]) -> list[tuple[int, str]]:
    """(index into ``texts``, the text without its one order) for each text whose order the
    window ``model`` (weights, bias) finds alone in it; call it with instructions only."""
    out: list[tuple[int, str]] = []
    for index, text in enumerate(texts):
        seen = normalise(text)
        if seen.notes or seen.text != text:
            continue
        parts = windows.windows(seen.text)
        if len(parts) < 3:
            continue
        p = windows.scores(parts, *model)
        best = int(np.argmax(p))
        top = parts[best]
        frame = [i for i, part in enumerate(parts) if top not in part and part not in top]
        if p[best] < ORDER or not frame or float(p[frame].max()) >= QUIET:
            continue
        rest = _SPACES.sub(" ", _BLANK_LINES.sub("\n", text.replace(top, "", 1))).strip()
        if len(rest) >= KEEP * len(text):
            out.append((index, rest))
    return out
