"""The words the date reader (``policy.dates``) knows, in Russian, Polish and English.

Plain tables and regular-expression pieces, no logic: a new word form goes here, the rules that
combine them stay in ``dates.py``. Every pattern runs over normalised text (lower case, "ё" as
"е", one space between words).
"""

from __future__ import annotations

# Weekdays, Monday = 0. Polish endings are listed whole: "piąty" (fifth) and "czwarty" (fourth)
# must not read as Friday and Thursday.
WEEKDAYS: tuple[tuple[str, int], ...] = (
    (r"понедельник\w*", 0), (r"вторник\w*", 1), (r"сред[аеуы]", 2), (r"четверг\w*", 3),
    (r"пятниц\w*", 4), (r"суббот\w*", 5), (r"воскресень\w*", 6),
    # the diminutives of chat ("в пятничку", "в средочку")
    (r"пятничк\w*", 4), (r"средочк\w*", 2),
    # "в воскресение" (resurrection) is how Sunday is very often misspelt
    (r"воскресени[еяю]", 6),
    (r"poniedział\w*", 0), (r"wtor(?:ek|ku|kiem)", 1), (r"środ(?:a|ę|y|zie|ą)", 2),
    (r"czwart(?:ek|ku|kiem)", 3), (r"piąt(?:ek|ku|kiem)", 4), (r"sobot(?:a|ę|y|ą|cie)", 5),
    (r"niedziel(?:a|ę|i|ą)", 6),
    (r"mondays?", 0), (r"tuesdays?", 1), (r"wednesdays?", 2), (r"thursdays?", 3),
    (r"fridays?", 4), (r"saturdays?", 5), (r"sundays?", 6),
)

# Words before a weekday that choose which one: the next calendar week's, or this week's.
NEXT_MARK = r"(?:следующ\w*|след\.?|будущ\w*|przyszł\w*|następn\w*|next)"
THIS_MARK = r"(?:эт(?:у|от|а|ой)|ближайш\w*|najbliższ\w*|ten|tę|ta|this|this coming|coming)"

# Months, January = 1: the forms after a day number ("15 марта", "15 marca", "15 march") and the
# forms of "in March" ("в марте", "w marcu", "in march").
MONTH_AFTER_DAY: tuple[tuple[str, int], ...] = (
    (r"январ[яь]", 1), (r"феврал[яь]", 2), (r"марта?", 3), (r"апрел[яь]", 4), (r"ма[яй]", 5),
    (r"июн[яь]", 6), (r"июл[яь]", 7), (r"августа?", 8), (r"сентябр[яь]", 9),
    (r"октябр[яь]", 10), (r"ноябр[яь]", 11), (r"декабр[яь]", 12),
    # short forms after a day number ("3 дек", "15 янв.")
    (r"янв\.?", 1), (r"фев\.?", 2), (r"апр\.?", 4), (r"июн\.?", 6), (r"июл\.?", 7),
    (r"авг\.?", 8), (r"сент?\.?", 9), (r"окт\.?", 10), (r"нояб?\.?", 11), (r"дек\.?", 12),
    (r"stycznia", 1), (r"lutego", 2), (r"marca", 3), (r"kwietnia", 4), (r"maja", 5),
    (r"czerwca", 6), (r"lipca", 7), (r"sierpnia", 8), (r"września", 9),
    (r"października", 10), (r"listopada", 11), (r"grudnia", 12),
    (r"jan(?:uary)?", 1), (r"feb(?:ruary)?", 2), (r"mar(?:ch)?", 3), (r"apr(?:il)?", 4),
    (r"may", 5), (r"june?", 6), (r"july?", 7), (r"aug(?:ust)?", 8), (r"sept?(?:ember)?", 9),
    (r"oct(?:ober)?", 10), (r"nov(?:ember)?", 11), (r"dec(?:ember)?", 12),
    # Polish short forms after a day number ("10 sty", "3 paź", "15 wrz."), with or without
    # diacritics ("sie" is "się" typed plain far more often than August)
    (r"sty\.?", 1), (r"lut\.?", 2), (r"kwi\.?", 4), (r"cze\.?", 6), (r"lip\.?", 7),
    (r"sierp\.?", 8), (r"wrz\.?", 9), (r"pa[źz]\.?", 10), (r"lis\.?", 11), (r"gru\.?", 12),
)
MONTH_ALONE: tuple[tuple[str, int], ...] = (
    (r"январ[еья]", 1), (r"феврал[еья]", 2), (r"март[еау]?", 3), (r"апрел[еья]", 4),
    (r"ма[ейя]", 5), (r"июн[еья]", 6), (r"июл[еья]", 7), (r"август[еау]?", 8),
    (r"сентябр[еья]", 9), (r"октябр[еья]", 10), (r"ноябр[еья]", 11), (r"декабр[еья]", 12),
    (r"styczni[ua]", 1), (r"lut(?:ym|ego)", 2), (r"mar(?:cu|ca)", 3), (r"kwietni[ua]", 4),
    (r"maj[ua]?", 5), (r"czerwc[ua]", 6), (r"lipc[ua]", 7), (r"sierpni[ua]", 8),
    (r"wrześni[ua]", 9), (r"październik[ua]", 10), (r"listopad(?:zie|a)", 11),
    (r"grudni[ua]", 12),
    (r"january", 1), (r"february", 2), (r"march", 3), (r"april", 4), (r"may", 5), (r"june", 6),
    (r"july", 7), (r"august", 8), (r"september", 9), (r"october", 10), (r"november", 11),
    (r"december", 12),
)
MONTH_IN = r"(?:в|во|к|до|в начале|w|do|na początku|in|by|early|in early)"

# Day-of-month ordinals written as words (genitive/dative in Russian, genitive in Polish).
RU_ORDINAL_STEMS: tuple[tuple[str, int], ...] = (
    ("перв", 1), ("втор", 2), ("трет", 3), ("четверт", 4), ("пят", 5), ("шест", 6),
    ("седьм", 7), ("восьм", 8), ("девят", 9), ("десят", 10), ("одиннадцат", 11),
    ("двенадцат", 12), ("тринадцат", 13), ("четырнадцат", 14), ("пятнадцат", 15),
    ("шестнадцат", 16), ("семнадцат", 17), ("восемнадцат", 18), ("девятнадцат", 19),
    ("двадцат", 20), ("тридцат", 30),
)
PL_ORDINALS: tuple[tuple[str, int], ...] = (
    ("pierwszego", 1), ("drugiego", 2), ("trzeciego", 3), ("czwartego", 4), ("piątego", 5),
    ("szóstego", 6), ("siódmego", 7), ("ósmego", 8), ("dziewiątego", 9), ("dziesiątego", 10),
    ("jedenastego", 11), ("dwunastego", 12), ("trzynastego", 13), ("czternastego", 14),
    ("piętnastego", 15), ("szesnastego", 16), ("siedemnastego", 17), ("osiemnastego", 18),
    ("dziewiętnastego", 19), ("dwudziestego", 20), ("trzydziestego", 30),
)
EN_ORDINALS: tuple[tuple[str, int], ...] = (
    ("first", 1), ("second", 2), ("third", 3), ("fourth", 4), ("fifth", 5), ("sixth", 6),
    ("seventh", 7), ("eighth", 8), ("ninth", 9), ("tenth", 10), ("eleventh", 11),
    ("twelfth", 12), ("thirteenth", 13), ("fourteenth", 14), ("fifteenth", 15),
    ("sixteenth", 16), ("seventeenth", 17), ("eighteenth", 18), ("nineteenth", 19),
    ("twentieth", 20), ("thirtieth", 30),
)

# Cardinal numbers for "через две недели", "za dwa tygodnie", "in two weeks", "в десять".
NUMBERS: dict[str, float] = {
    "один": 1, "одну": 1, "одна": 1, "одного": 1, "два": 2, "две": 2, "двух": 2, "пару": 2,
    "пара": 2, "три": 3, "трех": 3, "четыре": 4, "четырех": 4, "пять": 5, "шесть": 6,
    "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11, "двенадцать": 12,
    "пятнадцать": 15, "двадцать": 20, "тридцать": 30, "сорок": 40, "полтора": 1.5,
    "полторы": 1.5,
    "jeden": 1, "jedną": 1, "jedna": 1, "jednego": 1, "dwa": 2, "dwie": 2, "dwóch": 2,
    "parę": 2, "trzy": 3, "trzech": 3, "cztery": 4, "czterech": 4, "pięć": 5, "sześć": 6,
    "siedem": 7, "osiem": 8, "dziewięć": 9, "dziesięć": 10, "jedenaście": 11,
    "dwanaście": 12, "piętnaście": 15, "dwadzieścia": 20, "trzydzieści": 30,
    "czterdzieści": 40, "półtora": 1.5, "półtorej": 1.5,
    "one": 1, "a": 1, "an": 1, "two": 2, "couple": 2, "a couple of": 2, "three": 3,
    "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
}
# Compound numbers ("двадцать пять", "dwadzieścia pięć", "twenty-five"): a ten and a unit of
# the same language.
_COMPOUNDS = (
    (("двадцать", 20), ("тридцать", 30), ("сорок", 40), ("пятьдесят", 50)),
    (("один", 1), ("одну", 1), ("два", 2), ("две", 2), ("три", 3), ("четыре", 4),
     ("пять", 5), ("шесть", 6), ("семь", 7), ("восемь", 8), ("девять", 9)),
    (("dwadzieścia", 20), ("trzydzieści", 30), ("czterdzieści", 40), ("pięćdziesiąt", 50)),
    (("jeden", 1), ("jedną", 1), ("dwa", 2), ("dwie", 2), ("trzy", 3), ("cztery", 4),
     ("pięć", 5), ("sześć", 6), ("siedem", 7), ("osiem", 8), ("dziewięć", 9)),
    (("twenty", 20), ("thirty", 30), ("forty", 40), ("fifty", 50)),
    (("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6),
     ("seven", 7), ("eight", 8), ("nine", 9)),
)
NUMBERS.update({"пятьдесят": 50, "pięćdziesiąt": 50, "fifty": 50})
for _tens, _units in zip(_COMPOUNDS[::2], _COMPOUNDS[1::2], strict=True):
    for _ten, _t in _tens:
        for _unit, _u in _units:
            NUMBERS[f"{_ten} {_unit}"] = _t + _u
            if _ten.isascii():
                NUMBERS[f"{_ten}-{_unit}"] = _t + _u

# Hours said as words after "в"/"o"/"at" ("в десять", "o dziesiątej", "at ten").
HOUR_WORDS: dict[str, int] = {
    "час": 1, "два": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7,
    "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11, "двенадцать": 12,
    "pierwszej": 1, "drugiej": 2, "trzeciej": 3, "czwartej": 4, "piątej": 5, "szóstej": 6,
    "siódmej": 7, "ósmej": 8, "dziewiątej": 9, "dziesiątej": 10, "jedenastej": 11,
    "dwunastej": 12, "trzynastej": 13, "czternastej": 14, "piętnastej": 15,
    "szesnastej": 16, "siedemnastej": 17, "osiemnastej": 18, "dziewiętnastej": 19,
    "dwudziestej": 20,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15, "шестнадцать": 16,
    "семнадцать": 17, "восемнадцать": 18, "девятнадцать": 19, "двадцать": 20,
    "двадцать один": 21, "двадцать два": 22, "двадцать три": 23,
    "dwudziestej pierwszej": 21, "dwudziestej drugiej": 22, "dwudziestej trzeciej": 23,
}
# What a number said before is counting, not the clock ("в семь человек", "o dwa razy"): a
# number followed by one of these is not an hour.
NOT_AN_HOUR_AFTER = (r"(?! (?:лет|года?|раз\w*|человек\w*|штук\w*|рубл\w*|евро|долл\w*|"
                     r"процент\w*|минут\w*|дн\w*|недел\w*|месяц\w*|osób|lat|razy|złotych|"
                     r"minut\w*|godzin\w*|dni|tygodni\w*|miesi\w*|osob\w*|"
                     r"people|times|years|minutes|mins?|hours?|hrs?|days|weeks|percent))")

# a number before a quoted letter names a school class or a flat, not an hour: "в 5 "б"",
# "w 3 „a"", "in 4 'b'"
NOT_AN_HOUR_CLASS = r"(?! ?[\"'«„“][а-яa-z][\"'»”“](?!\w))"

# Hours as the "next" hour of a half or a quarter ("полвосьмого" = 7:30, "без четверти восемь"
# = 7:45, "wpół do ósmej" = 7:30, "half past seven" = 7:30) and hours after "к"/"до" ("к восьми").
RU_HOUR_GENITIVE: dict[str, int] = {
    "первого": 1, "второго": 2, "третьего": 3, "четвертого": 4, "пятого": 5, "шестого": 6,
    "седьмого": 7, "восьмого": 8, "девятого": 9, "десятого": 10, "одиннадцатого": 11,
    "двенадцатого": 12,
}
RU_HOUR_DATIVE: dict[str, int] = {
    "часу": 1, "двум": 2, "двух": 2, "трем": 3, "трех": 3, "четырем": 4, "четырех": 4,
    "пяти": 5, "шести": 6, "семи": 7, "восьми": 8, "девяти": 9, "десяти": 10,
    "одиннадцати": 11, "двенадцати": 12,
}
# Weekday abbreviations ("в пн", "we wt.", "on Fri"), each language after its own prepositions
# (English "we sat" is not the Polish "we" before a day).
WEEKDAY_SHORT_RU: tuple[tuple[str, int], ...] = (
    (r"пн", 0), (r"вт", 1), (r"ср", 2), (r"чт", 3), (r"пт", 4), (r"сб", 5), (r"вс", 6),
    # three-letter forms people type too ("в чтв", "до птн")
    (r"пнд", 0), (r"втр", 1), (r"срд", 2), (r"чтв", 3), (r"птн", 4), (r"суб", 5), (r"вск", 6),
    # cut short where the typing stopped ("в пятн", "в понед", "в воскр")
    (r"понед", 0), (r"вторн", 1), (r"четв", 3), (r"пятн", 4), (r"субб", 5), (r"воскр", 6),
)
WEEKDAY_SHORT_PL: tuple[tuple[str, int], ...] = (
    (r"pon\.?", 0), (r"wt\.?", 1), (r"[śs]r\.?", 2), (r"czw\.?", 3), (r"pt\.?", 4),
    (r"sob\.?", 5), (r"niedz\.?|ndz\.?|nd\.?", 6),
)
WEEKDAY_SHORT_EN: tuple[tuple[str, int], ...] = (
    (r"mon\.?", 0), (r"tue\.?", 1), (r"tues\.?", 1), (r"wed\.?", 2), (r"weds\.?", 2),
    (r"thu\.?", 3),
    (r"thurs\.?", 3), (r"fri\.?", 4), (r"sat\.?", 5), (r"sun\.?", 6),
)
WEEKDAY_SHORT = WEEKDAY_SHORT_RU + WEEKDAY_SHORT_PL + WEEKDAY_SHORT_EN

# Units of "через N ...": (pattern, unit). Hours and minutes are exact; days, weeks, months
# and years count calendar days from the day the message was written.
UNITS: tuple[tuple[str, str], ...] = (
    (r"минут\w*|minut\w*|minutes?|mins?", "minute"),
    (r"час(?:а|ов)?|godzin\w*|hours?|hrs?", "hour"),
    (r"дн(?:я|ей)|день|dni|dzień|days?", "day"),
    (r"недел[юиь]|tydzień|tygodni\w*|weeks?|wks?", "week"),
    (r"месяц\w*|miesiąc\w*|miesięcy|months?", "month"),
    (r"год(?:а)?|лет|rok|lata|lat|years?", "year"),
)
RELATIVE_LEAD = r"(?:через|спустя|za|in)"

# Parts of the day (the hour a careful person means) and the markers after a number.
PARTS_OF_DAY: tuple[tuple[str, int], ...] = (
    (r"с утра|утром|поутру|к утру|утречком|с утреца|z samego rana|z rana|rano|rankiem|this morning|in the morning|morning|"
     r"first thing", 9),
    (r"в первой половине дня|w pierwszej połowie dnia|in the first half of the day", 9),
    (r"в обед|к обеду|до обеда|перед обедом|не позже обеда|не позднее обеда|в обеденный перерыв|w porze obiadu|przed obiadem|"
     r"do obiadu|w przerwie (?:obiadowej|na lunch)|(?:on|during) (?:my |the )?lunch break|"
     r"at lunch(?:time)?|lunchtime|(?:by|before) lunch(?:time)?", 13),
    (r"в полдень|до полудня|w południe|przed południem|do południa|at noon|(?:by |before )?noon|midday",
     12),
    (r"после обеда|днем|днём|во второй половине дня|po południu|popołudniu|po obiedzie|"
     r"w drugiej połowie dnia|in the second half of the day|this afternoon|in the afternoon|afternoon|"
     r"(?:this |tomorrow |in the )?arvo", 14),
    # the end of the (working) day is its evening: "к концу дня", "do końca dnia", "by EOD"
    (r"(?:к|до|в) конц[уае] (?:рабочего )?дня|(?:do|pod|na) ko(?:ńca|niec|ńcu) dnia(?: pracy)?|"
     r"(?:by |before |at )?(?:the )?end of (?:the )?(?:working |business |work )?day|"
     r"(?:by )?eod|(?:by |before |at )?(?:the )?close of business|(?<!the )(?:by )?cob|"
     r"после работы|po pracy|after work|"
     r"вечером|к вечеру|до вечера|вечерком|wieczorem|wieczorkiem|do wieczora|wieczór|"
     r"this evening|in the evening|evening|tonight|night", 19),
)
AM_MARK = r"(?:утра|rano|am|a\.m\.|in the morning)"
PM_MARK = r"(?:дня|вечера|po południu|wieczorem|pm|p\.m\.|in the afternoon|in the evening)"
NIGHT_MARK = r"(?:ночи|w nocy|at night)"

# Words that say "some day" without naming one: a careful human would ask which.
VAGUE = (
    r"на днях|скоро|вскоре|в ближайшее время|в ближайшие дни|"
    r"на неделе|на этой неделе|в начале (?:этой )?недели|na początku (?:tego )?tygodnia|"
    r"(?:at )?the (?:start|beginning) of (?:the|this) week|"
    r"в начале (?:этого |текущего )?месяца|na początku (?:tego |bieżącego )?miesiąca|"
    r"(?:at )?the (?:start|beginning) of (?:the|this) month|в течение (?:недели|месяца|дня)|через несколько|"
    r"через пару-тройку|через день|на неделю|"
    # the first days of a month: "в первых числах (января)", "w pierwszych dniach miesiąca"
    r"в первых числах|в последних числах|w pierwszych dniach|w ostatnich dniach|"
    r"(?:in )?the first (?:few )?days of|"
    r"wkrótce|niedługo|w najbliższym czasie|w najbliższych dniach|w tym tygodniu|"
    r"za kilka|w ciągu (?:tygodnia|miesiąca)|"
    r"soon|one of these days|in the coming days|in a few|this week|"
    r"within a week|within a month|in a day or two|a few days|in the next (?:few|couple of) "
    r"(?:days|weeks)|"
    r"(?:the )?week after next|"
    # a season, this month, next year, the middle of a week: a span, not a day
    r"(?:этой |этим |следующей |следующим )?(?:осенью|летом|зимой|весной)|"
    r"в этом месяце|в (?:этом|следующем|будущем) году|в середине (?:этой |следующей )?недели|"
    r"(?:tej |tego |następnej |przyszłej |przyszłego )?(?:jesienią|latem|zimą|wiosną)|"
    r"w tym miesiącu|w (?:tym|przyszłym|następnym) roku|w połowie tygodnia|"
    r"(?:in the |this |next )(?:summer|autumn|fall|winter|spring)|this month|"
    r"(?:this|next) year|mid-?week|"
    # a week of a month: "на первой неделе января", "w pierwszym tygodniu stycznia"
    r"на (?:первой|второй|третьей|последней) неделе|"
    r"w (?:pierwszym|drugim|trzecim|ostatnim) tygodniu|"
    r"(?:the )?(?:first|second|third|last) week of"
)

# "через пару дней", "za parę godzin", "in a couple of days": about two, not two; asked.
ABOUT_TWO = frozenset({"пару", "пара", "parę", "couple", "a couple of", "couple of"})

# A move by a span ("сдвинули на неделю", "przesunęli o tydzień", "pushed back a week"): the day
# named beside it is the old one, and the due day is that day moved.
SHIFT_RU = r"(?:сдвину|перенес|перенос|отлож|передвину|подвину)\w*"
SHIFT_PL = r"(?:przesun|przesuwa|przełoż|przeloz|przekłada|przeklada|odłoż|odloz)\w*"
SHIFT_EN = r"(?:push|move|postpone|delay|bump|put off|pushed|moved|postponed|delayed|bumped)\w*"
SHIFT_UNIT = (r"день|дня|дней|сутки|недел[юиь]|месяц(?:а|ев)?|"
              r"dzień|dni|tydzień|tygodnie|tygodni|miesiąc|miesiące|miesięcy|"
              r"days?|weeks?|months?")

# Holidays: a day or the days around it ("на майских", "на Новый год": the eve or the first?);
# a careful human asks. A date said with its number ("8 марта", "31 декабря") is read as usual.
HOLIDAYS = (
    r"в сочельник|(?:на|в|к|до|после|перед) (?:майски\w+|новогодни\w+|праздник\w*|новый год|нового года|"
    r"новому году|новом году|рождеств\w+|пасх\w+)|майские праздники|"
    r"(?:na|w|przed|po|do) (?:święta\w*|świętach|boże narodzenie|bożego narodzenia|wielkanoc\w*|"
    r"sylwestr\w*|majówk\w+|nowy rok|nowego roku)|"
    r"(?:под|около) (?:новый год|нового года|рождество)|"
    r"(?:at|for|by|before|after|over|on|around) (?:(?:christmas|xmas)(?! eve| day)|easter|thanksgiving|"
    r"the holidays|new year(?!'?s? (?:eve|day)))"
)

# Holidays that are one day in every country the reader serves: (pattern, month, day).
NAMED_DAYS: tuple[tuple[str, int, int], ...] = (
    (r"(?:christmas|xmas) eve|w wigili[ęi]|na wigili[ęi]", 12, 24),
    (r"(?:christmas|xmas) day", 12, 25), (r"boxing day", 12, 26),
    (r"new year'?s? eve|nye|w sylwestra|na sylwestra", 12, 31),
    (r"new year'?s? day", 1, 1),
    (r"valentine'?s? day|в день святого валентина|w walentynki", 2, 14),
    (r"halloween", 10, 31),
)

# "завтра" written before this hour may mean the day that has already begun: asked.
NIGHT_ENDS = 5

# Minutes said as words after an hour word ("в семь тридцать", "o siódmej piętnaście",
# "at six thirty").
MINUTE_WORDS: dict[str, int] = {
    "пять": 5, "двадцать пять": 25, "pięć": 5, "dwadzieścia pięć": 25, "five": 5,
    "twenty-five": 25, "twenty five": 25,
    "десять": 10, "пятнадцать": 15, "двадцать": 20, "тридцать": 30, "сорок": 40,
    "сорок пять": 45, "пятьдесят": 50,
    "dziesięć": 10, "piętnaście": 15, "dwadzieścia": 20, "trzydzieści": 30,
    "czterdzieści": 40, "czterdzieści pięć": 45, "pięćdziesiąt": 50,
    "ten": 10, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45,
    "forty five": 45, "fifty": 50, "o five": 5,
}
# "без пяти восемь" (7:55): the minutes before the hour, in the genitive.
RU_MINUTES_BEFORE: dict[str, int] = {
    "пяти": 5, "десяти": 10, "пятнадцати": 15, "четверти": 15, "двадцати": 20,
    "двадцати пяти": 25,
}
