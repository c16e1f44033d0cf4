"""Measured pairs for the write path thresholds (RU/EN): paraphrases, non-paraphrases,
contradictions and number changes. Figures: docs/benchmarks.md, "write path"."""

PARA = [
 ("I prefer tea over coffee in the morning", "In the mornings I'd rather drink tea than coffee"),
 ("My sister Anna lives in Berlin", "Anna, my sister, is living in Berlin"),
 ("I work as a backend developer at Yandex", "I'm a backend engineer working for Yandex"),
 ("Igor always pays in advance", "Igor pays upfront every time"),
 ("I don't eat meat", "I do not eat any meat"),
 ("We decided to use Postgres for the billing service", "The billing service will use Postgres, we decided"),
 ("Игорь платит по предоплате", "С Игорем работаем по предоплате"),
 ("Я живу в Москве", "Живу в Москве"),
 ("Моя сестра Анна живёт в Берлине", "Анна, моя сестра, живет в Берлине"),
 ("Я предпочитаю чай кофе по утрам", "По утрам я пью чай, а не кофе"),
 ("Я работаю бэкенд-разработчиком в Яндексе", "Работаю в Яндексе бэкенд-разработчиком"),
 ("Мы решили использовать Postgres для биллинга", "Для биллинга решили взять Postgres"),
 ("Пилот стоит 150 тысяч", "Пилот стоит 150 тысяч рублей"),
 ("Я не ем мясо", "Мясо я не ем"),
 # the same price written otherwise is the same statement
 ("Пилотный проект стоит 150 тысяч рублей", "Пилотный проект стоит 150 000 рублей"),
]
NON = [
 ("I prefer tea over coffee in the morning", "I drink coffee after lunch"),
 ("My sister Anna lives in Berlin", "My brother Oleg lives in Paris"),
 ("I work as a backend developer at Yandex", "My wife works as a designer"),
 ("Igor always pays in advance", "Igor is my business partner"),
 ("Igor's birthday is on 5 May", "Anna's birthday is on 5 May"),
 ("We decided to use Postgres for the billing service", "The billing service is slow on Mondays"),
 ("Игорь платит по предоплате", "Игорь мой партнёр по бизнесу"),
 ("Я живу в Москве", "Я работаю в Петербурге"),
 ("Моя сестра Анна живёт в Берлине", "Мой брат Олег живёт в Париже"),
 ("Я предпочитаю чай кофе по утрам", "После обеда я пью кофе"),
 ("Я работаю бэкенд-разработчиком в Яндексе", "Моя жена работает дизайнером"),
 ("Мы решили использовать Postgres для биллинга", "Биллинг тормозит по понедельникам"),
 ("Пилот стоит 150 тысяч", "Внедрение стоит 2 миллиона"),
 ("У Игоря день рождения 5 мая", "У Анны день рождения 5 мая"),
 ("I go to the gym on Mondays", "I go to the pool on Mondays"),
 ("Я хожу в спортзал по понедельникам", "Я хожу в бассейн по понедельникам"),
]
OPPOSITE = [
 ("I eat meat", "I don't eat meat"),
 ("I drink coffee in the morning", "I never drink coffee in the morning"),
 ("Igor pays in advance", "Igor no longer pays in advance"),
 ("Я пью кофе по утрам", "Я не пью кофе по утрам"),
 ("Игорь платит по предоплате", "Игорь больше не платит по предоплате"),
 ("Я люблю джаз", "Я не люблю джаз"),
]
NUMBER_CHANGE = [
 ("Пилот стоит 150 тысяч", "Пилот теперь стоит 200 тысяч"),
 ("The pilot costs 150 thousand", "The pilot now costs 200 thousand"),
 ("Аренда офиса 80 000 рублей в месяц", "Аренда офиса теперь 95 000 рублей в месяц"),
 ("I run 5 km every morning", "I run 10 km every morning"),
 # a lead-in before the colon, scale words, Polish
 ("Пилотный проект стоит 150 тысяч рублей", "Цена изменилась: пилотный проект теперь стоит 200 тысяч рублей"),
 ("Пилотный проект стоит 150 тыс. руб.", "Пилотный проект стоит 200 000 рублей"),
 ("Czynsz za mieszkanie wynosi 3000 zł", "Czynsz za mieszkanie wynosi teraz 3500 zł"),
]
SWAPPED = [
 ("Igor likes Berlin in spring", "Igor moved to Berlin in spring"),
 ("the pilot likes Berlin in spring", "the pilot visited Berlin in spring"),
 ("the billing service likes Berlin in spring", "the billing service talked about Berlin in spring"),
 ("my sister likes Berlin in spring", "my sister bought Berlin in spring"),
]
# From LoCoMo conv-26: similar enough to merge or to contradict before the "says more" rule.
SAYS_MORE = [
 ("Caroline: The support group has made me feel accepted and given me courage to embrace myself.",
  "Caroline: I'm so lucky to have such a great support system around me. Their love and "
  "encouragement has really helped me embrace myself."),
]
LOOSE_NEGATION = [
 ("Melanie: Wow, Caroline! They must have felt so appreciated. It's awesome to see the "
  "difference we can make.",
  "Melanie: Wow, Caroline, that's awesome! Can't wait to see your show - the LGBTQ community "
  "needs more people like you."),
]
