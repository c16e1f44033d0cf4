"""The page's languages: Russian, Polish and English, one catalogue, dates and numbers by Babel.

The language is, in order: ``?lang=`` (the switch on the page, remembered in a cookie), the
cookie, the browser's ``Accept-Language``, and English when the browser says nothing.

**Adding a string.** Write it in English in the template as ``{{ _("Records") }}``, or mark a
message made in Python with ``N_("...")`` (the template translates it when it shows it), and
add a row to ``CATALOGUE`` with its Russian and Polish. English is the key itself; ``{name}``
fields are filled after translation. ``tests/unit/web/test_i18n.py`` fails when a wrapped or
marked string, or a value the page shows (tiers, statuses, types...), has no row or lacks a
language; ``tests/integration/web/test_page_languages.py`` renders every route in Russian and
Polish and fails on English left over.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Final

from wave_agent.ops import health

LANGUAGES: Final = ("ru", "pl", "en")
DEFAULT: Final = "en"
COOKIE: Final = "wave_lang"
NAMES: Final = {"ru": "Русский", "pl": "Polski", "en": "English"}

# English -> {language: translation}. Keep rows grouped by the template they come from.
CATALOGUE: dict[str, dict[str, str]] = {
    # base.html
    "Wave memory": {"ru": "Память Wave", "pl": "Pamięć Wave"},
    "memory of": {"ru": "память", "pl": "pamięć"},
    "Records": {"ru": "Записи", "pl": "Wpisy"},
    "Commitments": {"ru": "Обещания", "pl": "Zobowiązania"},
    "Waiting for you": {"ru": "Ждут вас", "pl": "Czekają na ciebie"},
    "People and things": {"ru": "Люди и вещи", "pl": "Ludzie i rzeczy"},
    "Days": {"ru": "Дни", "pl": "Dni"},
    "Health": {"ru": "Здоровье", "pl": "Kondycja"},
    "Core blocks": {"ru": "Основные блоки", "pl": "Bloki główne"},
    "Export": {"ru": "Экспорт", "pl": "Eksport"},
    "Language": {"ru": "Язык", "pl": "Język"},
    # records.html
    "Search as Wave recalls…": {"ru": "Искать, как вспоминает Wave…",
                                "pl": "Szukaj tak, jak przypomina sobie Wave…"},
    "any tier": {"ru": "любой уровень", "pl": "dowolny poziom"},
    "any status": {"ru": "любой статус", "pl": "dowolny status"},
    "any type": {"ru": "любой тип", "pl": "dowolny typ"},
    "Show": {"ru": "Показать", "pl": "Pokaż"},
    "Recall for": {"ru": "Поиск по запросу", "pl": "Wyniki dla"},
    "with the voices that found each record.": {
        "ru": "и голоса, которые нашли каждую запись.",
        "pl": "i głosy, które znalazły każdy wpis."},
    "Answered without the {voice} voice: {reason}": {
        "ru": "Ответ без голоса «{voice}»: {reason}",
        "pl": "Odpowiedź bez głosu „{voice}”: {reason}"},
    "Nothing here yet. Tell Wave something, or": {
        "ru": "Пока пусто. Расскажите Wave что-нибудь или выполните",
        "pl": "Na razie pusto. Powiedz coś Wave albo uruchom"},
    "text": {"ru": "текст", "pl": "tekst"},
    "type": {"ru": "тип", "pl": "typ"},
    "tier": {"ru": "уровень", "pl": "poziom"},
    "status": {"ru": "статус", "pl": "status"},
    "created": {"ru": "создана", "pl": "utworzony"},
    "confirmed": {"ru": "подтверждена", "pl": "potwierdzony"},
    "conf.": {"ru": "увер.", "pl": "pewn."},
    "found by": {"ru": "нашли", "pl": "znalazły"},
    "← newer": {"ru": "← новее", "pl": "← nowsze"},
    "older →": {"ru": "старше →", "pl": "starsze →"},
    "page {page} of {pages}": {"ru": "страница {page} из {pages}",
                               "pl": "strona {page} z {pages}"},
    "search": {"ru": "поиск", "pl": "szukaj"},
    # the values records carry: tier, status, type (enums in graph.models)
    "observation": {"ru": "наблюдение", "pl": "obserwacja"},
    "fact": {"ru": "факт", "pl": "fakt"},
    "core": {"ru": "ядро", "pl": "rdzeń"},
    "archive": {"ru": "архив", "pl": "archiwum"},
    "active": {"ru": "действует", "pl": "aktualny"},
    "superseded": {"ru": "заменена", "pl": "zastąpiony"},
    "archived": {"ru": "в архиве", "pl": "w archiwum"},
    "quarantined": {"ru": "в карантине", "pl": "w kwarantannie"},
    "identity": {"ru": "о себе", "pl": "tożsamość"},
    "preference": {"ru": "предпочтение", "pl": "upodobanie"},
    "relationship": {"ru": "отношения", "pl": "relacja"},
    "decision": {"ru": "решение", "pl": "decyzja"},
    "event": {"ru": "событие", "pl": "wydarzenie"},
    "commitment": {"ru": "обещание", "pl": "zobowiązanie"},
    "state": {"ru": "состояние", "pl": "stan"},
    # recall's voices
    "lexical": {"ru": "по словам", "pl": "po słowach"},
    "semantic": {"ru": "по смыслу", "pl": "po znaczeniu"},
    "temporal": {"ru": "по времени", "pl": "po czasie"},
    "graph": {"ru": "по связям", "pl": "po powiązaniach"},
    "dated": {"ru": "по дате", "pl": "po dacie"},
    # entity types (graph.models.EntityType)
    "person": {"ru": "человек", "pl": "osoba"},
    "organisation": {"ru": "организация", "pl": "organizacja"},
    "project": {"ru": "проект", "pl": "projekt"},
    "place": {"ru": "место", "pl": "miejsce"},
    "topic": {"ru": "тема", "pl": "temat"},
    "tool": {"ru": "инструмент", "pl": "narzędzie"},
    "pet": {"ru": "питомец", "pl": "zwierzak"},
    "device": {"ru": "устройство", "pl": "urządzenie"},
    "vehicle": {"ru": "транспорт", "pl": "pojazd"},
    "illness": {"ru": "болезнь", "pl": "choroba"},
    "hobby": {"ru": "увлечение", "pl": "hobby"},
    "thing": {"ru": "вещь", "pl": "rzecz"},
    "occupation": {"ru": "занятие", "pl": "zajęcie"},
    # relations between them (write.entities link types, graph.models.RelationType)
    "knows": {"ru": "знаком с", "pl": "zna"},
    "works at": {"ru": "работает в", "pl": "pracuje w"},
    "works on": {"ru": "работает над", "pl": "pracuje nad"},
    "works as": {"ru": "работает кем", "pl": "pracuje jako"},
    "lives in": {"ru": "живёт в", "pl": "mieszka w"},
    "studies at": {"ru": "учится в", "pl": "uczy się w"},
    "member of": {"ru": "состоит в", "pl": "należy do"},
    "friend of": {"ru": "дружит с", "pl": "przyjaźni się z"},
    "owns": {"ru": "владеет", "pl": "ma"},
    "pet of": {"ru": "питомец у", "pl": "zwierzak u"},
    "part of": {"ru": "часть", "pl": "część"},
    "uses": {"ru": "пользуется", "pl": "używa"},
    "related to": {"ru": "связано с", "pl": "związane z"},
    "family of": {"ru": "родня", "pl": "rodzina"},
    "mentioned with": {"ru": "упоминается вместе с", "pl": "wspominane razem z"},
    "has condition": {"ru": "болеет", "pl": "choruje na"},
    "does": {"ru": "занимается", "pl": "zajmuje się"},
    # proposals (graph.models.ProposalKind)
    "supersede": {"ru": "заменить", "pl": "zastąpić"},
    "merge": {"ru": "объединить", "pl": "scalić"},
    "generalise": {"ru": "обобщить", "pl": "uogólnić"},
    "demote": {"ru": "понизить", "pl": "obniżyć"},
    "delete": {"ru": "удалить", "pl": "usunąć"},
    # commitments (states and what happened to one)
    "open": {"ru": "открыто", "pl": "otwarte"},
    "done": {"ru": "сделано", "pl": "zrobione"},
    "cancelled": {"ru": "отменено", "pl": "anulowane"},
    "missed": {"ru": "пропущено", "pl": "przegapione"},
    "moved": {"ru": "перенесено", "pl": "przeniesione"},
    # blocks.html (the two blocks' labels, then the page)
    "human": {"ru": "о вас", "pl": "o Tobie"},
    "persona": {"ru": "о Wave", "pl": "o Wave"},
    "{chars} of {limit} characters · version {version}": {
        "ru": "{chars} из {limit} знаков · версия {version}",
        "pl": "{chars} z {limit} znaków · wersja {version}"},
    "(empty)": {"ru": "(пусто)", "pl": "(pusto)"},
    "Earlier versions ({count})": {"ru": "Прежние версии ({count})",
                                   "pl": "Wcześniejsze wersje ({count})"},
    # commitments.html
    "Open, by due time": {"ru": "Открытые, по сроку", "pl": "Otwarte, według terminu"},
    "No open commitments.": {"ru": "Открытых обещаний нет.", "pl": "Brak otwartych zobowiązań."},
    "the date was unclear: move it to a day": {
        "ru": "дата была неясна: перенесите на конкретный день",
        "pl": "termin był niejasny: przenieś na konkretny dzień"},
    "from": {"ru": "откуда", "pl": "skąd"},
    "Done": {"ru": "Сделано", "pl": "Zrobione"},
    "Tomorrow": {"ru": "Завтра", "pl": "Jutro"},
    "A week later": {"ru": "Через неделю", "pl": "Za tydzień"},
    "Cancel": {"ru": "Отменить", "pl": "Anuluj"},
    "Move to": {"ru": "Перенести на", "pl": "Przenieś na"},
    "e.g. в пятницу в 10, w piątek, next Tuesday": {
        "ru": "например: в пятницу в 10, w piątek, next Tuesday",
        "pl": "np. w piątek o 10, в пятницу, next Tuesday"},
    "history": {"ru": "история", "pl": "historia"},
    "Closed": {"ru": "Закрытые", "pl": "Zamknięte"},
    # days.html, day.html, reflect.html
    "Nothing recorded on this day.": {"ru": "За этот день ничего не записано.",
                                      "pl": "Tego dnia nic nie zapisano."},
    "All days": {"ru": "Все дни", "pl": "Wszystkie dni"},
    "How has … changed?": {"ru": "Как изменилось …?", "pl": "Jak zmieniło się …?"},
    "question": {"ru": "вопрос", "pl": "pytanie"},
    "Reflect": {"ru": "Осмыслить", "pl": "Przemyśl"},
    "Episode log": {"ru": "Дневник", "pl": "Dziennik"},
    "No days recorded yet.": {"ru": "Пока ни одного дня не записано.",
                              "pl": "Nie zapisano jeszcze żadnego dnia."},
    "Sessions": {"ru": "Сеансы", "pl": "Sesje"},
    "No finished sessions yet.": {"ru": "Завершённых сеансов пока нет.",
                                  "pl": "Nie ma jeszcze zakończonych sesji."},
    "{count} turns": {"ru": "реплик: {count}", "pl": "wymian: {count}"},
    # delete.html
    "Delete {id}?": {"ru": "Удалить {id}?", "pl": "Usunąć {id}?"},
    "Erase this record for good?": {"ru": "Стереть эту запись навсегда?",
                                    "pl": "Usunąć ten wpis na zawsze?"},
    "It is removed from every layer of memory and cannot be brought back. To take it out of "
    "conversations but keep it, forget it instead.": {
        "ru": "Она исчезнет из всех слоёв памяти, и вернуть её будет нельзя. Если нужно лишь "
              "убрать её из разговоров, но сохранить, лучше забудьте её.",
        "pl": "Zniknie ze wszystkich warstw pamięci i nie da się go przywrócić. Jeśli chcesz "
              "tylko wyłączyć go z rozmów, ale zachować, lepiej go zapomnij."},
    "Erase it": {"ru": "Стереть", "pl": "Usuń"},
    "Keep it": {"ru": "Оставить", "pl": "Zostaw"},
    # entities.html, entity.html
    "No people or things yet.": {"ru": "Пока ни людей, ни вещей.",
                                 "pl": "Na razie żadnych ludzi ani rzeczy."},
    "also": {"ru": "также", "pl": "także"},
    "entity graph": {"ru": "граф связей", "pl": "graf powiązań"},
    "The graph needs its script: run make install.": {
        "ru": "Для графа нужен его скрипт: выполните make install.",
        "pl": "Graf potrzebuje swojego skryptu: uruchom make install."},
    "Relations": {"ru": "Связи", "pl": "Powiązania"},
    "you": {"ru": "вы", "pl": "Ty"},
    "ended {day}": {"ru": "закончилось {day}", "pl": "zakończone {day}"},
    "Records that mention {name}": {"ru": "Записи, где упоминается {name}",
                                    "pl": "Wpisy, które wspominają {name}"},
    # error.html and the page's refusals (app.py, marked N_)
    "Back to your records": {"ru": "Вернуться к записям", "pl": "Wróć do swoich wpisów"},
    "Not found": {"ru": "Не найдено", "pl": "Nie znaleziono"},
    "Nothing here for you. Back to your records.": {
        "ru": "Здесь для вас ничего нет. Вернитесь к своим записям.",
        "pl": "Nie ma tu nic dla Ciebie. Wróć do swoich wpisów."},
    "This login link does not open anything": {
        "ru": "Эта ссылка для входа ничего не открывает",
        "pl": "Ten link logowania niczego nie otwiera"},
    "It is wrong, expired or already used. Ask the bot for /web again, or run `wave web` on "
    "the machine for a new link.": {
        "ru": "Она неверная, устарела или уже использована. Попросите у бота /web ещё раз или "
              "выполните `wave web` на компьютере, чтобы получить новую.",
        "pl": "Jest błędny, wygasł albo został już użyty. Poproś bota o /web jeszcze raz albo "
              "uruchom `wave web` na komputerze, aby dostać nowy."},
    "Not done": {"ru": "Не сделано", "pl": "Nie wykonano"},
    "Please log in": {"ru": "Войдите, пожалуйста", "pl": "Zaloguj się"},
    "Open the login link that `wave web` printed, or ask the bot for /web.": {
        "ru": "Откройте ссылку для входа, которую напечатал `wave web`, или попросите у бота /web.",
        "pl": "Otwórz link logowania wypisany przez `wave web` albo poproś bota o /web."},
    "Refused: the form is stale": {"ru": "Отклонено: форма устарела",
                                   "pl": "Odrzucono: formularz jest nieaktualny"},
    "This action did not carry the page's security token. Reload the page and try again.": {
        "ru": "В этом действии не было ключа защиты страницы. Обновите страницу и повторите.",
        "pl": "To działanie nie miało tokenu zabezpieczającego strony. Odśwież stronę i spróbuj "
              "ponownie."},
    "Memory could not be read": {"ru": "Память не удалось прочитать",
                                 "pl": "Nie udało się odczytać pamięci"},
    # export.html
    "Everything Wave holds about you, as JSON: records, people and things, proposals, "
    "contradictions, core blocks, the episode log and sessions (the same as": {
        "ru": "Всё, что Wave хранит о вас, в JSON: записи, люди и вещи, предложения, "
              "противоречия, основные блоки, дневник и сеансы (то же, что",
        "pl": "Wszystko, co Wave o Tobie przechowuje, w JSON: wpisy, ludzie i rzeczy, propozycje, "
              "sprzeczności, bloki główne, dziennik i sesje (to samo co"},
    "Download my memory": {"ru": "Скачать мою память", "pl": "Pobierz moją pamięć"},
    # health.html
    "Contradictions: {count}": {"ru": "Противоречий: {count}", "pl": "Sprzeczności: {count}"},
    "Resolve each on its record's page: supersede the one that is no longer true.": {
        "ru": "Разберите каждое на странице записи: замените ту, что больше не верна.",
        "pl": "Rozstrzygnij każdą na stronie wpisu: zastąp ten, który nie jest już prawdziwy."},
    "None. Memory does not contradict itself.": {
        "ru": "Нет. Память себе не противоречит.", "pl": "Brak. Pamięć sobie nie przeczy."},
    "Needs attention": {"ru": "Требует внимания", "pl": "Wymaga uwagi"},
    # health.html: the report's alarms and warnings (``wave_agent.ops.health.NOTICE_KEYS``)
    health.CONTRADICTION: {
        "ru": "{user}: #{first} \u00ab{first_text}\u00bb и #{second} \u00ab{second_text}\u00bb: "
              "что из этого верно? Удалите другое (`wave forget <id>`)",
        "pl": "{user}: #{first} \u201e{first_text}\u201d i #{second} \u201e{second_text}\u201d: "
              "co jest prawdą? Usuń drugie (`wave forget <id>`)"},
    health.STORE_PROBLEM: {"ru": "хранилище: {problem}", "pl": "magazyn: {problem}"},
    health.USER_PROBLEM: {"ru": "{user}: {problem}", "pl": "{user}: {problem}"},
    health.OUTBOX_BACKLOG: {
        "ru": "очередь обработки: {count} обмен(ов) ещё не разобрано",
        "pl": "kolejka: {count} wymian(y) jeszcze nieprzetworzonych"},
    health.LETTA_PENDING: {
        "ru": "{count} обновлени(й) основных блоков ждут Letta (`wave maintain --job blocks` "
              "применит их, когда Letta заработает)",
        "pl": "{count} aktualizacj(i) bloków głównych czeka na Lettę (`wave maintain --job "
              "blocks` zastosuje je, gdy Letta zadziała)"},
    health.LETTA_PENDING_SINCE: {
        "ru": "{count} обновлени(й) основных блоков ждут Letta с {since} UTC (`wave maintain "
              "--job blocks` применит их, когда Letta заработает)",
        "pl": "{count} aktualizacj(i) bloków głównych czeka na Lettę od {since} UTC (`wave "
              "maintain --job blocks` zastosuje je, gdy Letta zadziała)"},
    health.INDEX_DRIFT: {
        "ru": "{user}: расхождение индексов {count} (`wave maintain --job drift` исправит)",
        "pl": "{user}: rozbieżność indeksów {count} (`wave maintain --job drift` naprawi)"},
    health.EXPIRED_STATE: {
        "ru": "{user}: {count} истёкш(их) состояний/обещаний всё ещё активны "
              "(`wave maintain --job expire`)",
        "pl": "{user}: {count} wygasł(ych) stanów/zobowiązań wciąż aktywnych "
              "(`wave maintain --job expire`)"},
    health.QUARANTINE: {
        "ru": "{user}: {count} запис(ей) в карантине (`wave quarantine`)",
        "pl": "{user}: {count} wpis(ów) w kwarantannie (`wave quarantine`)"},
    health.PROPOSALS: {
        "ru": "{user}: {count} предложени(й) ждут ответа (`wave proposals`)",
        "pl": "{user}: {count} propozycj(i) czeka (`wave proposals`)"},
    health.DUPLICATES: {
        "ru": "{user}: {count} групп(ы) почти одинаковых записей",
        "pl": "{user}: {count} grup(y) niemal identycznych wpisów"},
    health.REVIEW_DUE: {
        "ru": "{user}: {count} факт(ов) пора пересмотреть (`wave maintain --job review`)",
        "pl": "{user}: {count} fakt(ów) do przeglądu (`wave maintain --job review`)"},
    "Report": {"ru": "Отчёт", "pl": "Raport"},
    "The same report as `wave health`, as the command prints it.": {
        "ru": "Тот же отчёт, что `wave health`, в том виде, в каком его печатает команда.",
        "pl": "Ten sam raport co `wave health`, tak jak wypisuje go polecenie."},
    "Over time": {"ru": "Во времени", "pl": "W czasie"},
    "records by tier over time": {"ru": "записи по уровням во времени",
                                  "pl": "wpisy według poziomu w czasie"},
    "contradictions over time": {"ru": "противоречия во времени",
                                 "pl": "sprzeczności w czasie"},
    "Drift and queues at each health check": {
        "ru": "Расхождения и очереди при каждой проверке",
        "pl": "Rozbieżności i kolejki przy każdym sprawdzeniu"},
    "drift and queues over time": {"ru": "расхождения и очереди во времени",
                                   "pl": "rozbieżności i kolejki w czasie"},
    "contradictions (cumulative)": {"ru": "противоречия (нарастающим итогом)",
                                    "pl": "sprzeczności (narastająco)"},
    "drift": {"ru": "расхождения", "pl": "rozbieżności"},
    "proposals": {"ru": "предложения", "pl": "propozycje"},
    "quarantine": {"ru": "карантин", "pl": "kwarantanna"},
    "outbox": {"ru": "очередь обработки", "pl": "kolejka przetwarzania"},
    # record.html
    "id": {"ru": "номер", "pl": "numer"},
    "type / tier / status": {"ru": "тип / уровень / статус", "pl": "typ / poziom / status"},
    "pinned": {"ru": "закреплена", "pl": "przypięty"},
    "last confirmed": {"ru": "последнее подтверждение", "pl": "ostatnio potwierdzony"},
    "mentioned {count}×, confidence {confidence}": {
        "ru": "упоминалась {count}×, уверенность {confidence}",
        "pl": "wspomniany {count}×, pewność {confidence}"},
    "where it came from": {"ru": "откуда она", "pl": "skąd pochodzi"},
    "messages": {"ru": "сообщения", "pl": "wiadomości"},
    "no message id": {"ru": "без номера сообщения", "pl": "bez numeru wiadomości"},
    "episode of": {"ru": "дневник за", "pl": "dziennik z dnia"},
    "exchanges": {"ru": "обмены", "pl": "wymiany"},
    "valid until": {"ru": "действует до", "pl": "ważny do"},
    "held because": {"ru": "задержана, потому что", "pl": "wstrzymany, bo"},
    "mentions": {"ru": "упоминает", "pl": "wspomina"},
    "How it changed": {"ru": "Как она менялась", "pl": "Jak się zmieniał"},
    "replaced by {id}": {"ru": "заменена на {id}", "pl": "zastąpiony przez {id}"},
    "No earlier or later version.": {"ru": "Ни прежних, ни более поздних версий нет.",
                                     "pl": "Brak wcześniejszych i późniejszych wersji."},
    "Contradicts": {"ru": "Противоречит", "pl": "Przeczy"},
    "resolved": {"ru": "разрешено", "pl": "rozstrzygnięte"},
    "Weight in recall over its first year": {
        "ru": "Вес при поиске за первый год", "pl": "Waga w wyszukiwaniu w pierwszym roku"},
    "decay over time": {"ru": "угасание со временем", "pl": "zanikanie w czasie"},
    "Now: day {age}, weight {weight} (a record of type “{type}” decays by its own curve).": {
        "ru": "Сейчас: день {age}, вес {weight} (запись типа «{type}» угасает по своей кривой).",
        "pl": "Teraz: dzień {age}, waga {weight} (wpis typu „{type}” zanika według własnej "
              "krzywej)."},
    "Actions": {"ru": "Действия", "pl": "Działania"},
    "Restore": {"ru": "Вернуть", "pl": "Przywróć"},
    "Forget (reversible)": {"ru": "Забыть (можно вернуть)", "pl": "Zapomnij (odwracalne)"},
    "Pin: I vouch for it": {"ru": "Закрепить: ручаюсь за неё", "pl": "Przypnij: ręczę za to"},
    "Delete…": {"ru": "Удалить…", "pl": "Usuń…"},
    "It is different now:": {"ru": "Теперь иначе:", "pl": "Teraz jest inaczej:"},
    "the record as it is now": {"ru": "запись такой, какая она сейчас",
                                "pl": "wpis taki, jaki jest teraz"},
    "Supersede": {"ru": "Заменить", "pl": "Zastąp"},
    # waiting.html
    "Proposals": {"ru": "Предложения", "pl": "Propozycje"},
    "No proposals.": {"ru": "Предложений нет.", "pl": "Brak propozycji."},
    "now": {"ru": "сейчас", "pl": "teraz"},
    "proposed": {"ru": "предлагается", "pl": "proponowane"},
    "why": {"ru": "почему", "pl": "dlaczego"},
    "{value} similar": {"ru": "сходство {value}", "pl": "podobieństwo {value}"},
    "Approve": {"ru": "Принять", "pl": "Zatwierdź"},
    "Reject": {"ru": "Отклонить", "pl": "Odrzuć"},
    "Quarantine": {"ru": "Карантин", "pl": "Kwarantanna"},
    "Nothing in quarantine.": {"ru": "В карантине пусто.", "pl": "Kwarantanna jest pusta."},
    "Release: it is mine": {"ru": "Выпустить: это моё", "pl": "Zwolnij: to moje"},
}


def N_(text: str) -> str:
    """Marks a message the page shows later through ``_`` (``render``); the unit test finds
    every ``N_("...")`` in ``web/`` and asks for its row."""
    return text


def negotiate(asked: str | None, remembered: str | None, accept_language: str | None) -> str:
    """The page's language for this request (see the module docstring)."""
    for choice in (asked, remembered):
        if choice in LANGUAGES:
            return str(choice)
    ranked: list[tuple[float, int, str]] = []
    for n, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower()[:2]
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if code in LANGUAGES and weight > 0:
            ranked.append((-weight, n, code))
    return sorted(ranked)[0][2] if ranked else DEFAULT


def translate(lang: str, text: str, **values: object) -> str:
    """``text`` (English) in ``lang``; ``{name}`` fields filled from ``values``."""
    said = CATALOGUE.get(text, {}).get(lang, text) if lang != "en" else text
    return said.format(**values) if values else said


def format_day(value: date | datetime | None, lang: str) -> str:
    """A date as people of ``lang`` write it (Babel, CLDR): 2 дек. 2026 г., 2 gru 2026."""
    if value is None:
        return ""
    from babel.dates import format_date

    return str(format_date(value, format="medium", locale=lang))


def format_number(value: float, lang: str) -> str:
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=lang))


def format_moment(value: datetime | str | None, lang: str) -> str:
    """A UTC time (a datetime or its ISO text) as people of ``lang`` write it, with "UTC"."""
    if value is None or value == "":
        return ""
    from babel.dates import format_datetime

    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return f"{format_datetime(moment, format='short', locale=lang, tzinfo=UTC)} UTC"


def link_name(link_type: str, lang: str) -> str:
    """A relation's type as words of ``lang``: "lives_in" -> "живёт в"; a kin role by the
    word the kin reader knows it by ("kin:sister" -> "сестра", "siostra", "sister")."""
    if link_type.startswith("kin:"):
        from graph.kin import role_name

        return role_name(link_type[4:], lang)
    return translate(lang, link_type.replace("_", " ").lower())
