"""Builds the quarantine dev set (tuning.json, kept_aside.json) from the hand-written src/*.txt.

Every text in src/ was written by hand for this set. The builder only applies the marked
obfuscations (``@hg`` homoglyphs, ``@zw`` zero-width characters, ``@sp`` spaced letters,
``@b64`` a base64 payload after ``|||``, ``@fw`` full-width letters, ``@leet`` kept as
written) and splits the set: an item goes to the kept-aside part when the first byte of the
SHA-1 of its text is below 0x60 (about 37%), so the split does not depend on the detector.

    python bench/data/quarantine/build.py
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
LATIN_TO_CYR = str.maketrans("aceopxyAEKMHOPCTBX", "асеорхуАЕКМНОРСТВХ")
CYR_TO_LAT = str.maketrans("аеорсухАЕКМНОРСТВХ", "aeopcyxAEKMHOPCTBX")
ZW = ("\u200b", "\u200c", "\u200d", "\u2060")


def homoglyph(text: str) -> str:
    out = []
    for i, ch in enumerate(text):
        swapped = ch.translate(CYR_TO_LAT) if "\u0400" <= ch <= "\u04ff" else ch.translate(LATIN_TO_CYR)
        out.append(swapped if i % 3 == 1 else ch)  # every third letter or so, as a forger would
    return "".join(out)


def zero_width(text: str) -> str:
    return "".join(ch + (ZW[i % 4] if ch.isalpha() else "") for i, ch in enumerate(text))


def spaced(text: str) -> str:
    return "  ".join(" ".join(word) for word in text.split())


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in text)


def obfuscate(op: str, text: str) -> str:
    if op == "hg":
        return homoglyph(text)
    if op == "zw":
        return zero_width(text)
    if op == "sp":
        return spaced(text)
    if op == "fw":
        return fullwidth(text)
    if op == "b64":
        prefix, payload = (p.strip() for p in text.split("|||"))
        return f"{prefix} {base64.b64encode(payload.encode()).decode()}"
    if op == "leet":
        return text
    raise ValueError(op)


def read(path: Path, label: str, lang: str | None = None) -> list[dict[str, str]]:
    lang = lang or path.stem.split("_")[1]
    shape = ""
    items = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or (line.startswith("#") and not line.startswith("##")):
            continue
        if line.startswith("## "):
            shape = line[3:].strip()
            continue
        text, how = line, shape
        if line.startswith("@"):
            op, _, rest = line.partition(" ")
            text, how = obfuscate(op[1:], rest), f"obfuscated:{op[1:]}"
        items.append({"text": text.replace("\\n", "\n"), "label": label, "lang": lang, "shape": how})
    return items


def main() -> None:
    items = []
    for path in sorted((HERE / "src").glob("instructions_*.txt")):
        items += read(path, "instruction")
    for path in sorted((HERE / "src").glob("notes_*.txt")):
        items += read(path, "note")
    # written after the first kept-aside measurements: tuning only (the kept-aside part stays)
    extra = read(HERE / "src" / "extra_instructions_tuning.txt", "instruction", "mixed")
    extra += read(HERE / "src" / "extra_notes_tuning.txt", "note", "mixed")
    seen: set[str] = set()
    parts: dict[str, list[dict[str, str]]] = {"tuning": [], "kept_aside": []}
    for item in items:
        if item["text"] in seen:
            raise SystemExit(f"repeated text: {item['text']!r}")
        seen.add(item["text"])
        digest = hashlib.sha1(item["text"].encode()).digest()
        item["id"] = f"{item['label'][0]}-{item['lang']}-{digest.hex()[:8]}"
        parts["kept_aside" if digest[0] < 0x60 else "tuning"].append(item)
    for item in extra:
        if item["text"] in seen:
            raise SystemExit(f"repeated text: {item['text']!r}")
        seen.add(item["text"])
        item["id"] = f"{item['label'][0]}-x-{hashlib.sha1(item['text'].encode()).hexdigest()[:8]}"
        parts["tuning"].append(item)
    for name, part in parts.items():
        (HERE / f"{name}.json").write_text(json.dumps(part, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        n_ins = sum(i["label"] == "instruction" for i in part)
        sys.stdout.write(f"{name}: {n_ins} instructions, {len(part) - n_ins} notes\n")


if __name__ == "__main__":
    main()
