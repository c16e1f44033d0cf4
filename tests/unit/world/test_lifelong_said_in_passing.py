"""Issue 30, round thirty-six: a lifelong slot given a second value in passing, and a false
alarm of month 38 (by the lead's reading). Over the tuning months the largest missed classes of
the brief's kind were a birthplace said by a native's word whose place is two words or changes
its last letter ("я ж коренная нижегородка" after "сама я из Перми", "коренная
екатеринбурженка" after "родом из Челябинска": five authors) or said as "там родилась", and a
brother or sister named beside the kin word, not with it ("брат звонил, Денис", "Глеб звонил,
брат мой", "у Оли, моей младшей сестры": five authors), whom "я единственный ребёнок в семье"
then met as no one. The false alarm: someone else's role named by its word alone in a negated
clause ("руководитель не отпустил") denied the role the person holds of that someone.
Sentences of our own, read by the real world reader (natasha, pymorphy3); no database."""

from __future__ import annotations

from tests.support.attribute_decisions import replay


def test_a_native_of_another_place_contradicts_the_birthplace() -> None:
    first, native = replay("сама я вообще из Перми, в Нижний переехала после универа",
                           "хочу домой, в Нижний. я ж коренная нижегородка, там всё родное")
    assert "user|birthplace|Пермь|set" in first[0]
    assert native[1] == ["m0"]
    _, urals = replay("я вообще родом из Челябинска, в Екб переехала в 17",
                      "я ж коренная екатеринбурженка, в роддоме на Уралмаше родилась")
    assert urals[1] == ["m0"]


def test_a_native_word_said_first_meets_the_place_said_later() -> None:
    native, place = replay("я коренная нижегородка кстати, тут родилась, тут и школу закончила",
                           "откуда я родом? из Самары, говорю")
    assert "user|birthplace|нижегородка|set" in native[0]
    assert not any(v.startswith("user|role|") for v in native[0])  # a native is no job
    assert place[1] == ["m0"]


def test_the_same_place_said_by_its_native_is_no_contradiction() -> None:
    for first in ("я родилась в Нижнем Новгороде", "я родом из Нижнего"):
        _, native = replay(first, "я коренная нижегородка, переехали в Казань")
        assert native[1] == [], first


def test_born_there_is_the_place_the_message_names() -> None:
    there, = replay("едем к маме в Дзержинск. я там родилась и выросла")
    assert "user|birthplace|Дзержинск|set" in there[0]
    mother, = replay("Была в Казани. Там родилась моя мама")
    assert not any("birthplace" in v for v in mother[0])  # the mother's, not the speaker's


def test_a_root_change_is_no_native() -> None:
    said, = replay("у нас коренные изменения в отделе")
    assert not any("birthplace" in v for v in said[0])


def test_a_sibling_named_beside_the_kin_word_meets_an_only_child() -> None:
    for first in ("брат звонил, Денис. он младший, живёт в Минске",
                  "Глеб звонил, брат мой. он в Москве живёт",
                  "у Оли, моей младшей сестры, сегодня день рождения",
                  "Младший брат звонил, Костя. у них там снег"):
        sibling, only = replay(first, "я единственный ребёнок в семье, вот мама и трясётся")
        assert any(v.startswith("user|sibling|") and v.endswith("|add") for v in sibling[0]), first
        assert only[1] == ["m0"], first


def test_someone_elses_brother_or_news_is_no_sibling() -> None:
    for first in ("Костя сказал, брат приедет", "Лена звонила, её брат женится",
                  "Лена звонила, брат мой"):  # a woman's name is no brother
        said, only = replay(first, "я единственный ребёнок в семье")
        assert not any("sibling" in v for v in said[0]), first
        assert only[1] == [], first


def test_a_role_word_in_a_negated_clause_denies_no_one_unnamed() -> None:
    """Month 38's false alarm, in words of our own: a place, then a boss who did not let
    someone go, against "Руководитель у меня Игорь"."""
    _, trip = replay("Руководитель у меня Игорь, нормальный мужик",
                     "С Соней ходили на каток, в Швейцарию не поехали — руководитель не отпустил")
    assert not any("role" in v for v in trip[0])
    assert trip[1] == []
    _, over = replay("Руководитель у меня Игорь, нормальный мужик",
                     "Игорь больше не руководитель, его уволили")
    assert "Игорь|role|руководитель|remove" in over[0]  # named, it still ends
