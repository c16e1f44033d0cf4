"""The date reader on variants of the labelled phrases: the same promise, written another way.

    PYTHONPATH=. .venv/bin/python scripts/bench_dates_variants.py [--data bench/data/dates] [-v]

For every phrase of every part of the date set that the reader gets right, variants whose
label is plainly the same are read too, and every variant read differently is counted (and
printed with ``-v``): a reader that learned a phrase and not its class fails here. The
variants: a tail naming the promise (", я обещал", ", obiecałem", ", I promised"), "напомни:" /
"remind me:" in front, a weekday shortened ("в пт", "w pt.", "Fri"), a Russian preposition
typed glued to its weekday ("впятницу"), Polish typed without diacritics, two clauses
swapped around their comma, "!!" or an emoji after, a Russian date with its month in digits
("15.03"), an hour with ":00" ("в 10:00"), an English weekday without "on", "не забыть:" /
"nie zapomnieć:" / "don't forget:" in front, the first comma as a dash, "tmrw", "15го", and a
Russian day word with a letter dropped ("пятнцу"), "18.30" for "18:30", "3 p.m." for "3pm", a
count in digits ("через 2 недели"). Every phrase here has been read: these are tuning figures, a
check of generality, not a blind measure.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from wave_agent.policy.dates import local_text, read_due

_RU_SHORT = {"понедельник": "пн", "вторник": "вт", "среду": "ср", "четверг": "чт",
             "пятницу": "пт", "субботу": "сб", "воскресенье": "вс"}
_PL_SHORT = {"poniedziałek": "pon.", "wtorek": "wt.", "środę": "śr.", "czwartek": "czw.",
             "piątek": "pt.", "sobotę": "sob.", "niedzielę": "niedz."}
_EN_SHORT = {"monday": "Mon", "tuesday": "Tues", "wednesday": "Weds", "thursday": "Thurs",
             "friday": "Fri", "saturday": "Sat", "sunday": "Sun"}
_RU_MONTHS = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
              "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
_FOLD = str.maketrans("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ", "acelnoszzACELNOSZZ")


def variants(text: str, lang: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if lang == "ru":
        out += [("tail", text + ", я обещал"), ("remind", "напомни: " + text)]
        for word, short in _RU_SHORT.items():
            if re.search(r"\b(?:в|во) " + word, text):
                out.append(("short", re.sub(r"\b(в|во) " + word, r"\1 " + short, text)))
        glued = re.sub(r"\bв (понедельник|среду|четверг|пятницу|субботу|воскресенье)", r"в\1",
                       text)
        if glued != text:
            out.append(("glued", glued))
    elif lang == "pl":
        out.append(("tail", text + ", obiecałem"))
        for word, short in _PL_SHORT.items():
            if re.search(r"\bw " + word, text):
                out.append(("short", re.sub(r"\bw " + word, "w " + short, text)))
        out.append(("plain", text.translate(_FOLD)))
    else:
        out += [("tail", text + ", I promised"), ("remind", "remind me: " + text)]
        for word, short in _EN_SHORT.items():
            if re.search(r"(?i)\b" + word + r"\b", text):
                out.append(("short", re.sub(r"(?i)\b" + word + r"\b", short, text)))
    out += [("bang", text + " !!"), ("emoji", text + " 🙏")]
    month = re.search(r"\b(\d{1,2}) (" + "|".join(_RU_MONTHS) + r")\b", text)
    if lang == "ru" and month:
        numeric = f"{int(month.group(1)):02d}.{_RU_MONTHS[month.group(2)]:02d}"
        out.append(("numeric", text[:month.start()] + numeric + text[month.end():]))
    hour = re.search(r"\b(в|o|at) (8|9|1[0-9]|2[0-3])\b(?![:.\d-])", text)
    if hour:
        out.append(("minutes", text[:hour.end()] + ":00" + text[hour.end():]))
    if lang == "en":
        bare = re.sub(r"(?i)\bon (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
                      r"\1", text)
        if bare != text:
            out.append(("no-on", bare))
    forget = {"ru": "не забыть: ", "pl": "nie zapomnieć: ", "en": "don't forget: "}[lang]
    out.append(("forget", forget + text))
    if ", " in text:
        out.append(("dash", text.replace(", ", " - ", 1)))
    if re.search(r"(?i)\btomorrow\b", text):
        out.append(("tmrw", re.sub(r"(?i)\btomorrow\b", "tmrw", text)))
    suffix = re.sub(r"\b(\d{1,2})-го\b", r"\1го", text)
    if lang == "ru" and suffix != text:
        out.append(("го", suffix))
    typo = re.search(r"\b(понедельник|вторник|четверг|пятницу|субботу|воскресенье|завтра)\b", text)
    if lang == "ru" and typo:
        word = typo.group(1)
        slip = word[:3] + word[4:]        # a letter dropped: "пятнцу", "завра"
        out.append(("typo", text[:typo.start()] + slip + text[typo.end():]))
    dotted = re.sub(r"\b([0-2]?\d):([0-5]\d)\b", r"\1.\2", text)
    if dotted != text:
        out.append(("h.mm", dotted))
    spaced = re.sub(r"\b(\d{1,2}) ?(am|pm)\b", lambda m: f"{m.group(1)} {m.group(2)[0]}.m.", text)
    if spaced != text:
        out.append(("p.m.", spaced))
    counts = {"две": "2", "три": "3", "два": "2", "dwa": "2", "dwie": "2", "trzy": "3",
              "two": "2", "three": "3"}
    digits = re.sub(r"\b(через|za|in) (две|три|два|dwa|dwie|trzy|two|three)\b",
                    lambda m: f"{m.group(1)} {counts[m.group(2)]}", text)
    if digits != text:
        out.append(("count", digits))
    days = "|".join(list(_RU_SHORT) + list(_PL_SHORT) + list(_EN_SHORT))
    lead = re.match(r"(?i)((?:в|во|w|we|on) (?:" + days + r")|завтра|послезавтра|jutro|pojutrze|"
                    r"tomorrow) ([^,]+)$", text)
    if lead and not re.search(r"\d", lead.group(2)):
        out.append(("at-end", lead.group(2) + " " + lead.group(1)))
    halves = text.split(", ")
    if len(halves) == 2 and not text.endswith("?"):
        out.append(("swap", halves[1] + ", " + halves[0]))
    return out


def reading(text: str, at: datetime) -> str | None:
    found = read_due(text, at)
    return "ask" if found.ambiguous else (local_text(found.due) if found.due else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("bench/data/dates"))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    tried, missed = Counter[str](), Counter[str]()
    for path in sorted(args.data.glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")):
            at = datetime.fromisoformat(item["written_at"]).replace(tzinfo=ZoneInfo(item["tz"]))
            want = "ask" if item.get("ambiguous") else item["due"]
            if reading(item["text"], at) != want:
                continue
            for kind, text in variants(item["text"], item["lang"]):
                tried[kind] += 1
                got = reading(text, at)
                if got != want:
                    missed[kind] += 1
                    if args.verbose:
                        print(f"{kind:6} want {want!s:17} got {got!s:17} | {text}")
    for kind in sorted(tried):
        print(f"{kind:6} {tried[kind] - missed[kind]:5}/{tried[kind]:<5} read as labelled")
    total = sum(tried.values())
    print(f"all    {total - sum(missed.values()):5}/{total:<5}")


if __name__ == "__main__":
    main()
