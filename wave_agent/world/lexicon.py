"""Which everyday nouns name a pet, a device, a vehicle, an illness, a hobby or a thing a
person owns; which name an organisation or a project when a quoted name follows them. Lemmas
(Russian: pymorphy3 normal forms, ``ё`` as ``е``; English and Polish: the forms people write).

A table, not a model: these are closed, everyday classes, and a noun outside them is not
guessed at (a missed pet costs less than every object of "купила" becoming an entity).
"""

from __future__ import annotations

from graph.models import EntityType

_RU = {
    EntityType.PET: """кот кошка котик котенок кошечка пес собака собачка щенок попугай хомяк
        хомячок черепаха кролик морская_свинка шиншилла рыбка хорек крыса ящерица лошадь""",
    EntityType.DEVICE: """телефон смартфон айфон ноутбук планшет компьютер макбук ipad iphone
        часы смарт-часы наушники приставка плойка телевизор фотоаппарат камера принтер
        электронная_книга роутер колонка""",
    EntityType.VEHICLE: """машина автомобиль авто велосипед мотоцикл самокат электросамокат
        лодка скутер внедорожник седан""",
    EntityType.ILLNESS: """диабет астма гипертония мигрень аллергия гастрит артрит артроз
        остеохондроз бронхит ангина грипп простуда ковид депрессия бессонница сколиоз
        варикоз тонзиллит пневмония экзема псориаз""",
    EntityType.HOBBY: """йога бег плавание танец танцы рыбалка шахматы теннис футбол волейбол
        баскетбол хоккей фотография рисование вязание пение гитара фортепиано пианино
        скалолазание альпинизм бокс карате дзюдо лыжи сноуборд велоспорт фитнес пилатес
        вышивка садоводство керамика кулинария туризм бадминтон плавать""",
    EntityType.THING: """дача квартира дом гараж участок""",
}
_EN = {
    EntityType.PET: "cat kitten dog puppy parrot hamster turtle rabbit guinea_pig fish horse",
    EntityType.DEVICE: """phone smartphone iphone laptop tablet computer macbook ipad watch
        smartwatch headphones console tv camera printer kindle""",
    EntityType.VEHICLE: "car bike bicycle motorbike motorcycle scooter boat van truck",
    EntityType.ILLNESS: """diabetes asthma hypertension migraine migraines allergy arthritis
        depression insomnia flu covid bronchitis eczema""",
    EntityType.HOBBY: """yoga running swimming dancing fishing chess tennis football soccer
        volleyball basketball hockey cricket rugby golf photography painting drawing knitting singing guitar
        piano climbing boxing karate skiing cycling pilates gardening pottery cooking hiking""",
    EntityType.THING: "house flat apartment cottage garage",
}
_PL = {
    EntityType.PET: """kot kota kotka psa pies piesek psem kotem papuga chomik żółw królik
        rybki""",
    EntityType.DEVICE: "telefon laptop laptopa tablet komputer telefonu zegarek",
    EntityType.VEHICLE: "samochód samochodu auto rower roweru motocykl hulajnoga",
    EntityType.ILLNESS: "cukrzyca cukrzycę astma astmę migrena migreny alergia alergię nadciśnienie",
    EntityType.HOBBY: """joga jogę bieganie pływanie taniec tańce szachy tenis piłka wędkarstwo
        fotografia gitara gitarze pianinie wspinaczka jogi""",
    EntityType.THING: "dom domek działka działkę mieszkanie mieszkania",
}



def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of a table's text."""
    return frozenset(text.split())


KIND: dict[str, EntityType] = {}
for table in (_RU, _EN, _PL):
    for kind, listed in table.items():
        for word in listed.split():
            KIND.setdefault(word.replace("_", " ").replace("ё", "е"), kind)

# Nouns after which a quoted or capitalised name is an organisation ("компания «Ромашка»").
ORG_NOUNS = words("""компания фирма банк завод фабрика магазин клиника больница школа
    университет институт колледж академия агентство студия центр салон кафе ресторан
    организация корпорация холдинг предприятие офис театр музей библиотека лицей гимназия
    company firm bank school university college agency studio clinic hospital
    firma firmie firmy banku szkole szkoły uczelni uniwersytecie""")
# Nouns after which a quoted name is a group the person belongs to.
GROUP_NOUNS = words("""клуб хор команда секция группа кружок ансамбль сообщество
    оркестр партия club choir team band group klub klubie chór chórze drużyna drużynie""")
PROJECT_NOUNS = words("проект project projekt projekcie projektu стартап startup")
FRIEND_NOUNS = words("""друг подруга приятель приятельница дружище подружка friend
    przyjaciel przyjaciółka kolega koleżanka""")


def kind_of(lemma: str) -> EntityType | None:
    """The type of thing an everyday noun names, or None when it is not one we keep."""
    return KIND.get(lemma.lower().replace("ё", "е"))


__all__ = ["FRIEND_NOUNS", "GROUP_NOUNS", "KIND", "ORG_NOUNS", "PROJECT_NOUNS", "kind_of", "words"]
