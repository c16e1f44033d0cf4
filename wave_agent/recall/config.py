"""``RecallConfig``: how deep each voice asks, how the voices fuse, and every factor the
ranking applies, with what each earned on the benchmarks (docs/benchmarks.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RecallConfig:
    depth: int = 60            # candidates asked of each text voice
    temporal_depth: int = 20
    graph_depth: int = 30
    seeds: int = 3             # strongest candidates whose entities are walked (graph voice)
    context_window_s: float = 300.0
    context_per_seed: int = 2
    voice_timeout_s: float = 1.0
    mmr_pool: int = 40
    context_seeds: int = 180   # text candidates loaded with their neighbours in time
    # Of each text voice's candidates (lexical, semantic, dated), the first this many are
    # read with their context: 40 against all 60, LoCoMo R@10 76.5 -> 76.7, memory-ru level
    # (30: LoCoMo 77.1, memory-ru one question less); the read is a third shorter.
    context_depth: int = 40
    rrf_k: int = 30            # rank constant: lower lets a voice's first places count more
    # A question that names a date ("on 3 June", "в мае") also searches the records created
    # in that period; people talk about a day's events over the following days too.
    dated_after_days: float = 7.0
    # Episodes (a day's conversation): records of the episodes where the best candidates
    # cluster are lifted, x (1 + weight / (1 + the episode's rank)).
    episode_pool: int = 40
    episode_weight: float = 0.5
    # Event records (what was said) run from "hi!" to a story; the more a record says, the
    # likelier it holds the answer, and both BM25 and cosine normalise length away:
    # x ((words + 1) / EVENT_WORDS) ** info_prior.
    info_prior: float = 0.2
    # A full-text hit counts by how much of the query it covers: x (share of the query's
    # content stems found in the record, or in its context window) ** lexical_coverage.
    # BM25 puts a record matching one common word ("зовут", "стоит") first when nothing
    # matches the rest, and rank fusion would give that first place a full vote.
    lexical_coverage: float = 1.0
    # The graph walk scores the records about one entity alike (all 1.0) and breaks ties by
    # recency, which says nothing about the question: records of equal walk score are ordered
    # by their cosine with the query instead.
    graph_by_meaning: bool = True
    # Two records with other numbers are never copies for MMR, however alike ("karnet
    # kosztuje 150 zł" / "karnet kosztuje teraz 180 zł": one is a change of the other, and
    # the copy rule put the current price after everything else).
    copies_keep_numbers: bool = True
    # Records said on different days are never copies for MMR: the write path merges a
    # statement said again into the record it repeats (a confirmation), so two alike records
    # days apart are what happened next ("обещал маме починить кран" / "починил наконец кран",
    # "одолжил Олегу 30 тысяч" / "Олег вернул долг"), not a paraphrase to skip.
    copies_same_day: bool = True
    # Records said by different speakers are never copies for MMR: an assistant's reply that
    # says the person's turn back ("That sounds like an amazing experience! ... the Great Ocean
    # Road", 0.82 alike) is an answer, not a paraphrase the write path missed, and the copy rule
    # put the person's own turn, the evidence, last (LongMemEval 3b6f954b). Only records that
    # carry a speaker (imported chats: LoCoMo, LongMemEval, `wave import`) are touched; notes
    # and live chat records have none. LoCoMo all seven R@10 77.5 -> 77.9 (+6 / -1 questions),
    # R@5 71.1 -> 71.3 (+5 / -3), R@1 level (docs/benchmarks.md, "Round twenty-seven
    # (2026-12-06, h/recall23)").
    copies_one_speaker: bool = True
    # Each score x exp(meaning_weight * (the record's cosine with the question - the best
    # candidate's)), the cosine of the record in its context window (see context_rankings;
    # a lone record's is its own) on MiniLM's scale (calibration.rescale). Rank fusion gives a
    # first place in any voice a full vote; a record far from the question in meaning should
    # not ride one to the top. 1.0: +3 questions of memory-ru at R@5, LoCoMo level; 2.0 gave
    # memory-pl one more question and LoCoMo 0.4 R@10 less, 5.0 cost LoCoMo 6 points of R@5
    # (a conversation turn says less on its own than a stated fact; docs/benchmarks.md).
    meaning_weight: float = 1.0
    # A question about the person themself ("на что у меня аллергия?") scales the records
    # about someone else ("У Сони аллергия на арахис", graph.kin.about_someone_else) by this.
    others_factor: float = 0.7
    # A question naming a relative by role is asked once more without them ("чем болела
    # дочь?" -> "чем болела?"): the candidates ranked by their cosine with that are one more
    # voice of this weight. The relative's name brings every record about her, and the
    # record that says who she is ("Дочке Соне пять лет") matches the question best; what
    # the question asks about her is in the rest.
    relative_rest_weight: float = 1.0
    # Clipped words are asked in full too ("за велик?" -> "велосипед"; colloquial.expand).
    colloquial: bool = True
    # How the candidates are ordered before MMR: "learned" (the trees in recall/ranker.json
    # over every voice's rank and score and the record's signals, spaced by the fused scores
    # and then decayed; recall.learned) or "fusion" (the hand-set weighted RRF and factors
    # above; RECALL_RANKER=fusion). The learned order is better at rank 1 on LoCoMo's
    # kept-aside conversations and level on the memory sets' (docs/benchmarks.md, "A learned
    # ranker"); its someone-else weight is fitted listwise on the tuning questions where a
    # relative's record competes (scripts/train_ranker.py, fit_someone_else).
    ranker: str = "learned"
    # The question's vector moved by the learned query map (recall.adapter, ``adapter.npz``):
    # "all" for the semantic voice, the ranker's cosine features and the meaning factor (its
    # cosines put back on plain e5's scale); "search" for the semantic voice's search only, the
    # features reading the plain vector; "off". The stored vectors are never touched
    # (RECALL_QUERY_ADAPTER; docs/benchmarks.md, "Round seventeen"). "auto": as "all" when the
    # records plain e5 finds nearest the question read as notes of the kind the map was
    # trained on (recall.kind), as "off" over chat transcripts, where the map costs recall
    # (docs/benchmarks.md, "Round twenty-two (2026-12-06, h/recall20)").
    query_adapter: str = "auto"
    # MMR's weight of relevance against likeness to a record already picked, after the
    # learned order; None: the preset's ``mmr_lambda`` (0.75, set on the hand-set fusion).
    # Replaying MMR over the engine's own inputs with each memory author left out picks 0.95:
    # held-out R@5 up on seven of eighteen sets, down on three, R@1 never moves (MMR keeps
    # the first); a changed value ("совещание теперь по средам") is like the old one it
    # follows and 0.75 pushed it out of the first five. Not the default: beside the shipped
    # engine in the same minutes LoCoMo's kept-aside R@5 fell by one question (71.5 -> 71.1,
    # through the entity step after MMR), and that guard must not fall (docs/benchmarks.md,
    # "Round twelve"). Measured again with trees retrained on ten memory authors: level on the
    # held-out author's Russian set, one Polish question lost at R@5, LoCoMo's kept-aside R@5
    # 71.1 -> 70.3 (docs/benchmarks.md, "Round thirteen"); it stays off.
    learned_mmr_lambda: float | None = None
    # A question about now ("сколько я сейчас плачу за ..."): among the ten best, a record
    # goes just below a newer one whose stored e5 vector is at least this close (raw cosine),
    # the same thing said again later (recall.newer); None: off. 0.90 was picked on memory
    # authors 1-10 (R@1 +1.5, R@5 level) and held on authors 11-13 (+2.6, level); current-value
    # questions first 37.6% -> 50.5% there (docs/benchmarks.md, "The newer record first").
    newer_first: float | None = 0.90
    # After the learned order: "on" hands its values out in the order of each record's e5
    # cosine with the question instead; "auto" does so when ``recall.order`` (a regression over
    # what the question's candidates are like, ``order.npz``) finds the e5 order likelier to
    # serve (long self-contained chat turns, where the trees trained on short notes and
    # LoCoMo's short turns move the right turn down); "off" never (docs/benchmarks.md,
    # "Round twenty-five (2026-12-06, h/recall22)").
    e5_order: str = "off"
    # After the learned order, over a chat between people only (``recall.context``): small
    # trees reorder its first 40 by what surrounds each turn (the other speaker's question
    # before it, whether it is itself a question, its reply's and its neighbours' scores);
    # fitted on LoCoMo's five tuning conversations (scripts/train_context_stage.py).
    # Notes, live chat, an assistant's history keep their order exactly. On by default since
    # round forty (h/locomo40: docs/benchmarks.md, "Round forty (2026-12-07, h/locomo40)").
    context_stage: bool = True
    # The context stage's trees: a ``context.json``-format file in place of the shipped one
    # (a benchmark asks a refitted stage beside the shipped one over the same records); None
    # is the shipped file.
    context_model: str | None = None
    # Over a person's history with an AI assistant (some candidates said by ``assistant``:
    # an imported ChatGPT-style history, LongMemEval) the trees' log-odds gain this times the
    # share of such candidates times each record's e5 cosine z-score (learned.with_cosine):
    # the trees, learned from notes and from LoCoMo's talk between two people, moved the
    # evidence below e5's own order there. Notes, live chat and a chat between people hold
    # no assistant's record and are untouched by construction; 0 switches it off
    # (docs/benchmarks.md, "Round thirty (2026-12-06, h/recall26)").
    assistant_cosine: float = 4.0
    # The steps after the order, each switchable so a benchmark can measure it apart
    # (``--also-config``; docs/benchmarks.md, "Round twenty-seven (2026-12-06, h/recall23)").
    # The entity step (recall.about): an entity question's records about that entity first.
    entity_first: bool = True
    # The attribute step: a question about an attribute, the records stating its value first
    # (skipped anyway when the learned ranker weighs that verdict itself).
    attribute_first: bool = True
    # The attribute head's least probability to answer by attribute (None: the one fitted
    # with the head, ``asked.npz``'s 0.61), so a benchmark can ask a lower bar beside it.
    attribute_threshold: float | None = None
    # The attribute head's file in place of the shipped ``asked.npz`` (a benchmark asks a
    # refitted head beside the shipped one over the same records); None is the shipped file.
    attribute_model: str | None = None
    # The weight of ``stated`` (the record states the asked attribute of the person asking,
    # ``recall.stated``) on the learned ranker's log-odds in place of the one ``ranker.json``
    # carries (None: the file's; 0: off), so a benchmark can ask both over the same records.
    stated_weight: float | None = None
    # The now/stable gate on that step's override: it runs for a question about a value in
    # force only where ``asked.p_now`` (a logistic regression over the question's e5 vector,
    # ``now_gate.npz``) is at least this; a question about a past value always. None: the
    # override runs whatever the question. 0.2: on memory-ru / pl-28 to -31, held out of the
    # gate, R@1 Russian +3 / -1, Polish +3 / -0 questions, three months' current value first
    # unchanged; 0.5 gained 16 but lost one month's current value first (docs/benchmarks.md,
    # "Round thirty-one (2026-12-06, h/gate31)").
    attribute_now_gate: float | None = 0.2
    # Within it, a question about now answered by an ending or a denial the person said since
    # ("я курю?" after "бросила курить"): that record before the ones saying the value it
    # ended (``asked.first``; round thirty, h/now30). False: only values in force answer.
    endings_first: bool = True
    # The history step (recall.older): each chosen record preceded by the one it replaced.
    replaced_first: bool = True
    # MMR's copy rule: a candidate at least the calibration's ``mmr_duplicate`` alike to one
    # already picked comes only once nothing else is left, whatever ``learned_mmr_lambda``.
    mmr_copies: bool = True
    # Type decay's strength at most this (None: the preset's ``decay_strength``), so a
    # benchmark can measure decay apart (``--also-config nodecay:decay_strength=0``).
    decay_strength: float | None = None
    speakers_ttl_s: float = 300.0
    vector_cache: int = 50_000  # stored vectors kept in memory (~1.5 KB each at 384-d)
