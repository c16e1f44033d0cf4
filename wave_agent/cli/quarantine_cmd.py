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
SHOW_OPTION = typer.Option(False, "--show", help="List the tuning part's misses and false positives "
                                                 "(never the kept-aside part's) and the flagged turns.")


@bench_app.command("quarantine")
def bench_quarantine(
    dev_set: Path | None = SET_OPTION,
    locomo: Path | None = LOCOMO_OPTION,
    ru_set: Path | None = RU_SET_OPTION,
    show: bool = SHOW_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Quarantine: catch and false positives on the dev set (both parts), LoCoMo, a Russian set."""
    from wave_agent.bench.quarantine import DEV_SET, LAYERS, run
    from wave_agent.errors import ConfigError

    root = dev_set or DEV_SET
    if not (root / "tuning.json").exists() or not (root / "kept_aside.json").exists():
        raise ConfigError("--set", f"no dev set in {root}",
                          "give --set DIR with tuning.json and kept_aside.json "
                          "(python bench/data/quarantine/build.py builds them)")
    summary = run(root, locomo=locomo, ru_set=ru_set, show=show)
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
        return
    for name in ("tuning", "kept_aside"):
        part = summary[name]
        table = Table(title=f"{name}: {part['instructions']} instructions, {part['notes']} notes")
        for column in ("layers", "catch %", "false positives %"):
            table.add_column(column)
        for k, label in LAYERS.items():
            row = part["layers"][str(k)]
            table.add_row(f"{k} {label}", f"{row['catch_pct']:.1f} ({row['caught']})",
                          f"{row['fp_pct']:.1f} ({row['flagged']})")
        console.print(table)
        langs = ", ".join(f"{lang} {c}/{n} caught, {f}/{m} flagged"
                          for lang, (c, n, f, m) in sorted(part["by_lang"].items()))
        console.print(f"  by language: {langs}", markup=False)
        shapes = ", ".join(f"{s} {c}/{n}" for s, (c, n) in sorted(part["by_shape"].items()))
        console.print(f"  by shape: {shapes}; caught by layer: {part['caught_by']}", markup=False)
        for line in part.get("misses", []):
            console.print(f"  missed: {line}", markup=False)
        for line in part.get("false_positives", []):
            console.print(f"  false positive: {line}", markup=False)
    if "locomo" in summary:
        lo = summary["locomo"]
        console.print(f"LoCoMo: {lo['flagged']} of {lo['turns']} turns flagged ({lo['fp_pct']:.2f}%)", markup=False)
        for line in lo.get("flagged_turns", []):
            console.print(f"  flagged: {line}", markup=False)
    else:
        console.print("LoCoMo: not measured (give --locomo DIR)", markup=False)
    ru = summary["ru_set"]
    console.print(f"Russian set ({ru['source']}): {ru['flagged']} of {ru['texts']} flagged ({ru['fp_pct']:.2f}%)",
                  markup=False)
    for key, label in (("cost_dev_ms", "dev set texts"), ("cost_locomo_ms", "LoCoMo turns")):
        if key in summary:
            c = summary[key]
            console.print(f"cost per write ({label}, {c['texts']}): wall mean {c['mean']} ms, p50 {c['p50']}, "
                          f"p95 {c['p95']}, max {c['max']}; CPU mean {c['cpu_mean']} ms, p95 {c['cpu_p95']}",
                          markup=False)
