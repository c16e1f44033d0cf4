"""One holder per job (``world.pairs._one_holder``, round thirty-four, issue 29): a job said in
a sentence without a verb after someone is named is theirs, not also the speaker's."""

from __future__ import annotations

import numpy as np

from graph.models import EntityType
from wave_agent.world import read
from wave_agent.world.pairs import CLASSES, Model, relink
from wave_agent.world.reading import USER, Link, Mention, Reading

TEXT = "Жена Юля. Бухгалтер в клинике."
READING = Reading(mentions=(Mention("Юля", EntityType.PERSON, ("жена",)),
                            Mention("бухгалтер", EntityType.OCCUPATION, ("Бухгалтер",))))


def _model(languages: tuple[str, ...] = ("ru", "pl")) -> Model:
    # the speaker holds the job at about 0.6, Юля at about 0.9: both over the threshold
    weights = {"t:user>occupation": 3.0, "t:person>occupation": 5.0}
    vocabulary = sorted(weights)
    coef = np.zeros((len(CLASSES), len(vocabulary)))
    for j, feature in enumerate(vocabulary):
        coef[CLASSES.index("works_as"), j] = weights[feature]
    intercept = np.zeros(len(CLASSES))
    intercept[CLASSES.index("none")] = 1.0
    return Model(vocabulary, list(CLASSES), coef, intercept, 0.5, keep_rules=True,
                 languages=languages)


def test_a_job_two_people_could_hold_is_the_likelier_ones_only() -> None:
    links = set(relink(TEXT, READING, _model()).links)
    assert Link("Юля", "works_as", "бухгалтер") in links
    assert Link(USER, "works_as", "бухгалтер") not in links


def test_the_rules_job_stands_beside_the_models_likelier_holder() -> None:
    ruled = Reading(mentions=READING.mentions, links=(Link(USER, "works_as", "бухгалтер"),))
    links = set(relink(TEXT, ruled, _model()).links)
    assert {Link(USER, "works_as", "бухгалтер"),
            Link("Юля", "works_as", "бухгалтер")} <= links


def test_a_polish_job_keeps_every_holder_the_model_gives() -> None:
    text = "Żona Ola. Księgowa w klinice."
    reading = Reading(mentions=(Mention("Ola", EntityType.PERSON, ("żona",)),
                                Mention("księgowa", EntityType.OCCUPATION, ("Księgowa",))),
                      language="pl")
    links = set(relink(text, reading, _model()).links)
    assert {Link(USER, "works_as", "księgowa"), Link("Ola", "works_as", "księgowa")} <= links


def test_the_wifes_job_said_without_a_verb_is_hers_not_the_speakers() -> None:
    for text, person, job in (("Жена Юля. Бухгалтер в клинике Медси.", "Юля", "бухгалтер"),
                              ("Жена Татьяна. Медсестра в поликлинике №7, ей до пенсии ещё "
                               "три года.", "Татьяна", "медсестра")):
        links = set(read(text).links)
        assert Link(person, "works_as", job) in links, text
        assert Link(USER, "works_as", job) not in links, text
