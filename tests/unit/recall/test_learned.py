"""The learned ranker: the features each candidate gets, the shipped model's file, and that
it puts the record that means what was asked above one that only shares a rare word, and the
person's own record above a relative's."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import numpy as np
import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.policy import calibration
from wave_agent.recall import learned
from wave_agent.recall.asked import Asked
from wave_agent.recall.candidates import Candidates, Question
from wave_agent.recall.presets import CURRENT, DEFAULT
from wave_agent.recall.voices import Degraded, VoiceResult

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def _fact(fid: str, text: str) -> Fact:
    at = datetime(2026, 5, 1, tzinfo=UTC)
    return Fact(id=fid, user_id="u", text=text, type=FactType.IDENTITY, tier=Tier.FACT,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=0.9, created_at=at,
                last_confirmed_at=at)


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _candidates(query: str, records: dict[str, tuple[str, np.ndarray, dict[str, int]]],
                query_vector: np.ndarray, someone_else: set[str] = frozenset()) -> Candidates:
    """Candidates as ``weigh`` leaves them: every record in the running with an equal
    hand-set score, so only the features can tell them apart."""
    c = Candidates(Question("u", query, 5, DEFAULT, CURRENT), Degraded(), 0.0)
    c.results["semantic"] = VoiceResult(query_vector=query_vector)
    for fid, (text, vector, ranks) in records.items():
        c.facts[fid] = _fact(fid, text)
        c.vectors[fid] = vector
        c.ranks[fid] = ranks
        c.scores[fid] = c.final[fid] = 0.05
        c.signals[fid] = {"decay": 1.0, "episode": 1.0, "speaker": 0.0,
                          "someone_else": float(fid in someone_else),
                          "about_self": float(bool(someone_else))}
    return c


def test_features_are_one_row_per_candidate_in_the_shipped_order() -> None:
    q = _unit(1, 0, 0)
    c = _candidates("кто мой начальник?", {
        "a": ("Мой начальник — Виктор Петрович", _unit(0.9, 0.1, 0), {"semantic": 1}),
        "b": ("Без вектора", _unit(0, 1, 0), {"lexical": 2})}, q)
    del c.vectors["b"]
    ids, x = learned.features(c, NOW, calibration.E5_SMALL)
    assert ids == ["a", "b"] and x.shape == (2, len(learned.FEATURES))
    row = dict(zip(learned.FEATURES, x[0], strict=True))
    assert row["rr_semantic"] == 1.0 and row["rr_lexical"] == 0.0
    assert row["cosine_gap"] == 0.0 and row["type_identity"] == 1.0
    other = dict(zip(learned.FEATURES, x[1], strict=True))
    assert other["rr_lexical"] == 0.5
    assert other["cosine"] <= row["cosine"]  # no vector: as far as the farthest


def test_the_attribute_steps_verdict_is_a_feature_not_an_override() -> None:
    """"где я сейчас живу?" read as asking for the city: the records that state it carry
    their place in the step's order and the head's probability, and the rest carry the
    question's reading only, for the trees to weigh against the other voices."""
    q = _unit(1, 0, 0)
    c = _candidates("где я сейчас живу?", {
        "moved": ("Переехала в Казань", _unit(0.5, 0.5, 0), {"asked": 1}),
        "old": ("Живу в Самаре", _unit(0.4, 0.6, 0), {"asked": 2}),
        "talk": ("Живу одна, без кота", _unit(0.9, 0.1, 0), {"semantic": 1})}, q)
    c.asked = Asked("city", 0.83, False, 0.1)
    _, x = learned.features(c, NOW, calibration.E5_SMALL)
    rows = [dict(zip(learned.FEATURES, r, strict=True)) for r in x]
    assert [r["rr_asked"] for r in rows] == [1.0, 0.5, 0.0]
    assert all(r["asked_p"] == pytest.approx(0.83) and r["asked_past"] == 0.0 for r in rows)
    c.asked = None
    _, x = learned.features(c, NOW, calibration.E5_SMALL)
    assert not x[:, learned.FEATURES.index("asked_p")].any()


def test_where_a_record_stands_among_the_questions_candidates_is_its_own_feature() -> None:
    """The same cosine is first for one question and last for another: the per-question
    features say so, the record's own cosine does not."""
    cosine = learned.FEATURES.index("cosine")
    weak = np.zeros((3, len(learned.FEATURES)), dtype=np.float32)
    weak[:, cosine] = [0.30, 0.20, 0.10]
    strong = weak.copy()
    strong[:, cosine] = [0.50, 0.40, 0.30]
    a = dict(zip(learned.ALL, learned.derive(weak)[0], strict=True))
    b = dict(zip(learned.ALL, learned.derive(strong)[2], strict=True))
    assert a["cosine"] == b["cosine"] == pytest.approx(0.30)
    assert a["cosine_rr"] == 1.0 and b["cosine_rr"] == pytest.approx(1 / 3)
    assert a["cosine_margin"] == pytest.approx(0.10) and b["cosine_margin"] == pytest.approx(-0.2)
    assert a["cosine_z"] > 0 > b["cosine_z"]


def test_what_the_candidates_are_like_is_the_same_on_every_row() -> None:
    """Short stated facts and long chat turns want different orders (a cosine lead stands
    among facts of ten words): the pool features tell a search of one kind from the other,
    whatever set it came from, and say the same on each of its rows."""
    words = learned.FEATURES.index("log_words")
    facts = np.zeros((4, len(learned.FEATURES)), dtype=np.float32)
    facts[:, words] = np.log1p([8, 10, 12, 9])
    turns = np.zeros((40, len(learned.FEATURES)), dtype=np.float32)
    turns[:, words] = np.log1p(np.linspace(30, 90, 40))
    a, b = learned.derive(facts), learned.derive(turns)
    pool_words, pool_size = learned.ALL.index("pool_words"), learned.ALL.index("pool_size")
    assert len(set(a[:, pool_words])) == 1 and len(set(a[:, pool_size])) == 1
    assert a[0, pool_words] < b[0, pool_words] and a[0, pool_size] < b[0, pool_size]


def test_who_said_a_record_its_sessions_hits_and_its_repeats_are_features() -> None:
    """LongMemEval's evidence is the person's own turns, in a session other hits share, and
    a "how many" question's evidence is the same thing said in several sessions."""
    q = _unit(1, 0, 0)
    c = _candidates("how many weddings did I attend?", {
        "mine": ("I attended my cousin's wedding", _unit(0.9, 0.1, 0), {"semantic": 1}),
        "again": ("I attended my cousin's wedding", _unit(0.9, 0.1, 0), {"semantic": 2}),
        "reply": ("Weddings are a great occasion", _unit(0.8, 0.3, 0), {"semantic": 3}),
        "alone": ("My car needs new tyres", _unit(0.1, 0.9, 0.2), {"semantic": 4})}, q)
    for fid, session in (("mine", "s1"), ("again", "s2"), ("reply", "s1"), ("alone", "s3")):
        c.facts[fid] = replace(c.facts[fid], exchange_ids=(session,),
                               speaker="assistant" if fid == "reply" else "user")
    ids, x = learned.features(c, NOW, calibration.E5_SMALL)
    rows = {fid: dict(zip(learned.FEATURES, row, strict=True)) for fid, row in zip(ids, x, strict=True)}
    assert rows["reply"]["assistant"] == 1.0 and rows["mine"]["assistant"] == 0.0
    assert rows["mine"]["session_share"] > 0 and rows["alone"]["session_share"] == 0
    assert rows["mine"]["near_repeats"] > 0 and rows["again"]["near_repeats"] > 0
    assert rows["alone"]["near_repeats"] == 0


def test_a_tree_sends_each_row_down_its_own_path() -> None:
    tree = learned.Tree(feature=np.array([0, -1, 1, -1, -1]),
                        threshold=np.array([0.5, 0, 2.0, 0, 0]),
                        left=np.array([1, 0, 3, 0, 0]), right=np.array([2, 0, 4, 0, 0]),
                        value=np.array([0, -1.0, 0, 0.5, 2.0]))
    z = np.array([[0.1, 9.0], [0.9, 1.0], [0.9, 3.0]])
    assert tree.predict(z).tolist() == [-1.0, 0.5, 2.0]


def test_a_model_naming_an_unknown_feature_is_refused() -> None:
    with pytest.raises(ValueError, match="does not compute"):
        learned.LearnedRanker.from_json({"features": ["cosine", "mood"], "intercept": 0.0})


def test_the_shipped_model_puts_the_record_that_means_it_above_a_rare_word_match() -> None:
    """"кто мой начальник?": the record naming the boss in other words is first in meaning;
    the one sharing a rare word ("начальник отдела кадров уволился") is first in full text
    only and far in meaning. Every other signal equal, the shipped model ranks meaning first."""
    model = learned.load()
    assert set(model.names) <= set(learned.ALL) and model.names
    q = _unit(1, 0, 0)
    c = _candidates("кто мой начальник?", {
        "boss": ("Мной руководит Виктор Петрович, он ведёт наш отдел",
                 _unit(0.95, 0.3, 0), {"semantic": 1, "context_semantic": 1, "lexical": 9}),
        "word": ("Начальник отдела кадров у соседей уволился",
                 _unit(0.4, 0.9, 0), {"lexical": 1, "context_lexical": 1, "semantic": 12})}, q)
    c.in_context.update({"boss": 0.9, "word": 0.45})
    ids, x = learned.features(c, NOW, calibration.E5_SMALL)
    learned.rerank(c, model, x, ids)
    assert c.final["boss"] > c.final["word"]


def test_a_relatives_record_and_a_stale_state_sink_below_the_models_order() -> None:
    """"на что у меня аллергия?": the person's own record and a relative's, alike in every
    feature: the relative's comes second (others_factor), and a decayed one below both."""
    q = _unit(1, 0, 0)
    same = _unit(0.9, 0.2, 0)
    c = _candidates("на что у меня аллергия?", {
        "mine": ("Мне нельзя пенициллин", same, {"semantic": 1}),
        "sonya": ("У Сони аллергия на арахис", same, {"semantic": 1}),
        "stale": ("Мне нельзя пенициллин", same, {"semantic": 1})}, q, someone_else={"sonya"})
    c.signals["stale"]["decay"] = 0.3
    ids, x = learned.features(c, NOW, calibration.E5_SMALL)
    learned.rerank(c, learned.load(), x, ids, others_factor=0.7)
    assert c.final["mine"] > c.final["sonya"] > c.final["stale"]


def test_a_polish_question_about_the_person_does_not_sink_a_record_without_a_pronoun() -> None:
    """"Co mi przepisali na swędzące oczy?" and "Lekarka przepisała krople do oczu
    Allergodil": Polish drops the pronoun and the drug's name reads as a person's, so the
    someone-else check fires on the answer; the Polish weight (fitted 0) leaves it where the
    model put it, while a Russian question's relative still sinks."""
    q = _unit(1, 0, 0)
    same = _unit(0.9, 0.2, 0)
    records = {"drops": ("Lekarka przepisała krople do oczu Allergodil", same, {"semantic": 1}),
               "other": ("Krople do oczu kupiłam w aptece", same, {"semantic": 1})}
    c = _candidates("Co mi przepisali na swędzące oczy?", records, q, someone_else={"drops"})
    ids, x = learned.features(c, NOW, calibration.E5_SMALL)
    ranker = learned.load()
    assert ranker.weight_for("polish") == 0.0
    assert ranker.weight_for("russian") == ranker.someone_else < 0
    learned.rerank(c, ranker, x, ids, others_factor=0.7)
    assert c.final["drops"] >= c.final["other"] * 0.99


def test_hand_own_takes_the_someone_else_factor_back_out() -> None:
    """``hand_own``: the fusion's score as if the check had not fired."""
    x = np.zeros((2, len(learned.FEATURES)), dtype=np.float32)
    hand, other = learned.FEATURES.index("hand_final"), learned.FEATURES.index("someone_else")
    x[:, hand] = [0.0, np.log(0.7)]
    x[1, other] = 1.0
    own = learned.derive(x, 0.7)[:, learned.ALL.index("hand_own")]
    assert own == pytest.approx([0.0, 0.0], abs=1e-6)


def test_a_fitted_attribute_weight_moves_the_steps_record_up_and_stops_the_override() -> None:
    """With an ``asked`` weight the step's record moves up by it only: a record the model
    finds far likelier stays above it, and between two the model finds alike the step's own
    wins; such a model is not overridden by the step. The shipped model has none (round ten
    measured one and kept the step: docs/benchmarks.md, "Round ten")."""
    assert not learned.load().weighs_asked
    weighed = replace(learned.load(), asked=0.25)
    assert weighed.weighs_asked
    fused = np.log(np.array([0.05, 0.05, 0.05]))
    ones, none = np.ones(3), np.zeros(3)
    asked = np.array([0.0, 1.0, 0.0])
    scores = learned.after_model(np.array([0.9, 0.3, 0.3]), fused, ones, none, None, 1.0,
                                 asked, weighed.asked)
    assert scores[0] > scores[1] > scores[2]
    alike = learned.after_model(np.array([0.3, 0.3, 0.1]), fused, ones, none, None, 1.0,
                                asked, weighed.asked)
    assert alike[1] > alike[0] > alike[2]


def test_the_models_sure_first_is_not_undone_by_decays_noise_when_fused_scores_tie() -> None:
    """"Из какой квартиры нас заливают сверху?" (memory-ru-8): the model found the record
    naming flat 47 twice as likely as the neighbour's payment, their fused scores tied, and a
    decay of 0.99 against 1.0 put the payment first. With the fitted confidence weight the
    model's lead counts; a state two months old (decay's floor, 0.25) still sinks below a
    current one the model finds 50 times less likely (docs/benchmarks.md, "Round eleven")."""
    ranker = learned.load()
    assert ranker.confidence is not None and ranker.confidence > 0
    tied = np.log(np.array([1.0, 1.0]))
    none = np.zeros(2)
    noise = np.array([0.99, 1.0])
    p = np.array([0.78, 0.42])
    before = learned.after_model(p, tied, noise, none, None, 1.0)
    assert before[1] > before[0]  # what broke: decay's noise decided
    after = learned.after_model(p, tied, noise, none, None, 1.0, confidence=ranker.confidence)
    assert after[0] > after[1]
    stale = learned.after_model(np.array([0.163, 0.0032]), np.log(np.array([1.0, 0.62])),
                                np.array([0.25, 0.997]), none, None, 1.0,
                                confidence=ranker.confidence)
    assert stale[1] > stale[0]
