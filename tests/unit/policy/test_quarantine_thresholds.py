"""How scripts/train_quarantine.py picks the thresholds the writer ships: LongMemEval's pieces
are one corpus with one budget, so a single English piece cannot decide English's threshold; and
how it gives each text the vote of its nearest exemplars: from other authors only."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from tests.support.scripts import load_script


def _trainer() -> ModuleType:
    return load_script("train_quarantine")


def test_longmemeval_pieces_share_one_budget_over_languages() -> None:
    tq = _trainer()
    # 969 English pieces and 231 read as Polish: six English pieces score high, one of them cued
    high = [1.0, 1.0, 0.997, 0.985, 0.965, 0.939]
    oof = np.concatenate([high, np.zeros(963), np.zeros(231), np.linspace(0.0, 0.8, 100)])
    cued = np.zeros(len(oof), dtype=bool)
    cued[4] = True
    tongue = np.asarray(["en"] * 969 + ["pl"] * 231 + ["en"] * 50 + ["pl"] * 50)
    lme = np.arange(len(oof)) < 1200
    notes = ~lme
    pooled = tq.choose(oof, cued, tongue, [(notes, 0.03)], lme, per_language=True)
    # 0.5% of 1,200 pieces is six: English may flag all six, so its notes decide its threshold
    assert pooled["en"][0] < 0.9 and pooled["en"][1] < 0.9
    # held per language, 0.5% of 969 is 4.8 pieces: the fifth (cued, 0.965) drives both up
    alone = tq.by_language(oof, cued, [(notes, 0.03), (lme, tq.FP_LME)], tongue)
    assert alone["en"][0] >= 0.97 and alone["en"][1] >= 0.97
    assert pooled["pl"] == alone["pl"]


def test_a_texts_vote_reads_only_other_authors_exemplars() -> None:
    """Author a wrote two near-identical orders; author b a note close to them and an order far
    away. Each of a's orders, left out with its author, is voted on by b's texts only, so its own
    twin cannot vouch for it: the nearest is b's note."""
    tq = _trainer()
    rng = np.random.default_rng(1)
    base, far = rng.normal(size=384), rng.normal(size=384)
    vectors = np.stack([base, base + 0.01 * rng.normal(size=384), base + 0.3 * rng.normal(size=384), far])
    labels = np.asarray([1, 1, 0, 1])
    groups = np.asarray(["a", "a", "b", "b"])
    votes = tq.left_out_votes(vectors, labels, groups, np.ones(4, dtype=bool))
    assert votes[0, 0] < 0.01 and votes[1, 0] < 0.01  # the note is nearest, the twin unseen
    assert votes[0, 1] < 0 and votes[1, 1] < 0
    assert votes[2, 0] > 0.99  # b's note, voted on by a's two orders


def test_a_cued_order_is_held_when_everyday_chat_has_spent_the_uncued_budget() -> None:
    """English's LongMemEval pieces flag more than their budget at every threshold of the grid,
    so English's threshold is the grid's top. A pasted order the rules read as addressed to the
    agent (cued, p 0.98) must still be held: the cued threshold is chosen on the cued texts, and
    adds no flagged piece to the chat already over its budget."""
    tq = _trainer()
    # 200 English chat pieces, three uncued at 0.995 (over a 0.5% budget at any threshold), two
    # cued pieces at 0.3; 100 English notes (ten cued at 0.5-0.6); ten cued orders at 0.97-0.985
    chat = np.concatenate([[0.995] * 3, [0.3, 0.3], np.zeros(195)])
    chat_cued = np.zeros(200, dtype=bool)
    chat_cued[3:5] = True
    notes = np.concatenate([np.linspace(0.5, 0.6, 10), np.zeros(90)])
    notes_cued = np.arange(100) < 10
    orders = np.linspace(0.97, 0.985, 10)
    oof = np.concatenate([chat, notes, orders])
    cued = np.concatenate([chat_cued, notes_cued, np.ones(10, dtype=bool)])
    tongue = np.full(len(oof), "en")
    lme = np.arange(len(oof)) < 200
    is_note = (np.arange(len(oof)) >= 200) & (np.arange(len(oof)) < 300)
    chosen = tq.choose(oof, cued, tongue, [(is_note, 0.03)], lme, per_language=True)
    threshold, cued_threshold = chosen["en"]
    assert threshold == 0.99
    assert all(oof[300:] >= cued_threshold)  # every cued order held
    assert cued_threshold > 0.3  # the cued chat pieces are not
    flagged = tq.flagged_at(oof, cued, tongue, chosen)
    assert flagged[is_note].mean() <= 0.03  # and the notes keep their limit
