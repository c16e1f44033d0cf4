"""Train recall's query map (``wave_agent/recall/adapter.npz``) from the memory sets.

Every ``bench/data/memory-*`` set but a kept-aside one (every question ``held``: the next blind
set) has its facts embedded as stored passages and its questions as
queries, exactly as recall embeds them (``archive.embedder.Embedder``, multilingual-e5-small);
the vectors are cached in ``--cache``. The map ``q' = normalise(q + q @ W.T)`` is trained with
InfoNCE: each question against every fact of its own set, the facts that answer it the
positives (temperature ``--tau``), ``W`` started at zero and held near it by ``--decay``
(``decay * |W|^2`` in the loss), full batch, Adam.

``--locomo DIR`` adds LoCoMo's tuning conversations (``locomo.split_of``: the five not kept
aside), each a set of its own: its questions (category 5 left out) against every turn, the
evidence turns the positives, the turns embedded as the bench stores them ("speaker: text").
They are in every training run below, never in the measure.

``--loao`` measures it first: each author (memory-ru-N and memory-pl-N together; memory-ru and
memory-pl are author 1) left out in turn, trained on the others with two further authors held
for early stopping by their MRR, then plain e5 and the adapted e5 on the author left out
(R@1 / R@5 / MRR, Russian and Polish apart, the mean and the worst author). ``--write`` then
trains on every author for ``--steps`` (the median of the held-out runs' stopping steps when
``--loao`` ran) and writes the file. Figures: docs/benchmarks.md, "Round seventeen".

``--loco DIR`` (with ``--locomo``) does the same for LoCoMo's tuning conversations, which the
shipped map has seen: each left out in turn, a map trained on everything else for ``--steps``
(no early stopping, as the shipped file), plain e5 and that map on the conversation left out,
and each map written to ``DIR/adapter-without-<conv>.npz`` (its cosine map fitted on its own
training sets), so the engine can be run on each tuning conversation with a map that never saw
it (docs/benchmarks.md, "Round twenty (2026-12-05, h/recall18)").

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 nice -n 10 \\
        python scripts/train_query_adapter.py --locomo ../shared/data/locomo --loao --steps 100 --write
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wave_agent.recall import adapter  # noqa: E402

Sets = dict[str, dict[str, Any]]


def author(name: str) -> str:
    """memory-ru-7 and memory-pl-7 are author 7; memory-ru and memory-pl author 1."""
    parts = name.split("-")
    return parts[2] if len(parts) > 2 else "1"


async def _embed(directories: list[Path]) -> Sets:
    from archive.embedder import Embedder
    from wave_agent.bench.memory import load_set

    embedder = Embedder(adapter.READS)
    await embedder.load()
    out: Sets = {}
    for d in directories:
        data = load_set(d)
        facts = await embedder.embed([f.text for f in data.facts])
        # one at a time, as recall asks (a small call goes to the C engine)
        questions = np.stack([(await embedder.embed_query([q.text]))[0] for q in data.questions])
        index = {f.id: i for i, f in enumerate(data.facts)}
        positive = np.zeros((len(data.questions), len(data.facts)), dtype=bool)
        for i, q in enumerate(data.questions):
            positive[i, [index[a] for a in q.answers]] = True
        out[d.name] = {"facts": facts, "questions": questions, "positive": positive}
        print(f"embedded {d.name}: {len(data.facts)} facts, {len(data.questions)} questions",
              flush=True)
    return out


async def _embed_locomo(directory: Path) -> Sets:
    from archive.embedder import Embedder
    from wave_agent.bench.locomo import record_text, split_of
    from wave_agent.bench.locomo_data import load_conversations

    embedder = Embedder(adapter.READS)
    await embedder.load()
    out: Sets = {}
    for c in load_conversations(directory):
        if split_of(c.name) != "tune":
            continue
        index = {t.dia_id: i for i, t in enumerate(c.turns)}
        asked = [q for q in c.questions if q.category != 5 and any(e in index for e in q.evidence)]
        turns = await embedder.embed([record_text(t) for t in c.turns])
        questions = np.stack([(await embedder.embed_query([q.text]))[0] for q in asked])
        positive = np.zeros((len(asked), len(c.turns)), dtype=bool)
        for i, q in enumerate(asked):
            positive[i, [index[e] for e in q.evidence if e in index]] = True
        out[f"locomo-{c.name}"] = {"facts": turns, "questions": questions, "positive": positive}
        print(f"embedded {c.name}: {len(c.turns)} turns, {len(asked)} questions", flush=True)
    return out


def _kept_aside(directory: Path) -> bool:
    """A set whose every question is ``held``: the next blind set, never trained on."""
    rows = [json.loads(line) for line in
            (directory / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return bool(rows) and all(r.get("split") == "held" for r in rows)


def vectors(data_dir: Path, cache: Path, locomo: Path | None) -> Sets:
    directories = sorted(d for d in data_dir.glob("memory-*")
                         if (d / "questions.jsonl").is_file() and not _kept_aside(d))
    sets: Sets = {}
    if cache.is_file():
        sets = np.load(cache, allow_pickle=True).item()
    wanted = {d.name for d in directories}
    sets = {n: s for n, s in sets.items() if n.startswith("locomo-") or n in wanted}
    missing = [d for d in directories if d.name not in sets]
    if missing:  # only the sets the cache lacks
        sets.update(asyncio.run(_embed(missing)))
    if locomo is not None and not any(n.startswith("locomo-") for n in sets):
        sets.update(asyncio.run(_embed_locomo(locomo)))
    np.save(cache, np.asarray(sets, dtype=object), allow_pickle=True)
    if locomo is None:
        sets = {n: s for n, s in sets.items() if not n.startswith("locomo-")}
    return sets


def _ranks(sets: Sets, names: list[str], w: Any | None) -> list[int | None]:
    import torch

    found: list[int | None] = []
    with torch.no_grad():
        for name in names:
            q = torch.tensor(sets[name]["questions"])
            if w is not None:
                q = torch.nn.functional.normalize(q + q @ w.T, dim=-1)
            scores = q @ torch.tensor(sets[name]["facts"]).T
            order = torch.argsort(-scores, 1)[:, :10].numpy()
            positive = sets[name]["positive"]
            for i in range(len(order)):
                hits = np.flatnonzero(positive[i][order[i]])
                found.append(int(hits[0]) + 1 if len(hits) else None)
    return found


def figures(found: list[int | None]) -> np.ndarray:
    n = max(1, len(found))
    return np.array([100 * sum(1 for r in found if r is not None and r <= 1) / n,
                     100 * sum(1 for r in found if r is not None and r <= 5) / n,
                     sum(1 / r for r in found if r is not None) / n])


def train(sets: Sets, names: list[str], held: list[str], args: argparse.Namespace,
          steps: int) -> tuple[Any, int]:
    """``W`` trained on ``names``; with ``held`` the step of their best MRR (checked every
    ``--every`` steps), else the last."""
    import torch

    torch.manual_seed(args.seed)
    w = torch.zeros(adapter.DIM, adapter.DIM, requires_grad=True)
    optimiser = torch.optim.Adam([w], lr=args.lr)
    batches = [(torch.tensor(sets[n]["questions"]), torch.tensor(sets[n]["facts"]),
                torch.tensor(sets[n]["positive"])) for n in names]
    total = sum(len(b[0]) for b in batches)
    best = (figures(_ranks(sets, held, None))[2] if held else -1.0, 0, w.detach().clone())
    for step in range(1, steps + 1):
        optimiser.zero_grad()
        loss = args.decay * (w ** 2).sum()
        for q, f, positive in batches:
            moved = torch.nn.functional.normalize(q + q @ w.T, dim=-1)
            scores = moved @ f.T / args.tau
            every = torch.logsumexp(scores, 1)
            right = torch.logsumexp(scores.masked_fill(~positive, -1e9), 1)
            loss = loss + (every - right).sum() / total
        loss.backward()
        optimiser.step()
        if held and step % args.every == 0:
            mrr = figures(_ranks(sets, held, w.detach()))[2]
            if mrr > best[0] + 1e-4:
                best = (mrr, step, w.detach().clone())
    if held:
        return best[2], best[1]
    return w.detach().clone(), steps


def fit_cosine_map(sets: Sets, names: list[str], w: np.ndarray, nearest: int = 30
                   ) -> tuple[float, float]:
    """The affine map that gives each question's ``nearest`` facts by the moved vector the mean
    and spread of their plain e5 cosines (the scale the trees and the calibration know)."""
    moved_all, plain_all = [], []
    for name in names:
        q, f = sets[name]["questions"], sets[name]["facts"]
        moved = q + q @ w.T
        moved /= np.linalg.norm(moved, axis=1, keepdims=True)
        plain, adapted = q @ f.T, moved @ f.T
        top = np.argsort(-adapted, axis=1)[:, :nearest]
        moved_all.append(np.take_along_axis(adapted, top, 1).ravel())
        plain_all.append(np.take_along_axis(plain, top, 1).ravel())
    x, y = np.concatenate(moved_all), np.concatenate(plain_all)
    scale = float(y.std() / x.std())
    return scale, float(y.mean() - scale * x.mean())


def leave_one_author_out(sets: Sets, args: argparse.Namespace) -> list[int]:
    always = [n for n in sets if n.startswith("locomo-")]
    memory = {n: s for n, s in sets.items() if n not in always}
    authors = sorted({author(n) for n in memory}, key=int)
    rows: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    stops = []
    for i, left in enumerate(authors):
        stopping = {authors[(i + 1) % len(authors)], authors[(i + 2) % len(authors)]}
        rest = [n for n in memory if author(n) != left]
        w, stop = train(sets, [*always, *(n for n in rest if author(n) not in stopping)],
                        [n for n in rest if author(n) in stopping], args, args.max_steps)
        stops.append(stop)
        for name in (n for n in memory if author(n) == left):
            rows[name] = (figures(_ranks(sets, [name], None)), figures(_ranks(sets, [name], w)))
            plain, moved = rows[name]
            print(f"  {name:14} e5 {plain[0]:5.1f} / {plain[1]:5.1f} / {plain[2]:.3f}   adapted "
                  f"{moved[0]:5.1f} / {moved[1]:5.1f} / {moved[2]:.3f}   (stopped at {stop})",
                  flush=True)
    for language in ("ru", "pl"):
        names = [n for n in rows if n.split("-")[1] == language]
        plain = np.array([rows[n][0] for n in names])
        moved = np.array([rows[n][1] for n in names])
        gain = moved - plain
        worst = names[int(np.argmin(gain[:, 0]))]
        print(f"{language}, {len(names)} sets, each author left out: e5 "
              f"{plain.mean(0)[0]:.1f} / {plain.mean(0)[1]:.1f} / {plain.mean(0)[2]:.3f}, adapted "
              f"{moved.mean(0)[0]:.1f} / {moved.mean(0)[1]:.1f} / {moved.mean(0)[2]:.3f}; "
              f"worst R@1 {worst} {gain[:, 0].min():+.1f}, worst R@5 {gain[:, 1].min():+.1f}")
    return stops


def leave_one_conversation_out(sets: Sets, args: argparse.Namespace, steps: int,
                               out: Path) -> None:
    """Each LoCoMo tuning conversation left out: a map trained on every other set for
    ``steps``, measured on it beside plain e5 and written to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    conversations = sorted(n for n in sets if n.startswith("locomo-"))
    plain_all: list[int | None] = []
    moved_all: list[int | None] = []
    for left in conversations:
        rest = sorted(n for n in sets if n != left)
        w, _ = train(sets, rest, [], args, steps)
        scale, shift = fit_cosine_map(sets, rest, w.numpy())
        path = out / f"adapter-without-{left.removeprefix('locomo-')}.npz"
        adapter.save(w.numpy(), path, cos_scale=scale, cos_shift=shift, tau=args.tau,
                     decay=args.decay, steps=steps, sets=np.asarray(rest))
        plain, moved = _ranks(sets, [left], None), _ranks(sets, [left], w)
        plain_all += plain
        moved_all += moved
        a, b = figures(plain), figures(moved)
        print(f"  {left:16} e5 {a[0]:5.1f} / {a[1]:5.1f} / {a[2]:.3f}   map without it "
              f"{b[0]:5.1f} / {b[1]:5.1f} / {b[2]:.3f}   -> {path}", flush=True)
    a, b = figures(plain_all), figures(moved_all)
    print(f"LoCoMo tuning, {len(plain_all)} questions, each conversation left out: e5 "
          f"{a[0]:.1f} / {a[1]:.1f} / {a[2]:.3f}, adapted {b[0]:.1f} / {b[1]:.1f} / {b[2]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/query_adapter_vectors.npy"))
    parser.add_argument("--locomo", type=Path, default=None,
                        help="LoCoMo's directory: its tuning conversations join the training")
    parser.add_argument("--tau", type=float, default=0.02)
    parser.add_argument("--decay", type=float, default=0.01)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--max-steps", type=int, default=300)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--steps", type=int, default=None,
                        help="steps on every author (default: the held-out runs' median stop)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--loao", action="store_true", help="measure each author left out")
    parser.add_argument("--write", action="store_true", help=f"write {adapter.MODEL.name}")
    parser.add_argument("--loco", type=Path, default=None, metavar="DIR",
                        help="each LoCoMo tuning conversation left out (needs --locomo); "
                             "its maps written to DIR")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    sets = vectors(args.data, args.cache, args.locomo)
    steps = args.steps
    if args.loao:
        stops = leave_one_author_out(sets, args)
        steps = steps or int(np.median(stops))
        print(f"stopping steps {stops}: median {int(np.median(stops))}")
    if args.loco is not None:
        if args.locomo is None:
            parser.error("--loco needs --locomo")
        leave_one_conversation_out(sets, args, steps or 100, args.loco)
    if args.write:
        w, _ = train(sets, sorted(sets), [], args, steps or 100)
        scale, shift = fit_cosine_map(sets, sorted(sets), w.numpy())
        adapter.save(w.numpy(), cos_scale=scale, cos_shift=shift, tau=args.tau,
                     decay=args.decay, steps=steps or 100, sets=np.asarray(sorted(sets)))
        print(f"cosine map: {scale:.3f} x + {shift:.3f}")
        print(f"wrote {adapter.MODEL} ({steps or 100} steps on {len(sets)} sets)")


if __name__ == "__main__":
    main()
