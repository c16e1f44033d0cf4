"""The words the attribute reader (``wave_agent.world.attributes``) reads by: classes of
words, not sentences. What a verb or phrase does to a value (ends it, denies it, marks a
change or the past), which nouns name what a price pays for and which subject a lesson has,
the diets, habits, allergy and children words, and the patterns of a phone number, an amount,
an age and a birthday. Russian as pymorphy3 lemmas, English and Polish as written.
"""

from __future__ import annotations

import re

from wave_agent.world.lexicon import words as _listed

# Lemmas (Russian) and written forms (English, Polish). Classes of words, not sentences: what a
# verb does to a value (ends it, moves it), which nouns name what a price pays for.

NEGATION = _listed("не нет ни никогда без никаких никакой никакого никакие ничем not no never don't doesn't didn't isn't aren't "
                      "haven't hasn't nie brak nigdy bez")
ENDING = _listed("""забросить бросить перестать завязать умереть погибнуть пропасть сбежать
    усыпить отдать продать расстаться расставаться развестись разводиться разойтись уволиться потерять разбить утопить
    бросать покончить зажить вылечить вылечиться излечиться
    quit stop stopped quitting gave give up died die passed lost sold broke split left healed cured
    rzucić rzuciłam rzuciłem rzuciła rzucił przestać przestałam przestałem zdechł zdechła
    umarł umarła odszedł odeszła sprzedałam sprzedałem zgubiłam zgubiłem rozstaliśmy
    rozstałam rozstałem""")
ENDED_PHRASES = re.compile(
    r"больше\s+нет|больше\s+не\b|не\s+стало|уже\s+нет|нет\s+больше|не\s+остал(?:ось|ся|ась|ись)\b|"
    # "с Димой всё. расстались": it is over with someone (not "с Димой всё хорошо")
    r"\bсо?\s+\w+(?:ой|ом|ем|ей|ёй)\s+вс[её](?=\s*(?:[.!,;…]|$))|"
    # "так что вегетарианство всё", "йога — всё": a thing said to be over (not "съела всё")
    r"\b\w+(?:ство|изм|ие|ия|ка|га)\s+(?:[—–-]\s+)?вс[её](?=\s*(?:[.!,;…]|$))|no longer|not any ?more|anymore|"
    # "вегетарианство закончилось на шаурме", "вегетарианству конец": a way of living said to
    # have ended, as the subject of "закончилось" or the one "конец" comes to (not "занятие
    # закончилось", "отпуск кончился": only a noun of a way of living, -ство / -изм)
    r"\b\w+(?:ство|изм)\s+(?:(?:и|уже|наконец|официально|моё|мое)\s+)?(?:за)?кончил(?:ось|ся)\b|"
    r"\b\w+(?:ству|изму)\s+(?:(?:и|уже|наконец|официально|моему)\s+)?(?:пришёл\s+|пришел\s+)?конец\b|"
    # "хватит с меня вегетарианства", "довольно веганства": a way of living one has had enough
    # of (-ства / -изма in the genitive after "хватит" / "довольно"; not "хватит денег")
    r"\b(?:хватит|довольно)\s+(?:с\s+меня\s+)?\w+(?:ства|изма)\b|"
    # "вегетарианство не моё", "йога не для меня", "not for me", "nie dla mnie": a thing tried
    # and left, said as not one's own (not "не моё дело")
    r"\bне\s+(?:мо[её]|для\s+меня)(?=\s*(?:[.!,;…]|$))|\bnot\s+for\s+me\b|\bnie\s+dla\s+mnie\b|"
    r"już\s+nie|nie\s+ma\s+już|już\s+go\s+nie|już\s+jej\s+nie", re.I)
# The whole of one's past ("никогда в жизни", "ни разу", "сроду", "never", "nigdy", "w życiu"):
# a denial said with it denies the value ever held, not only now (``write.attributes.denies_ever``)
EVER = re.compile(r"\b(?:никогда|ни\s+разу|в\s+жизни|отродясь|сроду|never|not\s+once|nigdy|"
                  r"ani\s+razu|w\s+życiu)\b", re.I)
CHANGE = re.compile(r"\b(?:теперь|больше\s+не|уже\s+не|now|no longer|teraz|już\s+nie)\b", re.I)
PER_UNIT = re.compile(r"\d\s*(?:(?:руб\w*|р\.?|₽|rub|rubles?|roubles?|zł|złotych|pln|eur|euro|usd|"
                      r"dollars?|\$|€)\s*)?(?:[—–-]\s*)?(?:в\s+месяц|в\s+неделю|за\s+(?:занятие|урок|час|месяц|"
                      r"визит)|per\s+(?:month|hour|lesson|session)|a\s+month|an\s+hour|"
                      r"a\s+lesson|miesięcznie|za\s+(?:godzinę|lekcję|zajęcia|miesiąc))", re.I)
SIBLINGS = _listed("""брат сестра братья сестры сестер братьев siblings brothers sisters
    rodzeństwo rodzeństwa braci sióstr""")
# "I have no siblings" said as "I am an only child": a whole negation of the siblings
ONLY_CHILD = re.compile(
    r"\bя\b[^.!?;]{0,20}?\bединственн\w*\s+(?:ребён|ребен|сын|доч)\w*|"
    r"\bi(?:'m| am| was)\s+(?:an?|the)\s+only\s+child\b|"
    r"\b(?:jestem|byłam|byłem|jestem\s+\w+)\s+jedyna(?:kiem|czką)\b", re.I)
# "я у родителей единственная", "у мамы с папой я один": an only child said without "ребёнок"
# (the parents as the holder, then the only one; tuning_38's author); "одна" / "один" only
# where the clause ends on it ("я у них одна в квартире" is alone there, not an only child)
_ONLY = r"(?:единственн(?:ая|ый)\b|(?:одна|один)(?=\s*(?:[.,!?;…—-]|$)))"
ONLY_CHILD_OF_PARENTS = re.compile(
    rf"\bя\s+у\s+(?:родителей|мамы\s+с\s+папой|папы\s+с\s+мамой|них)\s+(?:\w+\s+)?{_ONLY}|"
    rf"\bу\s+(?:родителей|мамы\s+с\s+папой|папы\s+с\s+мамой)\s+я\s+(?:\w+\s+)?{_ONLY}",
    re.I)
# the class word of a car: its denial ("машины у меня нет", "у меня никогда не было машины")
# denies whichever car the person holds, not a car called "машина" (a bicycle is not one)
CAR_CLASS = _listed("машина автомобиль авто тачка car samochód samochodu auto")
# a pet's species by its nouns (pymorphy3's lemmas, ``ё`` as ``е``): a denied species ("у меня
# никогда не было кошек") meets a held pet said beside one of them ("кот Рыжик")
SPECIES = {**dict.fromkeys(_listed("""кот кошка котик котенок кошечка котейка cat cats kitten
                                       kot kotka koty kotów kota"""), "cat"),
           **dict.fromkeys(_listed("""пес собака собачка щенок песик dog dogs puppy pies psa psy
                                       psów suczka"""), "dog")}
ILLNESSES = _listed("""болезнь болячка заболевание диагноз хронь illnesses diseases conditions
    illness disease choroby chorób schorzeń choroba""")
HOBBY_VERBS = {"бегать": "бег", "плавать": "плавание", "танцевать": "танцы",
               "рисовать": "рисование", "вязать": "вязание", "петь": "пение",
               "кататься": "катание", "rysować": "rysowanie", "pływać": "pływanie",
               "biegać": "bieganie", "tańczyć": "taniec"}
PROMOTED = re.compile(r"\b(?:повысили|повысил[аи]?|назначили|назначен[аы]?)\s+(?:до|на\s+должность)\s+"
                      r"([а-яё-]+(?:\s+[а-яё-]+)?)|\bpromoted\s+to\s+([\w ]{3,30}?)(?:[.,!]|$)|"
                      # "меня назначили тимлидом тестирования": the role in the instrumental
                      r"\bменя\s+(?:\w+\s+)?назначили\s+([а-яё-]+(?:ом|ем|ой|ей|ёй)"
                      r"(?:\s+[а-яё-]+(?:а|я|ов|ей|ы|и))?)\b",
                      re.I)
LIVE = _listed("жить проживать live living mieszkać mieszkam mieszkamy")
MOVE = _listed("""переехать перебраться переезжать moved move relocated przeprowadziłam
    przeprowadziłem przeprowadziliśmy przeprowadziła przeprowadził przeprowadzili przeprowadziły""")
# taking a job is news of the employer as a move is of the city: "Гоша устроился в Яндекс",
# "Олег перешёл в «Ростелеком»", "перевёлся в питерский офис" (the verbs' lemmas)
JOINED = _listed("""устроиться перейти перевестись назначить повысить joined hired zatrudnił zatrudniła
    zatrudniłem zatrudniłam przeszedł przeszła""")
WORK_FIRST_PERSON = _listed("работаю работаем тружусь")
RESUME = re.compile(r"\b(?:снова|опять|вновь|начал[аи]?|again|started|start|znowu|znów|"
                    r"zacząłem|zaczęłam|день\s+рождения|днюха|исполнилось|birthday|turned|"
                    r"urodziny|skończył[ae]m)\b", re.I)  # a birthday moves the age on
NEW = _listed("новый new nowy nowa nowe nowego nowej nowym")
# a holiday named by "new" is a date, not news of a value: "обещал на Новый год мне зуб
# посмотреть", "na Nowy Rok", "for New Year's" ("с нового года", "od nowego roku": SINCE)
NEW_YEAR = re.compile(r"\bнов(?:ый|ого|ому|ым|ом)\s+год\w*|\bnew\s+year\b|"
                      r"\bnow(?:y|ego|ym)\s+rok\w*", re.I)
_NEW_WORD = re.compile(r"\b(?:нов\w*|new|now[aey]\w*)\b", re.I)


def says_new(text: str, words: set[str]) -> bool:
    """Whether ``words`` (the statement's forms or lemmas) hold a "new" word (``NEW``) that is
    not a holiday's name (``NEW_YEAR``), unless the holiday is the date a value holds from."""
    if not words & NEW:
        return False
    if SINCE.search(text) or not NEW_YEAR.search(text):
        return True
    return bool(_NEW_WORD.search(NEW_YEAR.sub(" ", text)))
# "теперь мы в Казани", "now I'm in Leeds", "teraz jesteśmy w Gdańsku": a place as where one is now
NOW_HERE = re.compile(r"\b(?:я|мы|i'm|i am|we're|we are|jestem|jesteśmy)\s+(?:\w+\s+)?(?:в|во|in|w|we)\s", re.I)
# the first day at a place names the employer: "первый день в «Тинькофф»", "first day at Acme"
FIRST_DAY = re.compile(r"\b(?:перв\w+\s+(?:рабоч\w+\s+)?день|first\s+day|pierwsz\w+\s+dzie\w+)\b", re.I)
# a job offered, not yet the person's: "мне предложили работу в Казани, в Ак Барс Банке",
# "пришёл оффер", "приняла оффер. выхожу в «Точку» 23-го", "they offered me", "zaproponowali
# mi pracę" (eight of thirteen months' authors; none of their labels sets the employer there)
JOB_OFFER = re.compile(r"\b(?:предложил\w*\s+(?:мне\s+)?(?:работу|должность|место|позицию)|"
                       r"оффер\w*|job\s+offer|offered\s+me|zaproponowa\w*\s+(?:mi\s+)?"
                       r"(?:pracę|stanowisko)|ofert\w*\s+pracy)", re.I)
# "последний день в Ростелекоме", "последний день на ЛПК отработал", "last day at Acme",
# "ostatni dzień w Comarchu": the place named right after is where the person worked until now
# (seven of thirteen months' authors write a job's end so)
LAST_DAY_AT = re.compile(r"\b(?:последн\w+\s+(?:рабоч\w+\s+)?день\s+(?:в|на)|last\s+day\s+(?:at|in)|"
                         r"ostatni\w*\s+dzie\w+\s+(?:w|we|na))\s+[«\"„]?([\w-]+)", re.I)

MONEY = (r"(?:тыс(?:яч[аи]?|\.)?|тыщ[аи]?|к\b|руб(?:л[ея]й?|\.)?|р\.|₽|\$|€|£|zł|złotych|zl|"
          r"pln|rubli|rubla|ruble|dollars?|bucks|euros?|pounds?|usd|eur|k\b)")
AMOUNT = re.compile(r"(?<![\d+])(\d[\d\s.,]*\d|\d)\s*" + MONEY, re.I)
AMOUNT_BEFORE = re.compile(r"(?:\$|€|£)\s*(\d[\d,.]*)")
# what a recurring price pays for: lemma or form -> the price's name
PRICE_OF = {
    "rent": """квартира однушка однушко двушка трёшка трешка аренда съем съём снимать хозяйка арендодатель czynsz wynajem mieszkanie
        mieszkania mieszkaniu kawalerkę kawalerka rent landlord flat apartment""",
    "lessons": """урок занятие репетитор репетиторство курс lekcje lekcji lekcja lekcję korepetycje
        korepetycji kurs lessons lesson tutor tutoring classes""",
    "subscription": """подписка subskrypcja subskrypcję abonament subscription netflix spotify""",
    "gym": "абонемент спортзал зал фитнес siłownia siłownię karnet gym membership",
    "swimming": "бассейн basen basenu pool",
    "kindergarten": "садик детсад сад przedszkole przedszkola kindergarten daycare nursery",
    "internet": "интернет internet broadband",
    "mortgage": "ипотека kredyt hipoteka mortgage",
    "phone_plan": "тариф симка связь taryfa",
}
# a thing paid for by its own name, not by a price noun: "списали за Плюс 449", "Яндекс Плюс
# опять подорожал", "продлила Яндекс Плюс, 399 в месяц" (two capitalised words, or one after
# "за" / "на" / "for" / "na", or one that is the subject of a rise)
SERVICE = re.compile(r"\b([A-ZА-ЯЁ][\w-]+(?:\s+[A-ZА-ЯЁ][\w-]+)+)|\b(?:за|на|for|na|on)\s+"
                     r"([A-ZА-ЯЁ][\w-]+(?:\s+[A-ZА-ЯЁ][\w-]+)?)|^([A-ZА-ЯЁ][\w-]+)\s+(?:\w+\s+){0,4}?"
                     # the subject of a rise or a charge: "Плюс опять списал 299", "Плюс теперь
                     # 449 в месяц списывает"
                     r"(?:подорожал|списал|списыва|went\s+up|podrożał)")
# a price that recurs, said of a thing by its name: charged, renewed, gone up ("списали",
# "продлила", "подорожал", "went up", "charged", "podrożał")
RECURS = re.compile(r"\b(?:списал\w*|списыва\w*|спишут|продлил\w*|подорожал\w*|подняли|charged|renewed|"
                    r"went\s+up|podrożał\w*|przedłuż\w*)", re.I)
# a new value from a date on: "с этой недели урок 1800", "со следующего месяца 2600"
SINCE = re.compile(r"\bсо?\s+(?:этой|этого|следующ\w+|нов\w+)\s+(?:недели|месяца|года)\b|"
                   r"\bс\s+(?:сегодняшнего|завтрашнего)\s+дня\b|"
                   r"\bod\s+(?:tego|przyszłego|nowego)\s+(?:tygodnia|miesiąca|roku)\b|"
                   r"\b(?:from|starting)\s+(?:this|next)\s+(?:week|month|year)\b|"
                   r"\b(?:from|starting)\s+(?:the\s+)?new\s+year\b", re.I)
# a start from now on ("с сегодняшнего дня", "отныне", "od dziś", "as of today", "from now on"):
# a negation said from it ends a held value ("Всё, с сегодняшнего дня не курю" after "курю"),
# as "больше не" does, however soon after the habit it is said; "сегодня" in it is no occasion
FROM_NOW = re.compile(r"\bс\s+(?:сегодняшнего|завтрашнего|этого)\s+дня\b|\bс\s+сегодня\b|"
                      r"\bс\s+(?:этой\s+минуты|этого\s+момента|понедельника)\b|\bотныне\b|"
                      r"\bod\s+(?:dziś|dzisiaj|dzisiejszego\s+dnia|jutra|teraz|poniedziałku)\b|"
                      r"\b(?:as\s+of|from|starting)\s+(?:today|tomorrow|monday|now\s+on|now)\b|"
                      r"\bfrom\s+this\s+day\b", re.I)
PASS_TO = re.compile(r"\bабонемент\w*\s+(?:в|на)\s+(\w+)|\bkarnet\w*\s+na\s+(\w+)", re.I)
PRICE_WORDS = {w: what for what, listed in PRICE_OF.items() for w in listed.split()}
SUBJECT = {"английский": "english", "english": "english", "angielski": "english",
            "angielskiego": "english", "немецкий": "german", "german": "german",
            "niemiecki": "german", "niemieckiego": "german", "испанский": "spanish",
            "spanish": "spanish", "hiszpański": "spanish", "hiszpańskiego": "spanish",
            "музыка": "music", "фортепиано": "piano", "пианино": "piano", "piano": "piano",
            "гитара": "guitar", "guitar": "guitar", "плавание": "swimming", "вождение": "driving",
            "driving": "driving", "математика": "math", "math": "math", "maths": "math"}
# a bare amount, its thousands apart or not ("49 900 в месяц" is 49900, not 900)
BARE_AMOUNT = re.compile(r"(?<![\d+])(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d{3,6})(?![\d%])")
# a bare amount paid for something: "за 399", "for 399", "za 399"
FOR_AMOUNT = re.compile(r"\b(?:за|for|za)\s+(\d{3,6})(?![\d%.,]\d)")
PAY = _listed("""платить плачу заплатить оплатить оплачивать отдать отдавать стоить обходиться перевести списать pay paid pays costs cost płacę
    zapłaciłam zapłaciłem kosztuje kosztują płacimy""")
PHONE = re.compile(r"(?<![\w+])(\+?\d[\d\s\-()]{7,}\d)(?!\w)")
AGE = re.compile(
    r"\b(?:мне|исполнилось|исполняется)\s+(?:уже\s+|сегодня\s+|скоро\s+)?(\d{1,3})\b|"
    # "в мои 36 я всё ещё ...": the person's age said in passing (not "в мои 20 лет я жила")
    r"\bв\s+(?:мои|свои)(?:-то|-ж)?\s+(\d{1,3})\b(?!(?:\s+(?:лет|года?))?(?:\s+я)?\s+\w+(?:л|ла|ли|ло)\b)|"
    # "34 года мне", "30 лет мне исполнилось": the "мне" right after (not "машине 14 лет, а мне
    # всё ещё жалко её": the car's age read as the person's)
    r"\b(\d{1,3})\s*(?:лет|год|года)\s+(?:уже\s+)?(?:мне|исполнилось)\b|"
    r"\bI(?:'m| am)\s+(?:now\s+)?(\d{1,3})\b(?!\s*(?:kg|km|min|%))|\bturned\s+(\d{1,3})\b|"
    r"\bmam\s+(?:już\s+)?(\d{1,3})\s+lat|\bskończył[aoe]m\s+(\d{1,3})\b|"
    # the age named as such: "писала возраст — 35", "age: 41", "wiek 29"
    r"\b(?:возраст|age|wiek)\s*[—–:-]?\s*(\d{1,3})\b(?!\s*(?:лет|год|years))", re.I)
# someone's age said in passing, a name in the dative and the number: "Матвею 11, а ведёт
# себя как ...", "Тёме же 9 лет" (whose: the name, or nothing; never the speaker's)
AGE_OF = re.compile(r"\b[А-ЯЁ][а-яё]+(?:е|у|ю|и)\s+(?:же\s+|уже\s+|скоро\s+|только\s+|всего\s+|почти\s+)?"
                    r"(\d{1,2})(?:\s+(?:лет|год|года))?(?=[\s,.!?;)]|$)"
                    r"(?!\s*(?:раз|час|минут|рубл|тысяч|км|кг|%|штук))")
BIRTHDAY_SAID = re.compile(r"(?:день|дн[яюеё]м?)\s+рождени|днюх|\bдр\b|стукнул|исполнил|исполнится|исполняется|"
                           r"birthday|\bturn(?:ed|ing)\b|urodzin|skończył|🎂|🥳|"
                           # an age said as today's: "мне сегодня 34", "I'm 34 today"
                           r"мне\s+сегодня\s+\d|сегодня\s+мне\s+\d|\btoday\s+i(?:'m|\s+am)\s+\d|"
                           r"\bi(?:'m|\s+am)\s+\d+\s+today|\bdzi(?:ś|s)\s+(?:mam|kończę)\s+\d", re.I)
BIRTHDAY = re.compile(r"(?:день\s+рождения|днюха|др\b|birthday|urodziny)\D{0,20}"
                       r"(\d{1,2}(?:[./ ]\d{1,2}|\s+\w+))", re.I)
# the date said before the word ("у меня 14 ноября день рождения", "14 marca mam urodziny")
BIRTHDAY_BEFORE = re.compile(
    r"\b(\d{1,2}\s+(?:январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр|"
    r"styczni|lut|marc|kwietni|maj|czerwc|lipc|sierpni|wrze[sś]ni|październik|listopad|grudni)\w*)"
    r"\s+(?:у\s+меня\s+|mam\s+|moje\s+)?(?:день\s+рождения|днюха|др\b|urodziny)", re.I)
# a birthday said by its month, the day after it or none ("день рождения у меня в марте", "в
# апреле, 9-го", "в начале марта", "my birthday is in March", "urodziny mam w marcu")
MONTHS = {  # a month's stem as said after "в" / "in" / "w" -> (nominative, genitive)
    "январ": ("январь", "января"), "феврал": ("февраль", "февраля"), "март": ("март", "марта"),
    "апрел": ("апрель", "апреля"), "ма": ("май", "мая"), "июн": ("июнь", "июня"),
    "июл": ("июль", "июля"), "август": ("август", "августа"), "сентябр": ("сентябрь", "сентября"),
    "октябр": ("октябрь", "октября"), "ноябр": ("ноябрь", "ноября"), "декабр": ("декабрь", "декабря"),
    "january": ("January", "January"), "february": ("February", "February"),
    "march": ("March", "March"), "april": ("April", "April"), "may": ("May", "May"),
    "june": ("June", "June"), "july": ("July", "July"), "august": ("August", "August"),
    "september": ("September", "September"), "october": ("October", "October"),
    "november": ("November", "November"), "december": ("December", "December"),
    "styczni": ("styczeń", "stycznia"), "lut": ("luty", "lutego"), "marc": ("marzec", "marca"),
    "kwietni": ("kwiecień", "kwietnia"), "maj": ("maj", "maja"), "czerwc": ("czerwiec", "czerwca"),
    "lipc": ("lipiec", "lipca"), "sierpni": ("sierpień", "sierpnia"),
    "wrześni": ("wrzesień", "września"), "październik": ("październik", "października"),
    "listopadzi": ("listopad", "listopada"), "grudni": ("grudzień", "grudnia"),
}
BIRTHDAY_MONTH = re.compile(
    r"\b(?:в|in|w)\s+(?:(начале|конце|середине)\s+)?(январ|феврал|март|апрел|ма|июн|июл|август|"
    r"сентябр|октябр|ноябр|декабр|january|february|march|april|may|june|july|august|september|"
    r"october|november|december|styczni|lut|marc|kwietni|maj|czerwc|lipc|sierpni|wrześni|"
    r"październik|listopadzi|grudni)(?:е|а|ym|u|e)?\b(?:[\s,]+(?:говорю,?\s+|the\s+)?"
    r"(\d{1,2})(?:-?(?:го|е|th|st|nd|rd)|\.)?(?!\d))?", re.I)
# an answer that none is held ("никаких", "никогда не было", "прочерк", "нет"), after a question
# about a class of things ("спросили про аллергии — сказала, что никаких")
NONE_HELD = re.compile(r"\bникак(?:их|ой|ие|ого)\b|\bне\s+было\b|\bпрочерк|\bнет\b|"
                       r"\bnone\b|\bnever\s+had\b|\bżadn\w+\b|\bnie\s+mam\b", re.I)
DIET = {  # lemma / form -> the diet
    "вегетарианец": "вегетарианство", "вегетарианка": "вегетарианство",
    "вегетарианство": "вегетарианство", "веган": "веганство", "веганка": "веганство",
    "веганство": "веганство", "кето": "кето", "пескетарианец": "пескетарианство",
    "пескетарианка": "пескетарианство", "пп": "правильное питание", "безглютеновый": "без глютена",
    "vegetarian": "vegetarian", "vegan": "vegan", "keto": "keto", "pescatarian": "pescatarian",
    "wegetarianka": "wegetarianizm", "wegetarianinem": "wegetarianizm",
    "wegetarianką": "wegetarianizm", "wegetarianin": "wegetarianizm", "weganka": "weganizm",
    "weganką": "weganizm", "weganinem": "weganizm", "wegański": "weganizm", "wegańskiej": "weganizm",
    "wegetariańskiej": "wegetarianizm", "keto-dieta": "keto",
}
MEAT = _listed("мясо meat mięsa mięso")
EAT = _listed("есть кушать питаться eat jem jeść")
# thrown out: of what a habit takes ("выкинула сигареты", "пачку выбросил", "wyrzuciłam
# papierosy", "threw out my cigarettes") the habit is given up; not an ending of anything else
# ("самарскую симку выкинула" ends no city, "выкинула пачку после разговора с Димой" no partner)
# a wish for a habit, not a use of it ("дико хочется курить", "захотела курить", "chce mi się
# palić", "I want a smoke"): after "бросила" a craving is no relapse (four tuning months' quitters)
WISH = _listed("""хотеть хотеться захотеть захотеться want wanted wanting craving crave chcieć
    chce chcę chciałam chciałem chciało""")
THREW = _listed("""выкинуть выбросить выкидывать выбрасывать threw throw wyrzucić wyrzuciłam
    wyrzuciłem wyrzuciła wyrzucił""")
# an animal taken to live with someone else ("Кешу отвезла маме", "пристроили Бублика в
# хорошие руки", "took Max to my parents'", "zawiozłam Kesia do mamy"): the person's pet no
# longer, of a held pet only (a child taken to school is taken there, not given away)
AWAY = _listed("""отвезти увезти пристроить передать отправить took rehomed rehome
    zawiozłam zawiozłem oddałam oddałem""")
AWAY_TO = _listed("руки приют передержка shelter parents schronisko schroniska")
HABIT = {"курить": "курение", "покурить": "курение", "закурить": "курение", "сигарета": "курение", "курение": "курение", "вейп": "курение",
          "smoke": "smoking", "smoking": "smoking", "cigarettes": "smoking", "cigarette": "smoking",
          "palę": "palenie", "palić": "palenie", "palenie": "palenie", "papierosy": "palenie", "papieros": "palenie",
          "выпивать": "алкоголь", "алкоголь": "алкоголь",
          "alcohol": "alcohol", "alkohol": "alkohol"}
ALLERGY = _listed("аллергия allergy allergies allergic alergia alergię alergii alergiczna "
                     "alergiczny uczulenie uczulona uczulony")
CHILDREN = _listed("ребенок ребёнок дети children kids child dzieci dziecko dzieci")
PARTNER_VERB = _listed("встречаться dating seeing spotykam spotykać")
# a couple said as such, with the one named: "мы с Артёмом вместе", "с Димой мы вместе уже
# четыре года", "мы с Денисом расстались", "живём с Денисом", "со Светой всё. разошлись", "я
# рассталась с Игорем", "z Markiem jesteśmy razem", "rozstałam się z Markiem", "Tom and I broke
# up", "I live with Tom" (a name right after "с" / "z" / "with": not "живу с сестрой Катей");
# the clause's polarity says whether it holds or ended. "вместе" ends its clause or is said
# with how long ("мы с Димой пять лет вместе"): not "мы с Олей вместе ходили в кино"
_NAME_RU = r"([А-ЯЁ][а-яё]+)"
_NAME_LAT = r"([A-ZŁŚŻŹĆ][a-ząćęłńóśźż]+)"
_HOW_LONG = (r"(?:(?:уже|почти|больше|меньше|около|полтора|полгода|\w+)\s+){0,3}"
             r"(?:лет|год|года|месяц\w*|полгода)")
_TOGETHER_RU = (r"(?:(?:(?:теперь|официально|снова|уже|опять)\s+){1,2}|" + _HOW_LONG + r"\s+)?"
                r"вместе(?:\s+" + _HOW_LONG + r")?(?=\s*(?:[.!,;)…]|$|\W*$))")
_COUPLE_VERB_RU = (r"(?:расста\w+|разош\w+|развел\w+|развод\w+|встречаемся|живём|живем|"
                   r"съехались|поженились|женаты)")
COUPLE = re.compile(
    r"\b(?i:мы\s+со?)\s+" + _NAME_RU + r"\s+(?:" + _TOGETHER_RU + r"|(?:\w+\s+){0,2}?"
    + _COUPLE_VERB_RU + r"\b)|"
    r"\b(?i:со?)\s+" + _NAME_RU + r"\s+мы\s+(?:" + _TOGETHER_RU + r"|(?:\w+\s+){0,2}?"
    + _COUPLE_VERB_RU + r"\b)|"
    r"\b(?i:живём|живем|живу|съехались|расстал\w*|разош\w+|развел\w+)\s+(?i:со?)\s+" + _NAME_RU
    + r"\b|"
    r"\b(?i:со?)\s+" + _NAME_RU + r"\s+вс[её]\W+(?:\w+\s+)?(?:расста\w+|разош\w+|развел\w+)|"
    r"\b(?i:jestem|jesteśmy|mieszkam|mieszkamy|rozstał\w*\s+się|rozstaliśmy\s+się|"
    r"zerwał\w*)\s+(?i:z)\s+" + _NAME_LAT + r"|\b(?i:z)\s+" + _NAME_LAT + r"\s+(?:jesteśmy|mieszkamy|"
    r"rozstaliśmy|się\s+rozstaliśmy)\b|"
    r"\b" + _NAME_LAT + r"\s+and\s+I\s+(?:are|were|have\s+been|'ve\s+been|broke\s+up|split"
    r"|live|moved\s+in|got\s+married)\b|\b(?i:broke\s+up|split\s+up|live|living|moved\s+in)"
    r"\s+(?i:with)\s+" + _NAME_LAT + r"\b|"
    # the one named said to be the person's partner now: "Артём теперь официально мой парень",
    # "Тимур теперь мой парень", "Tomek jest oficjalnie moim chłopakiem" (a change word before
    # it: "Денис, мой парень" is the parse's apposition, read as a kin link already)
    r"\b" + _NAME_RU + r"\s+(?:(?:официально|уже|наконец)\s+)?теперь\s+(?:(?:официально|уже)\s+)?"
    r"(?i:мой|моя)\s+(?:парень|муж|жених|девушка|жена|невеста)\b|"
    r"\b" + _NAME_LAT + r"\s+jest\s+(?:(?:teraz|oficjalnie|już)\s+){1,2}"
    r"(?i:moim|moją)\s+(?:chłopakiem|mężem|narzeczonym|partnerem|dziewczyną|żoną|narzeczoną)\b")
# a couple said with no name, of the one person the statement names: "Денис ... живём вместе
# два года", "с Димой опять поругались. полтора года вместе", "mieszkamy razem", "we live
# together"
TOGETHER = re.compile(r"\b(?:живём|живем|съехались)\s+вместе\b|(?<!мы\s)\b" + _HOW_LONG
                      + r"\s+вместе\b|\bвместе\s+(?:уже\s+)?" + _HOW_LONG + r"|"
                      r"\b(?:jesteśmy|we're|we\s+are|mieszkamy|live|living|been)\s+(?:już\s+|now\s+|"
                      r"officially\s+|oficjalnie\s+)?(?:razem|together)\b", re.I)
# a negation counted in days or weeks: a try under way, not a value denied ("третий день не
# курю", "второй день без сигарет", "two weeks without sugar", "trzeci dzień bez papierosa")
STREAK = re.compile(r"\b(?:перв|втор|трет|четв[её]рт|пят|шест|седьм|\d+|два|две|три|пять|неск)\w*"
                    r"\s+(?:день|дня|дней|сутки|суток|недел\w*|месяц\w*)\s+(?:уже\s+)?(?:не|без)\b|"
                    r"\b(?:\d+|two|three|four|five|six|seven|second|third)\s+(?:days?|weeks?|months?)"
                    r"\s+(?:without|smoke-free|sober|off)\b|\b(?:drugi|trzeci|czwarty|\d+)\s+"
                    r"(?:dzie\w*|tydzie\w*|dni)\s+(?:bez|nie)\b|"
                    # the count after the noun: "день первый без сигарет", "day one without"
                    r"\b(?:день|неделя)\s+(?:перв|втор|трет|\d)\w*\s+(?:уже\s+)?(?:не|без)\b|"
                    r"\b(?:day|week)\s+(?:one|two|three|\d+)\s+(?:without|smoke-free|sober|off)\b|"
                    r"\b(?:dzień|tydzień)\s+(?:pierwszy|drugi|trzeci|\d+)\s+(?:bez|nie)\b", re.I)
# a recurring time: an activity said with it is a pastime ("йога по понедельникам", "twice a
# week", "w soboty")
SCHEDULE = re.compile(r"\bпо\s+(?:понедельник|вторник|сред|четверг|пятниц|суббот|воскресень|"
                      r"выходн|утрам|вечерам)\w*|\b(?:раз|два\s+раза|три\s+раза)\s+в\s+неделю|"
                      r"\bкажд\w+\s+(?:понедельник|вторник|сред|четверг|пятниц|суббот|воскресень)\w*|"
                      r"\b(?:on|every)\s+(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|"
                      r"saturdays?|sundays?|weekends?)\b|\b(?:once|twice)\s+a\s+week\b|"
                      r"\bw\s+(?:poniedziałki|wtorki|środy|czwartki|piątki|soboty|niedziele|weekendy)\b|"
                      r"\b(?:raz|dwa\s+razy)\s+w\s+tygodniu\b", re.I)
# who gives a diagnosis: "была у гастроэнтеролога", "терапевт сказала", "the doctor said"
DOCTOR = re.compile(r"\b\w+олог\w*|\b(?:врач|терапевт|доктор|ортопед|педиатр|хирург)\w*|"
                    r"\bдиагноз\w*|\b(?:doctor|GP|diagnos\w*|lekar\w*|diagnoz\w*)\b", re.I)
# one occasion: a pastime skipped that day is not given up
ONCE = re.compile(r"\b(?:сегодня|вчера|позавчера|today|tonight|yesterday|dziś|dzisiaj|wczoraj)\b",
                  re.I)
# a value after these is a circumstance ("после бокса не чувствую рук"), not what is denied
CIRCUMSTANCE = frozenset({"после", "перед", "before", "after", "po", "przed"})
# a name given to a new animal: "назвали Бим", "Матвей назвал её Шпротой", "named him Max",
# "nazwaliśmy go Reksio"
NAMED = re.compile(r"\b(?:назвал[аи]?|назовём|назвали\s+мы)\s+(?:(?:его|её|ее)\s+)?([А-ЯЁ][а-яё]+)"
                   r"|\bnamed\s+(?:(?:him|her|it)\s+)?([A-Z][a-z]+)|\bnazwal\w*\s+(?:go\s+|ją\s+)?"
                   r"([A-ZŁŚŻ][a-ząćęłńóśźż]+)")
# an arrival said as done: "всё, мы в Вологде", "ну всё, я в Казани"
ARRIVED = re.compile(r"^\W*(?:ну\s+)?(?:вс[её]|наконец|итак)\W+(?:мы|я)\s+(?:уже\s+)?(?:в|во)\s", re.I)
# the person's own birthday, said with a bare age: "ну всё, 34. с днём рождения меня",
# "сорок четыре стукнуло"
OWN_BIRTHDAY = re.compile(r"с\s+(?:днём|днем)\s+рождения\s+(?:меня|мне|себя)|стукнуло|"
                          r"happy\s+birthday\s+to\s+me|wszystkiego\s+najlepszego\s+dla\s+mnie", re.I)
PARTNER_ROLES = {"husband", "wife", "partner", "boyfriend", "girlfriend", "fiance", "fiancee"}



__all__ = ["AGE", "ALLERGY", "AMOUNT", "AMOUNT_BEFORE", "ARRIVED", "AWAY", "AWAY_TO", "BARE_AMOUNT", "BIRTHDAY", "BIRTHDAY_BEFORE", "BIRTHDAY_MONTH", "CAR_CLASS", "CAR_NAMES", "CHANGE", "CHILDREN", "CIRCUMSTANCE", "COUPLE", "DEVICE_MAKES", "DIET", "DOCTOR", "EAT", "ENDED_PHRASES", "ENDING", "FIRST_DAY", "FOR_AMOUNT", "FROM_NOW", "HABIT", "MAKE_SPELLINGS", "MEAT", "MONEY", "MONTHS", "NAMED", "NEGATION", "NEW", "NEW_YEAR", "NONE_HELD", "NOW_HERE", "ONCE", "ONLY_CHILD_OF_PARENTS", "OWN_BIRTHDAY", "OWN_CAR", "PARTNER_ROLES", "PARTNER_VERB", "PASS_TO", "PAY", "PHONE", "PRICE_OF", "PRICE_WORDS", "RECURS", "RESUME", "SCHEDULE", "SERVICE", "SINCE", "SPECIES", "STREAK", "SUBJECT", "THREW", "TOGETHER", "TOOK_CAR", "WISH", "says_new"]
# whose value a clause says: someone else's (a third-person pronoun before the word) or the
# speaker's (a first-person one)
OTHER_PRONOUNS = _listed("""он она они его её ее ему ей им него неё нее них he she they his her
    their him them on ona oni jego jej ich mu""")
FIRST_PERSON = _listed("""я мы мне меня нам нас мой моя моё мое мои наш наша i we me my our us ja
    mnie mój moja moje nasz""")

SPEAKER = _listed("я мы i we ja")  # the speaker as a clause's subject
# a place after these is a street or where one came from, not the city one lives in
NOT_WHERE_ONE_LIVES = _listed("на из от с со from on off with z ze od")  # "живём с Артёмом": with whom
# the makes a phone, tablet or laptop is named by ("взяла Pixel 8", "купил Samsung Galaxy"):
# what one buys or takes so is one's device, said with the old one or not
DEVICE_MAKES = _listed("""iphone pixel samsung galaxy xiaomi redmi poco honor huawei oneplus nokia
    motorola realme oppo vivo macbook ipad thinkpad айфон пиксель самсунг сяоми хонор хуавей
    макбук айпад""")
# a make as Russian speakers spell it: "утопила айфон" ends the held "iPhone 11"
MAKE_SPELLINGS = {"айфон": "iphone", "пиксель": "pixel", "самсунг": "samsung", "сяоми": "xiaomi",
                  "хонор": "honor", "хуавей": "huawei", "макбук": "macbook", "айпад": "ipad"}
# the makes and models a car is named by, as people type them (in either alphabet, small or
# capitalised): named as one's own ("моя Киа Рио", "гранта моя", "on my Civic") or taken ("взяла
# Шкоду Фабию", "забрала из салона Haval Jolion") it is the person's vehicle; world knowledge,
# like the device makes, not phrases of the months
CAR_NAMES = _listed("""kia rio sportage cerato lada granta vesta largus niva priora
    renault logan sandero duster kaptur arkana skoda škoda octavia fabia kodiaq karoq
    haval jolion hyundai solaris creta elantra tucson toyota camry corolla rav4 yaris prius
    volkswagen vw passat tiguan jetta ford fiesta mondeo nissan almera qashqai
    x-trail mazda honda civic mitsubishi lancer outlander chery tiggo geely coolray
    chevrolet opel astra corsa peugeot citroen volvo subaru suzuki lexus tesla bmw audi mercedes
    dacia fiat uaz
    киа кия рио спортейдж церато лада гранта веста ларгус нива приора рено логан сандеро
    дастер каптюр аркана шкода октавия фабия рапид суперб кодиак хавейл хавал джолион хендай
    хёндай хундай солярис крета элантра туссан тойота камри королла рав4 ярис фольксваген пассат тигуан джетта форд ниссан альмера кашкай мазда хонда цивик митсубиси
    мицубиси лансер аутлендер чери тигго джили шевроле опель пежо ситроен вольво субару сузуки
    лексус тесла бмв ауди мерседес уаз""")
# what a car is got by: bought, taken, collected from the showroom
TOOK_CAR = re.compile(r"\b(?:купил\w*|взял\w*|забрал\w*|пригнал\w*|bought|got|picked\s+up|"
                      r"kupił\w*|wziął\w*|wzięła\w*|odebrał\w*)\b", re.I)
# one's own: "моя Киа", "Рио моя", "на своей октавии", "my Civic", "mój Golf"
OWN_CAR = _listed("""мой моя мою моей моём моего моем свой своя свою своей своём своего своем my
    mój moja moją moim mojej swój swoja swoją swoim swojej""")
# a thing exchanged for another: "поменял", "пересел на", "купил", "switched", "zmieniłem"
SWAP = _listed("""поменять сменить пересесть купить switch switched replaced swapped bought
    zmienić zmieniłem zmieniłam kupiłem kupiłam przesiadłem przesiadłam""")
