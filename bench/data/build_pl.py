"""Writes bench/data/memory-pl (a smaller Polish set, same format as memory-ru; every third
question held out)."""

from __future__ import annotations

from pathlib import Path

FACTS: list[tuple[str, str, str]] = [
    ("wife", "2026-01-05", "Moja żona Kasia pracuje jako pielęgniarka w szpitalu na Bielanach."),
    ("son", "2026-01-05", "Nasz syn Kuba ma osiem lat i chodzi do drugiej klasy."),
    ("daughter", "2026-01-06", "Córka Zosia ma cztery lata, chodzi do przedszkola „Słoneczko”."),
    ("brother", "2026-01-07", "Mój brat Marek mieszka w Gdańsku i jest programistą."),
    ("mother", "2026-01-08", "Mama, Halina, mieszka sama w Lublinie."),
    ("rent1", "2026-01-09", "Za wynajem mieszkania płacimy 3200 złotych miesięcznie."),
    ("penicillin", "2026-01-10", "Lekarz powiedział, że nie mogę brać penicyliny, miałem silną reakcję."),
    ("zosia_nuts", "2026-01-11", "Zosia ma alergię na orzechy laskowe."),
    ("dog", "2026-01-13", "Kuba ma psa, jamnika o imieniu Kiełbasa."),
    ("kuba_football", "2026-01-14", "Kuba trenuje piłkę nożną we wtorki i czwartki."),
    ("gym1", "2026-01-15", "Karnet na siłownię kosztuje 150 złotych miesięcznie."),
    ("job", "2026-01-16", "Pracuję jako kierownik projektu w firmie logistycznej."),
    ("pilot1", "2026-01-19", "Projekt pilotażowy dla klienta kosztuje 40 tysięcy złotych."),
    ("car", "2026-01-21", "Jeździmy Toyotą Corollą z 2019 roku."),
    ("promise_bike", "2026-01-23", "Obiecałem Kubie rower na wiosnę, jeśli poprawi oceny z matematyki."),
    ("promise_mother", "2026-01-24", "Obiecałem mamie, że pomalujemy jej kuchnię."),
    ("marek_debt", "2026-01-26", "Pożyczyłem Markowi 2000 złotych, obiecał oddać w marcu."),
    ("tutor1", "2026-01-27", "Korepetycje z angielskiego dla Kuby kosztują 80 złotych za lekcję."),
    ("kasia_bday", "2026-01-28", "Urodziny Kasi są 3 kwietnia."),
    ("coffee", "2026-01-30", "Kawę piję tylko rano, bo potem nie mogę zasnąć."),
    ("gdansk_trip", "2026-02-06", "W lutym pojechaliśmy do Marka do Gdańska, byliśmy na Westerplatte."),
    ("marek_wife", "2026-02-07", "Żona Marka ma na imię Ola i uczy w liceum."),
    ("pilot2", "2026-03-02", "Cena się zmieniła: projekt pilotażowy kosztuje teraz 55 tysięcy złotych."),
    ("marek_paid", "2026-03-10", "Marek oddał dług, całe 2000 złotych."),
    ("gym2", "2026-03-16", "Siłownia podrożała, karnet kosztuje teraz 180 złotych."),
    ("zosia_sick", "2026-03-20", "Zosia zachorowała na ospę, siedzi tydzień w domu."),
    ("tutor2", "2026-03-23", "Korepetytorka podniosła cenę do 100 złotych za lekcję."),
    ("rent2", "2026-04-01", "Od kwietnia czynsz za mieszkanie wzrósł do 3500 złotych."),
    ("kitchen_done", "2026-04-04", "Pomalowaliśmy mamie kuchnię na żółto."),
    ("bike_bought", "2026-04-25", "Kupiliśmy Kubie czerwony rower, kosztował 1200 złotych."),
    ("holiday_plan", "2026-04-27", "W lipcu jedziemy nad jezioro na Mazury, do Mikołajek."),
    ("kasia_job", "2026-05-25", "Kasia dostała awans na oddziałową."),
    ("zosia_bday", "2026-05-21", "Zosia skończyła pięć lat, świętowaliśmy w sali zabaw."),
    ("kuba_camp", "2026-06-02", "Kuba jedzie na obóz piłkarski w Zakopanem od 28 czerwca."),
    ("car_scratch", "2026-06-12", "Porysowałem Toyotę na parkingu pod Biedronką."),
    ("run", "2026-06-16", "Przestałem chodzić na siłownię, teraz biegam rano w parku."),
    ("dog_vet", "2026-06-30", "Kiełbasa dostał szczepienie przeciw wściekliźnie."),
    ("mother_pressure", "2026-04-18", "Mama ma wysokie ciśnienie i bierze leki."),
]

QUESTIONS: list[tuple[str, str, list[str]]] = [
    ("paraphrase", "na co jestem uczulony?", ["penicillin"]),
    ("paraphrase", "jakiej rasy jest pies Kuby?", ["dog"]),
    ("paraphrase", "gdzie pracuje moja żona?", ["wife"]),
    ("current", "ile płacimy za mieszkanie?", ["rent2"]),
    ("paraphrase", "czego nie może jeść córka?", ["zosia_nuts"]),
    ("paraphrase", "kiedy syn ma treningi?", ["kuba_football"]),
    ("current", "ile kosztuje karnet na siłownię?", ["gym2"]),
    ("current", "ile kosztuje projekt pilotażowy?", ["pilot2"]),
    ("paraphrase", "jakim samochodem jeździmy?", ["car"]),
    ("two", "czy dotrzymałem obietnicy o rowerze?", ["promise_bike", "bike_bought"]),
    ("two", "czy pomalowaliśmy mamie kuchnię?", ["promise_mother", "kitchen_done"]),
    ("paraphrase", "czy brat oddał pieniądze?", ["marek_paid"]),
    ("current", "ile kosztuje lekcja angielskiego?", ["tutor2"]),
    ("paraphrase", "kiedy żona ma urodziny?", ["kasia_bday"]),
    ("paraphrase", "dlaczego nie piję kawy wieczorem?", ["coffee"]),
    ("paraphrase", "co zwiedzaliśmy w Gdańsku?", ["gdansk_trip"]),
    ("paraphrase", "jak ma na imię żona Marka?", ["marek_wife"]),
    ("paraphrase", "na co chorowała Zosia?", ["zosia_sick"]),
    ("paraphrase", "gdzie jedziemy na wakacje?", ["holiday_plan"]),
    ("paraphrase", "jaki awans dostała Kasia?", ["kasia_job"]),
    ("paraphrase", "gdzie świętowaliśmy urodziny córki?", ["zosia_bday"]),
    ("paraphrase", "dokąd jedzie syn na obóz?", ["kuba_camp"]),
    ("paraphrase", "co się stało z autem w czerwcu?", ["car_scratch"]),
    ("current", "jak teraz uprawiam sport?", ["run"]),
    ("paraphrase", "jakie szczepienie dostał pies?", ["dog_vet"]),
    ("paraphrase", "ile kosztował rower dla syna?", ["bike_bought"]),
    ("paraphrase", "gdzie mieszka brat?", ["brother"]),
    ("paraphrase", "na co choruje mama?", ["mother_pressure"]),
    ("paraphrase", "ile pożyczyłem bratu?", ["marek_debt"]),
    ("paraphrase", "w której klasie jest syn?", ["son"]),
]


def main() -> None:
    from memory_set_writer import write_set

    write_set(Path(__file__).parent / "memory-pl", language="polish",
              asked_at="2026-07-01T12:00:00+00:00", facts=FACTS, questions=QUESTIONS)


if __name__ == "__main__":
    main()
