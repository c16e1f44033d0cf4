"""The ranking stages of ``Recall.search``: pure, over what the reading stages gathered.

4. ``rank``: each record once more by its context window (the record with those said right
   before and after it), the dated voice (the records created in the period the question
   names), the rest of a relative's question by cosine; weighted RRF over all of them, each
   full-text hit counted by how much of the question it covers.
5. ``weigh``: each fused score scaled by the type's Weibull decay, the confidence and the
   status, by the record's episode (where the best candidates cluster) and, for event records,
   by how much they say; a record said by someone the question names counts more; for a
   question about the person, records about someone else count less; then by how far each is
   from the question in meaning against the best.
6. ``diversify``: MMR picks the final ``k``; paraphrases of a picked record come last, but two
   records of other days or other numbers are never copies."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

import numpy as np

from graph import kin
from graph.entities import content_stems
from graph.models import Fact, FactType
from graph.stemming import language_of, stem
from wave_agent.policy.calibration import Calibration
from wave_agent.policy.quantities import numbers
from wave_agent.recall import decay, fusion, voices
from wave_agent.recall.candidates import Candidates
from wave_agent.recall.config import RecallConfig
from wave_agent.recall.question import POLISH_FUNCTION_WORDS

SELF_WEIGHT = 2.0  # in a context window the record itself counts this many times a neighbour
EVENT_WORDS = 20  # a typical chat message; the information factor is 1 there
_WORD = re.compile(r"\w+", re.UNICODE)


def rank(c: Candidates, cfg: RecallConfig) -> None:
    """Every voice's ranking, then the fused scores and each record's rank per voice."""
    q = c.question
    c.rankings.update(context_rankings(c.pool, c.links, c.facts, c.lexical_scores, c.vectors,
                                       c.query_vector, cfg.depth, c.in_context))
    if c.cosine_map != (1.0, 0.0):
        c.in_context.update({fid: c.plain_scale(v) for fid, v in c.in_context.items()})
    if q.period is not None:
        c.rankings["dated"] = dated_ranking(
            q.period, c.facts, c.rankings.get("lexical", []),
            c.results.get("dated-semantic", voices.VoiceResult()).ids, cfg.depth)
    c.weights = q.preset.weights
    if c.rest_vector is not None:
        asked_rest = c.rest_vector
        vectors = c.vectors
        ranked = sorted((i for i in c.pool if i in vectors),
                        key=lambda i: -float(np.dot(vectors[i], asked_rest)))
        c.rankings["rest"] = ranked[:cfg.depth]
        c.weights = {**c.weights, "rest": cfg.relative_rest_weight}
    scale = None
    if cfg.lexical_coverage > 0:
        # The role and the relatives' names are one person: "дочь" and "Соня" count once.
        person = [frozenset(content_stems(" ".join(
            [*(w for w in _WORD.findall(q.text) if kin.role_of(w)),
             *(e.name for e in q.relatives)]), language_of(q.text)))] if q.relatives else []
        scale = coverage_scale(c.lexical_query, c.rankings, c.links, c.facts,
                               cfg.lexical_coverage, person)
    c.coverage = scale or {}
    c.scores, c.ranks = fusion.weighted_rrf(c.rankings, c.weights, cfg.rrf_k, scale)


def weigh(c: Candidates, cfg: RecallConfig, now: datetime, cal: Calibration) -> None:
    """Each fused score times what the record is (``final``); records outside the statuses
    searched, or another person's, leave here. ``cal``: the embedding model's calibration."""
    q = c.question
    preset = q.preset
    allowed = set(q.statuses)
    named = named_speakers(q.text, {f.speaker for f in c.facts.values() if f.speaker})
    about_self = cfg.others_factor != 1.0 and not q.relatives and kin.asks_about_self(q.text)
    lifted = episode_factors(c.scores, c.facts, cfg.episode_pool, cfg.episode_weight)
    strength = preset.decay_strength if cfg.decay_strength is None else min(
        preset.decay_strength, cfg.decay_strength)
    final = c.final
    for fid, score in c.scores.items():
        fact = c.facts.get(fid)
        if fact is None or fact.status not in allowed or fact.user_id != q.user_id:
            continue
        aged = decay.record_factor(fact, now, strength)
        episode = info = 1.0
        if fact.exchange_ids:
            # A turn of a conversation: the day's talk and how much the turn says count.
            # An imported record (no exchange) stands alone: neither applies to it.
            episode = lifted.get(episode_of(fact), 1.0)
            if fact.type is FactType.EVENT:
                info = information(fact.text, cfg.info_prior)
        speaker = bool(fact.speaker and fact.speaker.casefold() in named)
        other = bool(about_self and kin.about_someone_else(fact.text))
        factor = aged * episode * info
        if speaker:
            factor *= 1.0 + preset.speaker_bonus
        if other:
            factor *= cfg.others_factor
        final[fid] = score * factor
        c.signals[fid] = {"decay": aged, "episode": episode, "speaker": float(speaker),
                          "someone_else": float(other), "about_self": float(about_self)}

    query_vector = c.query_vector
    if cfg.meaning_weight > 0 and query_vector is not None and final:
        closeness: dict[str, float] = {}
        for fid in final:
            if fid in c.in_context:
                closeness[fid] = cal.rescale(c.in_context[fid])
            elif fid in c.vectors:
                closeness[fid] = cal.rescale(c.plain_scale(float(np.dot(c.vectors[fid],
                                                                        query_vector))))
        if closeness:
            best, worst = max(closeness.values()), min(closeness.values())
            for fid in final:  # a record with no vector counts as the farthest
                final[fid] *= float(np.exp(
                    cfg.meaning_weight * (closeness.get(fid, worst) - best)))


def diversify(c: Candidates, cfg: RecallConfig, cal: Calibration) -> None:
    """MMR over the weighed scores picks the final ``k`` (``chosen``)."""
    facts, vectors = c.facts, c.vectors

    def similarity(a: str, b: str) -> float:
        va, vb = vectors.get(a), vectors.get(b)
        if va is not None and vb is not None:
            return cal.rescale(float(np.dot(va, vb)))  # MMR's scale is MiniLM's
        return fusion.token_similarity(facts[a].text, facts[b].text)

    said: dict[str, tuple[str, ...]] = {}

    def distinct(a: str, b: str) -> bool:
        """Never copies, however alike: another day's record, or other numbers."""
        if cfg.copies_same_day and (
                facts[a].created_at.date() != facts[b].created_at.date()):
            return True
        if cfg.copies_one_speaker and facts[a].speaker != facts[b].speaker:
            return True
        if not cfg.copies_keep_numbers:
            return False
        for fid in (a, b):
            if fid not in said:
                said[fid] = tuple(sorted(numbers(facts[fid].text, dates=False)))
        return said[a] != said[b]

    lam = c.question.preset.mmr_lambda
    if cfg.ranker == "learned" and cfg.learned_mmr_lambda is not None:
        lam = cfg.learned_mmr_lambda  # refitted on the learned order (RecallConfig)
    c.chosen = fusion.mmr(one_piece_each(c.final, facts), c.question.k, similarity,
                          lam=lam, pool=cfg.mmr_pool,
                          duplicate=cal.mmr_duplicate if cfg.mmr_copies else float("inf"),
                          distinct=distinct)


def first_piece_only(ids: Sequence[str], facts: Mapping[str, Fact]) -> list[str]:
    """``ids`` in order, each long text's first piece only (see ``one_piece_each``)."""
    seen: set[str] = set()
    out: list[str] = []
    for fid in ids:
        whole = facts[fid].part_of
        if whole is not None:
            if whole in seen:
                continue
            seen.add(whole)
        out.append(fid)
    return out


def one_piece_each(scores: dict[str, float], facts: dict[str, Fact]) -> dict[str, float]:
    """A long text stored in pieces (``part_of``) answers once, by its best piece: its other
    pieces would fill the places of other records (a 9,000-character note took four of ten)."""
    best: dict[str, str] = {}
    for fid, score in scores.items():
        whole = facts[fid].part_of
        if whole is not None and (whole not in best or score > scores[best[whole]]):
            best[whole] = fid
    if not best:
        return scores
    kept = set(best.values())
    return {fid: score for fid, score in scores.items()
            if facts[fid].part_of is None or fid in kept}


# -- the parts -------------------------------------------------------------------------------

def _stop_stems() -> frozenset[str]:
    """Stems of the stop words of the languages recall stems (Russian, English), as
    ``content_stems`` stems them: question words and pronouns say nothing about the answer."""
    from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_RUSSIAN

    questions = ["сколько", "почему", "каком", "какие", "какого", "какую", "каких",
                 "which", "whose"]
    polish = ["ile", "jak", "jaki", "jaka", "jakie", "kiedy", "gdzie", "kto", "co", "czy",
              "dlaczego"]
    # a Polish question's words are stemmed in Polish (``text_stems``), any other's per word;
    # Polish function words as the full-text voice drops them (question.POLISH_FUNCTION_WORDS)
    return frozenset({stem(w) for w in (*STOPWORDS_RUSSIAN, *STOPWORDS_EN_PLUS, *questions,
                                        *polish)}
                     | {stem(w, "polish") for w in (*polish, *POLISH_FUNCTION_WORDS)})


STOP_STEMS = _stop_stems()

# What recall derives from a record's text (its words, its content stems) depends on the
# text alone, and the same records come back query after query: kept per text, a changed or
# deleted record cannot be served stale.
TEXT_CACHE = 20_000


@functools.lru_cache(maxsize=TEXT_CACHE)
def word_count(text: str) -> int:
    """How many words (``\\w+``) ``text`` has."""
    return len(_WORD.findall(text))


@functools.lru_cache(maxsize=TEXT_CACHE)
def space_words(text: str) -> int:
    """How many whitespace-separated parts ``text`` has (the context windows' weights)."""
    return len(text.split())


@functools.lru_cache(maxsize=TEXT_CACHE)
def text_stems(text: str) -> frozenset[str]:
    """The content stems of ``text`` in its own language, as a set: stemmed as the writer's
    duplicate check stems it (``graph.stemming``), so a question and a record meet."""
    return frozenset(content_stems(text, language_of(text)))


def information(text: str, strength: float) -> float:
    """``((words + 1) / EVENT_WORDS) ** strength``: how much an event record says."""
    return float(((word_count(text) + 1) / EVENT_WORDS) ** strength)


def episode_of(fact: Fact) -> str:
    """The episode a record belongs to: its day's conversation."""
    return fact.episode_date or fact.created_at.date().isoformat()


def episode_factors(scores: dict[str, float], facts: dict[str, Fact], pool: int,
                    weight: float) -> dict[str, float]:
    """Lift per episode: the best ``pool`` candidates' scores summed by episode, ranked;
    an answer is usually said where other relevant things were said. Only conversation
    turns (records with an exchange) make up episodes."""
    if weight <= 0:
        return {}
    mass: dict[str, float] = {}
    for fid in sorted(scores, key=lambda i: -scores[i])[:pool]:
        fact = facts.get(fid)
        if fact is not None and fact.exchange_ids:
            key = episode_of(fact)
            mass[key] = mass.get(key, 0.0) + scores[fid]
    ordered = sorted(mass, key=lambda e: -mass[e])
    return {episode: 1.0 + weight / (1 + rank) for rank, episode in enumerate(ordered)}


def dated_ranking(period: tuple[datetime, datetime], facts: dict[str, Fact],
                  lexical: Sequence[str], semantic: Sequence[str], depth: int) -> list[str]:
    """The records created in ``period``: the lexical voice's in-period candidates and the
    archive's in-period nearest, fused by plain RRF."""
    start, end = period

    def inside(fid: str) -> bool:
        fact = facts.get(fid)
        return fact is not None and start <= fact.created_at < end

    fused, _ = fusion.weighted_rrf(
        {"lexical": [i for i in lexical if inside(i)], "semantic": [i for i in semantic if inside(i)]},
        {"lexical": 1.0, "semantic": 1.0})
    return sorted(fused, key=lambda i: -fused[i])[:depth]


def coverage_scale(query: str, rankings: Mapping[str, list[str]], links: dict[str, list[str]],
                   facts: dict[str, Fact], power: float,
                   one: Sequence[frozenset[str]] = ()) -> dict[str, dict[str, float]]:
    """Per full-text voice, each record's share of the query's content stems it covers
    (``lexical``: the record; ``context_lexical``: the record with its context window), to
    the ``power``. A record the index matched covers at least one stem.

    The stems of each set in ``one`` count as one: "дочь" and "Соня" in "чем болела дочь?
    (Соня)" are one person, and the record that says who she is ("Дочке Соне пять лет")
    covers no more of the question than one that says what happened to her."""
    wanted = set(text_stems(query)) - STOP_STEMS
    if len(wanted) < 2:
        return {}
    group_of: dict[str, str] = {}
    for stems in one:
        inside = sorted(stems & wanted)
        for s in inside:
            group_of[s] = inside[0]
    concepts = len({group_of.get(s, s) for s in wanted})
    if concepts < 2:
        return {}

    def stems_of(fid: str) -> frozenset[str]:
        fact = facts.get(fid)
        return text_stems(fact.text) if fact is not None else frozenset()

    out: dict[str, dict[str, float]] = {}
    for voice in ("lexical", "context_lexical"):
        factors: dict[str, float] = {}
        for fid in rankings.get(voice, ()):
            found = stems_of(fid) & wanted
            if voice == "context_lexical":
                for other in links.get(fid, ()):
                    found |= stems_of(other) & wanted
            covered = len({group_of.get(s, s) for s in found})
            factors[fid] = (max(1, covered) / concepts) ** power
        out[voice] = factors
    return out


def named_speakers(query: str, speakers: set[str]) -> set[str]:
    """The speakers (casefolded) whose name occurs in the query as a word."""
    found = set()
    for speaker in speakers:
        if re.search(rf"(?<!\w){re.escape(speaker)}(?!\w)", query, re.IGNORECASE):
            found.add(speaker.casefold())
    return found


def context_rankings(
    pool: Sequence[str],
    links: dict[str, list[str]],
    facts: dict[str, Fact],
    lexical_scores: dict[str, float],
    vectors: dict[str, np.ndarray],
    query_vector: np.ndarray | None,
    depth: int,
    cosines: dict[str, float] | None = None,
) -> dict[str, list[str]]:
    """Rank records by their context window (the record with those said around it).

    Lexical: the sum of the window's full-text scores. Semantic: the query's cosine with the
    window's vector, the length-weighted sum of its records' stored vectors, normalised (the
    embedding of a concatenation is close to the length-weighted mean of its parts). The record
    itself counts ``SELF_WEIGHT`` times its context. ``cosines``: filled with each record's
    cosine in its window."""
    lexical: dict[str, float] = {}
    semantic: dict[str, float] = {}
    for fid in pool:
        window = [fid, *links.get(fid, ())]
        total = sum(lexical_scores.get(m, 0.0) * (SELF_WEIGHT if m == fid else 1.0)
                    for m in window)
        if total > 0:
            lexical[fid] = total
        if query_vector is None:
            continue
        parts = [(m, vectors[m]) for m in window if m in vectors]
        if not parts or parts[0][0] != fid:
            continue
        summed = np.zeros_like(parts[0][1])
        for member, vec in parts:
            fact = facts.get(member)
            weight = float(space_words(fact.text) if fact else 1)
            summed += vec * weight * (SELF_WEIGHT if member == fid else 1.0)
        norm = float(np.linalg.norm(summed))
        if norm > 0:
            semantic[fid] = float(np.dot(summed, query_vector)) / norm
    if cosines is not None:
        cosines.update(semantic)
    return {
        "context_lexical": sorted(lexical, key=lambda i: -lexical[i])[:depth],
        "context_semantic": sorted(semantic, key=lambda i: -semantic[i])[:depth],
    }

