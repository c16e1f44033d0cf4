"""What the world reading makes of every message of a month, for comparing two commits'
reading without replaying (round thirty, h/contra29): each message's attribute values (read
with the values read from the messages before it as held) and whether it speaks of a birthday.

    PYTHONPATH=<tree> HF_HUB_OFFLINE=1 python scripts/reading_diff.py dump MONTH.json OUT.json
    python scripts/reading_diff.py diff A.json B.json   # ids and counts only

``diff`` prints how many messages read otherwise and their ids, never their text, so it can be
run on held-out months without reading them."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def dump(month: str, out: str) -> None:
    from wave_agent.world.attributes import Value, read_values
    from wave_agent.world.reader import read
    from wave_agent.write.attributes import says_birthday

    messages = json.loads(Path(month).read_text(encoding="utf-8"))["messages"]
    held: list[Value] = []
    rows = {}
    for m in messages:
        values = read_values(m["text"], read(m["text"]), held)
        held.extend(values)
        rows[m["id"]] = {"kind": m.get("kind"),
                         "values": sorted(v.encode() for v in values),
                         "birthday": says_birthday(m["text"])}
    Path(out).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def diff(a: str, b: str) -> None:
    ra, rb = (json.loads(Path(p).read_text(encoding="utf-8")) for p in (a, b))
    values = [k for k in ra if ra[k]["values"] != rb.get(k, {}).get("values")]
    birthday = [k for k in ra if ra[k]["birthday"] != rb.get(k, {}).get("birthday")]
    print(f"{len(ra)} messages; values read otherwise: {len(values)} {values}; "
          f"birthday said otherwise: {len(birthday)} {birthday}")


if __name__ == "__main__":
    {"dump": dump, "diff": diff}[sys.argv[1]](*sys.argv[2:])
