"""``wave bench quarantine``: catch and false-positive rates of the quarantine check, by layer."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from wave_agent.cli import bench_app
from wave_agent.cli.common import JSON_OPTION, console

SET_OPTION = typer.Option(None, "--set", file_okay=False,
                          help="The dev set directory (tuning.json, kept_aside.json); "
                               "default bench/data/quarantine of the repo.")
LOCOMO_OPTION = typer.Option(None, "--locomo", exists=True, file_okay=False,
                             help="Directory with LoCoMo conv-*.json: false positives on every turn.")
RU_SET_OPTION = typer.Option(None, "--ru-set", exists=True,
                             help="A Russian personal-memory set (JSON file or directory): false "
                                  "positives on it. Default: the dev set's Russian notes.")
SHOW_OPTION = typer.Option(False, "--show", help="List the tuning parts' misses and false positives "
                                                 "(never a kept-aside part's, set D's least of all; and each "
                                                 "set's as scored by "
                                                 "the model trained on the other) and the flagged turns.")


LONGMEMEVAL_OPTION = typer.Option(None, "--longmemeval", exists=True, dir_okay=False,
                                  help="LongMemEval's JSON file: pieces of turns flagged, the kept-aside "
                                       "questions' histories (never trained on) and the tune questions'.")
PL_SET_OPTION = typer.Option(None, "--pl-set", exists=True,
                             help="A Polish personal-memory set: false positives on it. Default: "
                                  "bench/data/memory-pl.")
TITLES = {"a_tuning": "set A, tuning part", "a_kept_aside": "set A, kept-aside part",
          "b_tuning": "set B, tuning part", "b_kept_aside": "set B, kept-aside part",
          "c_tuning": "set C (all tuning data)", "d_tuning": "set D (all tuning data; run blind once before)",
          "e_tuning": "set E (all tuning data)", "f_tuning": "set F (all tuning data)",
          "g_tuning": "set G (all tuning data; run blind once before)", "h_tuning": "set H (all tuning data)",
          "i_tuning": "set I (all tuning data)", "j_tuning": "set J (all tuning data; run blind once before)",
          "l_tuning": "set L (all tuning data)",
          "blind": "kept-aside sets (bench/data/quarantine/blind)",
          "a_to_b": "trained on set A only, scored on all of set B",
          "b_to_a": "trained on set B only, scored on all of set A"}


@bench_app.command("quarantine")
def bench_quarantine(
    dev_set: Path | None = SET_OPTION,
    locomo: Path | None = LOCOMO_OPTION,
    ru_set: Path | None = RU_SET_OPTION,
    pl_set: Path | None = PL_SET_OPTION,
    longmemeval: Path | None = LONGMEMEVAL_OPTION,
    show: bool = SHOW_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Quarantine: sets A-F (A and B each scored by the model tuned on the other), the kept-aside
    sets of bench/data/quarantine/blind (counts only), LoCoMo, memory sets."""
    from wave_agent.bench.quarantine import DEV_SET, LAYERS, run
    from wave_agent.errors import ConfigError

    root = dev_set or DEV_SET
    if not (root / "tuning.json").exists() or not (root / "kept_aside.json").exists():
        raise ConfigError("--set", f"no dev set in {root}",
                          "give --set DIR with tuning.json and kept_aside.json "
                          "(python bench/data/quarantine/build.py builds them)")
    summary = run(root, locomo=locomo, ru_set=ru_set, pl_set=pl_set, longmemeval=longmemeval, show=show)
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
        return
    titles = {**TITLES, **{key: f"{key.split(':', 1)[1]}, kept aside, never tuned on"
                           for key in summary if key.startswith("blind:")}}
    for name, title in titles.items():
        if name not in summary:
            continue
        part = summary[name]
        if "missing" in part:
            console.print(f"{title}: missing ({part['missing']} is not there yet)", markup=False)
            continue
        table = Table(title=f"{title}: {part['instructions']} instructions, {part['notes']} notes")
        for column in ("layers", "catch %", "false positives %"):
            table.add_column(column)
        for k, row in part["layers"].items():
            table.add_row(f"{k} {LAYERS[int(k)]}", f"{row['catch_pct']:.1f} ({row['caught']})",
                          f"{row['fp_pct']:.1f} ({row['flagged']})")
        console.print(table)
        langs = ", ".join(f"{lang} {c}/{n} caught, {f}/{m} flagged"
                          for lang, (c, n, f, m) in sorted(part["by_lang"].items()))
        console.print(f"  by language: {langs}", markup=False)
        shapes = ", ".join(f"{s} {c}/{n}" + (f" ({f}/{m} flagged)" if m else "")
                           for s, (c, n, f, m) in sorted(part["by_shape"].items()))
        console.print(f"  by shape: {shapes}; caught by layer: {part['caught_by']}", markup=False)
        for line in part.get("misses", []):
            console.print(f"  missed: {line}", markup=False)
        for line in part.get("false_positives", []):
            console.print(f"  false positive: {line}", markup=False)
    for key, label, unit in (
            ("locomo", "LoCoMo, every turn", "turns"),
            ("locomo_unseen", "LoCoMo, the conversations not trained on", "turns"),
            ("longmemeval_held", "LongMemEval, the kept-aside questions' histories (never trained on)",
             "pieces of turns"),
            ("longmemeval_tune", "LongMemEval, the tune questions' histories (trained on)", "pieces of turns")):
        if key in summary:
            lo = summary[key]
            console.print(f"{label}: {lo['flagged']} of {lo['turns']} {unit} flagged ({lo['fp_pct']:.2f}%)",
                          markup=False)
            for line in lo.get("flagged_turns", []):
                console.print(f"  flagged: {line}", markup=False)
    if "locomo" not in summary:
        console.print("LoCoMo: not measured (give --locomo DIR)", markup=False)
    for key in ("ru_set", "pl_set"):
        if key in summary:
            m = summary[key]
            console.print(f"memory set {m['source']}: {m['flagged']} of {m['texts']} flagged ({m['fp_pct']:.2f}%)",
                          markup=False)
            for line in m.get("flagged_texts", []):
                console.print(f"  flagged: {line}", markup=False)
    for key, label in (("extracted_locomo_unseen", "LoCoMo turns not trained on"), ("extracted_ru_set", "memory-ru"),
                       ("extracted_pl_set", "memory-pl")):
        if key in summary:
            m = summary[key]
            console.print(f"the extraction's third-person statements of {label}: {m['flagged']} of {m['texts']} "
                          f"flagged ({m['fp_pct']:.2f}%)", markup=False)
            for line in m.get("flagged_texts", []):
                console.print(f"  flagged: {line}", markup=False)
    for key, label in (("cost_dev_ms", "the sets' texts"), ("cost_locomo_ms", "LoCoMo turns")):
        if key in summary:
            c = summary[key]
            console.print(f"cost per write beyond the embedding ({label}, {c['texts']}): wall mean {c['mean']} ms, "
                          f"p50 {c['p50']}, p95 {c['p95']}, max {c['max']}; CPU mean {c['cpu_mean']} ms, "
                          f"p95 {c['cpu_p95']}", markup=False)
