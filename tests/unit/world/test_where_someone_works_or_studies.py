"""Where someone works or studies said without "работать" / "учиться" (round thirty-six,
issue 29): taken into an organisation or gone there ("Тёму взяли в гимназию №7", "Олег уже
вышел в «Деловые линии»", ``russian._Builder._entered``), a year of school or study before the
school ("в третьем классе 12-й школы", ``_grade``), the organisation right after a job
("Медсестра в поликлинике №7", ``pairs._job_firms``) and a school's number written as an
ordinal with its ending apart ("в 132ю школу", ``_ordinal_numbered``)."""

from __future__ import annotations

from wave_agent.world.reader import read, rule_readings
from wave_agent.world.reading import Link


def _rules(text: str):  # type: ignore[no-untyped-def]
    return rule_readings([text], learned_nouns=False)[0]


def test_a_child_taken_into_a_school_studies_there() -> None:
    reading = _rules("Тёму взяли в гимназию №7, он рад.")
    assert Link("Тёма", "studies_at", "гимназия № 7") in reading.links
    assert not any(link.type == "works_at" for link in reading.links)


def test_someone_gone_to_a_firm_works_there() -> None:
    reading = _rules("Ну всё, живём в Казани! Соню пристроили в садик «Акчарлак», Олег уже "
                     "вышел в «Деловые линии» и пока доволен")
    assert Link("Олег", "works_at", "Деловые линии") in reading.links
    assert Link("Соня", "studies_at", "Акчарлак") in reading.links
    assert Link("Соня", "works_at", "Акчарлак") not in reading.links


def test_the_one_taken_is_the_one_in_the_accusative() -> None:
    reading = _rules("лёха переезжает в питер, его в яндекс взяли.")
    assert Link("Лёха", "works_at", "Яндекс") in reading.links
    assert Link("user", "works_at", "Яндекс") not in reading.links


def test_a_child_named_before_a_subjectless_verb_is_the_pupil() -> None:
    reading = _rules("Сыну Тимофею семь, пошёл в первый класс в гимназию №116.")
    assert Link("Тимофей", "studies_at", "гимназия № 116") in reading.links
    assert Link("user", "studies_at", "гимназия № 116") not in reading.links


def test_shopping_is_no_job() -> None:
    reading = read("Вчера взяла в «Пятёрочке» молоко, пошла в «Магнит» за хлебом.")
    assert not any(link.type in ("works_at", "studies_at") for link in reading.links)


def test_a_year_of_school_before_the_school_is_a_pupils() -> None:
    reading = _rules("А младший, Гоша, в 7 классе, в 112-й школе. Ленивый, но добрый)")
    assert Link("Гоша", "studies_at", "школа № 112") in reading.links
    assert Link("Гоша", "works_at", "школа № 112") not in reading.links
    reading = _rules("Максим на втором курсе УрФУ.")
    assert Link("Максим", "studies_at", "УрФУ") in reading.links


def test_a_job_then_an_organisation_is_where_its_holder_works() -> None:
    reading = read("Жена Татьяна. Медсестра в поликлинике №7, ей до пенсии ещё три года.")
    assert Link("Татьяна", "works_as", "медсестра") in reading.links
    assert Link("Татьяна", "works_at", "поликлиника № 7") in reading.links
    reading = read("Нашла работу!! Главбухом в сеть кофеен «Кофеин» 🎉 Коллектив маленький")
    assert Link("user", "works_at", "Кофеин") in reading.links


def test_a_band_a_ward_or_a_visit_is_no_employer() -> None:
    reading = read("он барабанщик в группе «пыльца», а днём сидит дома")
    assert not any(link.type == "works_at" for link in reading.links)
    reading = read("Были с Мусей у ветеринара в «Айболите» возле дома.")
    assert not any(link.type == "works_at" for link in reading.links)


def test_a_schools_ordinal_with_its_ending_apart() -> None:
    reading = _rules("Дочке Соне 7 лет, в этом году пошла в первый класс в 132ю школу.")
    assert any(m.name == "школа № 132" for m in reading.mentions)
    assert Link("Соня", "studies_at", "школа № 132") in reading.links
    assert any(m.name == "лицей № 9" for m in _rules("Алсу учится в 9м лицее.").mentions)
    assert not any(m.name.startswith("школа №") for m in _rules("Работала в 2 школах.").mentions)
