"""The standard board as small data: projection, frame, country groups, seeds and fixes.

Every place is (longitude, latitude) in degrees. A seed is either one place or a polyline of places
(densified before the Voronoi split, so a border runs halfway between two seed lines). Comments name
the places where that helps a reader check them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Place = tuple[float, float]
Seed = Place | tuple[Place, ...]

PROJECTION = "+proj=lcc +lat_1=38 +lat_2=62 +lat_0=50 +lon_0=13 +datum=WGS84 +units=m"
UNIT_M = 250
# The frame in projected metres: x_min, y_min, x_max, y_max (5,400 km x 4,350 km). Its top runs north of
# the North Cape so that the Norwegian and Barents Seas meet inside it.
FRAME_M = (-2_300_000.0, -1_800_000.0, 3_100_000.0, 2_550_000.0)
# Only this lon/lat box is projected (it holds the whole frame); it also cuts Russia's antimeridian parts.
LONLAT_BOX = (-40.0, 22.0, 80.0, 80.0)
# Land pieces smaller than this (km²) become water: skerries and islets would only add clutter and stray pairs.
MIN_ISLAND_KM2 = 150.0
# Water pieces cut off from the ocean and smaller than this (km²) become part of the land around them.
MIN_LAKE_KM2 = 3_000.0


@dataclass(frozen=True)
class Group:
    """Countries whose land is split among ``seeds``' regions by Voronoi cells (one region: assigned whole)."""

    countries: tuple[str, ...]
    seeds: dict[str, tuple[Seed, ...]] = field(default_factory=dict)


def whole(region: str, *countries: str) -> Group:
    """A group assigned whole to one region (no Voronoi split): its real borders stay exact."""
    return Group(countries, {region: ()})


GROUPS: tuple[Group, ...] = (
    whole("POR", "Portugal"),
    whole("SPA", "Spain", "Andorra"),
    whole("BEL", "Belgium", "Luxembourg"),
    whole("HOL", "Netherlands"),
    whole("SWI", "Switzerland", "Liechtenstein"),
    whole("DEN", "Denmark"),
    whole("NWY", "Norway"),
    whole("SWE", "Sweden"),
    whole("FIN", "Finland"),
    whole("TUN", "Tunisia"),
    whole("NAF", "Morocco", "Algeria", "W. Sahara"),
    whole("BUD", "Hungary"),
    whole("RUM", "Romania", "Moldova"),
    whole("BUL", "Bulgaria"),
    whole("ALB", "Albania"),
    whole("SER", "Serbia", "Kosovo", "Macedonia"),
    whole("TRI", "Slovenia", "Croatia", "Bosnia and Herz.", "Montenegro"),
    whole("BOH", "Czechia"),
    whole("SYR", "Syria", "Lebanon"),
    whole("ireland", "Ireland"),
    whole("iceland", "Iceland"),
    whole("greenland", "Greenland"),
    whole("faroes", "Faeroe Is."),
    whole("isle-of-man", "Isle of Man"),
    whole("cyprus", "Cyprus", "N. Cyprus"),
    whole("malta", "Malta"),
    whole("sahara", "Libya", "Egypt", "Mali", "Niger", "Mauritania", "Chad", "Sudan"),
    whole("levant", "Israel", "Palestine", "Jordan", "Iraq", "Saudi Arabia", "Kuwait", "Iran"),
    whole("central-asia", "Kazakhstan", "Uzbekistan", "Turkmenistan"),
    # The islands of these countries that are provinces' land are picked out by ISLANDS below.
    whole("channel-islands", "Guernsey", "Jersey"),
    whole("aland", "Åland"),
    Group(
        ("France", "Monaco"),
        {
            "BRE": ((-4.49, 48.39), (-2.76, 47.66), (-1.68, 48.11), (-1.6, 49.4)),  # Brest, Vannes, Rennes, Cotentin
            "PIC": ((1.1, 49.45), (2.3, 49.9), (1.86, 50.95), (3.06, 50.63)),  # Rouen, Amiens, Calais, Lille
            "PAR": ((2.35, 48.85), (1.9, 47.9), (0.2, 48.0), (3.1, 47.6)),  # Paris, Orléans, Le Mans, Auxerre
            "BUR": ((5.04, 47.32), (7.75, 48.58), (6.18, 48.69), (4.03, 49.26), (4.83, 46.2)),  # Dijon, Strasbourg...
            "GAS": ((-0.58, 44.84), (1.44, 43.6), (-1.55, 47.22), (0.34, 46.58), (2.3, 45.5)),  # Bordeaux, Toulouse...
            "MAR": ((5.37, 43.3), (3.88, 43.61), (5.72, 45.19), (7.26, 43.7), (2.9, 42.7)),  # Marseille, Grenoble...
        },
    ),
    Group(
        ("Italy", "San Marino", "Vatican"),
        {
            "PIE": (
                (7.68, 45.07),
                (9.19, 45.46),
                (8.93, 44.41),
                (9.87, 46.17),
                (10.35, 46.55),
                (10.55, 46.75),
            ),  # Turin...Bormio, Malles
            "VEN": (
                (12.33, 45.44),
                (10.99, 45.44),
                (11.35, 46.5),
                (13.23, 46.06),
                (11.34, 44.49),
                (12.2, 44.2),
                (12.64, 43.73),
            ),  # ...Bologna, Cesena, Urbino
            "TRI": ((13.77, 45.65),),  # Trieste itself is in Italy
            "TUS": ((11.25, 43.77), (10.4, 43.72), (11.33, 43.1), (9.9, 44.15)),  # Florence, Pisa, Siena, La Spezia
            "ROM": ((12.5, 41.9), (12.4, 43.18), (13.1, 42.4)),  # Rome, north of Perugia, Rieti
            "APU": (
                (16.87, 41.12),
                (14.2, 42.46),
                (15.55, 41.46),
                (18.17, 40.35),
                (13.5, 43.6),
                (17.2, 40.47),
                (16.6, 40.67),
            ),
            "NAP": ((14.27, 40.85), (16.25, 39.3), (15.65, 38.11), (13.36, 38.12)),  # Naples, Cosenza, Reggio, Palermo
        },
    ),
    Group(
        ("United Kingdom",),
        {
            "CLY": ((-4.6, 55.85), (-5.1, 56.8), (-5.16, 57.9), (-4.3, 58.4)),  # Greenock, Fort William, Ullapool
            "EDI": ((-3.19, 55.95), (-2.1, 57.15), (-3.3, 57.5), (-3.1, 58.6), (-3.85, 56.05)),  # Edinburgh...Stirling
            "LVP": ((-2.98, 53.41), (-2.93, 54.89), (-4.6, 55.0), (-2.6, 54.2)),  # Liverpool, Carlisle, Galloway
            "YOR": ((-1.08, 53.96), (-1.6, 54.97), (-1.55, 53.8), (-0.5, 53.5)),  # York, Newcastle, Leeds
            "WAL": ((-3.18, 51.48), (-4.08, 52.41), (-1.9, 52.48), (-4.1, 53.1)),  # Cardiff, Aberystwyth, Birmingham
            "LON": ((-0.13, 51.51), (-1.4, 50.9), (1.3, 52.63), (0.12, 52.2)),  # London, Southampton, Norwich
            "ireland": ((-5.93, 54.6),),  # Northern Ireland (Belfast)
        },
    ),
    Group(
        ("Germany",),
        {
            "KIE": ((10.13, 54.32), (10.0, 53.55), (8.8, 53.08), (9.73, 52.37), (7.2, 53.37), (9.6, 51.7)),
            "BER": ((13.4, 52.52), (12.1, 54.09), (11.63, 52.13), (14.3, 53.3)),  # Berlin, Rostock, Magdeburg
            "MUN": ((11.57, 48.14), (11.08, 49.45), (9.18, 48.78), (12.37, 51.34), (13.74, 51.05), (11.0, 50.9)),
            "RUH": ((7.0, 51.45), (6.95, 50.94), (7.0, 49.23), (8.27, 50.0), (7.6, 52.0)),  # Essen...Münster
        },
    ),
    Group(
        ("Poland",),
        {
            "PRU": ((18.65, 54.35), (16.18, 54.19), (14.55, 53.43), (20.48, 53.78), (18.0, 53.12)),
            "SIL": ((17.03, 51.1), (16.93, 52.41), (15.5, 51.94)),  # Wrocław, Poznań, Zielona Góra
            "WAR": ((21.0, 52.23), (19.46, 51.76), (22.57, 51.25), (23.16, 53.13)),  # Warsaw, Łódź, Lublin, Białystok
            "GAL": ((19.94, 50.06), (22.0, 50.04), (18.9, 50.3)),  # Kraków, Rzeszów, Katowice
        },
    ),
    Group(
        ("Slovakia",),
        {"GAL": ((21.26, 48.72), (18.74, 49.22)), "VIE": ((17.1, 48.15),)},  # Košice, Žilina / Bratislava
    ),
    Group(
        ("Austria",),
        {
            "TYR": ((11.4, 47.27), (13.05, 47.8), (14.29, 48.3), (14.3, 46.62)),  # Innsbruck, Salzburg, Linz...
            "VIE": ((16.37, 48.2), (15.44, 47.07), (15.9, 48.3)),  # Vienna, Graz, Krems
        },
    ),
    Group(
        ("Greece",),
        {
            "GRE": ((23.73, 37.98), (22.94, 40.64), (20.85, 39.66), (22.4, 39.6), (22.0, 37.5)),
            "BUL": ((25.87, 40.85), (25.4, 41.12)),  # Greek Thrace: Alexandroupolis, Komotini
        },
    ),
    Group(
        ("Turkey", "Georgia", "Armenia", "Azerbaijan"),
        {
            "CON": ((28.98, 41.01), (26.56, 41.68), (29.06, 40.19), (26.67, 40.2), (29.92, 40.77)),
            "ANK": ((32.86, 39.93), (36.33, 41.29), (34.9, 41.5), (33.5, 38.9)),  # Ankara, Samsun, Sinop
            "SMY": ((27.14, 38.42), (30.7, 36.9), (32.5, 37.87), (35.3, 37.0), (36.2, 36.6)),  # Izmir...Iskenderun
            "ARM": ((41.27, 39.9), (39.72, 41.0), (43.38, 38.5), (44.8, 41.7), (38.3, 38.35)),  # Erzurum...Malatya
        },
    ),
    Group(
        ("Russia", "Belarus", "Ukraine", "Lithuania", "Latvia", "Estonia"),
        {
            "PRU": ((20.5, 54.7),),  # Kaliningrad
            "LVN": ((24.1, 56.95), (25.28, 54.69), (23.9, 54.9), (24.75, 59.0), (27.5, 57.8)),  # Riga... Pskov
            "WAR": ((23.83, 53.68), (25.5, 53.0)),  # Grodno, Baranovichi
            "GAL": ((24.03, 49.84), (25.94, 48.29), (22.3, 48.6)),  # Lviv, Chernivtsi, Uzhhorod
            "UKR": ((30.5, 50.45), (36.23, 50.0), (27.6, 50.3), (32.0, 48.5), (27.5, 52.0)),  # Kiev, Kharkiv...
            "RUM": ((30.73, 46.48), (29.5, 45.6)),  # Odessa, Izmail: keeps Ukraine off the Black Sea
            "SEV": ((33.52, 44.6), (39.7, 47.23), (32.6, 46.64), (38.97, 45.04), (44.5, 48.7), (43.0, 44.0)),
            "MOS": ((37.6, 55.75), (30.3, 54.8), (27.56, 53.9), (44.0, 56.3), (50.0, 53.2), (40.0, 52.0)),
            "STP": ((30.3, 59.94), (33.1, 68.97), (40.5, 64.55), (34.35, 61.79), (50.0, 62.0), (28.0, 60.5)),
        },
    ),
)

# Islands and exclaves given to another region than their country's (or to water: None), picked by a lon/lat
# box holding the piece's representative point: (lon_min, lat_min, lon_max, lat_max, region).
ISLANDS: tuple[tuple[float, float, float, float, str | None], ...] = (
    (8.4, 41.3, 9.7, 43.1, "corsica"),
    (8.0, 38.8, 9.9, 41.3, "sardinia"),
    (1.0, 38.5, 4.6, 40.2, "balearics"),
    (23.4, 34.8, 26.4, 35.7, "crete"),
    (-5.5, 36.0, -5.2, 36.3, "SPA"),  # Gibraltar
    (-8.5, 53.8, -5.3, 55.5, "ireland"),  # Northern Ireland
    (-20.0, 26.0, -12.0, 30.0, None),  # the Canaries (outside the frame anyway)
    (19.0, 59.7, 21.2, 60.6, None),  # Åland: the Gulf of Bothnia's water
    (25.5, 35.5, 30.0, 39.5, "dodecanese"),  # the Greek islands off Turkey: not GRE–EAS
)

# Land added to close straits, as lon/lat polygons given to a region: the part over water becomes its land.
BRIDGES: tuple[tuple[str, tuple[Place, ...]], ...] = (
    # Øresund, Helsingør to Lomma: Denmark touches Sweden, the Kattegat (SKA) is cut off from the Baltic.
    ("DEN", ((12.45, 56.14), (12.8, 56.14), (13.05, 55.72), (12.62, 55.72))),
    # The Little Belt at Middelfart and the Great Belt at Nyborg–Korsør.
    ("DEN", ((9.62, 55.56), (10.05, 55.56), (10.05, 55.47), (9.62, 55.47))),
    ("DEN", ((10.75, 55.40), (11.20, 55.40), (11.20, 55.25), (10.75, 55.25))),
    # The Bosporus and the Dardanelles: Constantinople's land.
    ("CON", ((28.95, 41.30), (29.20, 41.30), (29.15, 40.98), (28.95, 40.98))),
    ("CON", ((26.15, 40.45), (26.75, 40.45), (26.75, 39.95), (26.15, 39.95))),
    # The Kerch strait: Sevastopol's land, leaving the Sea of Azov a lake.
    ("SEV", ((36.35, 45.50), (36.80, 45.50), (36.80, 45.05), (36.35, 45.05))),
)

# Water cut off from the ocean, named by a place inside it: (region, place, kind or a region whose land it becomes).
LAKES: tuple[tuple[str, Place, str], ...] = (
    ("caspian", (50.0, 42.0), "lake"),
    ("azov", (36.5, 46.2), "lake"),
    ("marmara", (28.0, 40.7), "CON"),  # the Sea of Marmara, wholly inside Constantinople
)

SEAS: dict[str, tuple[Seed, ...]] = {
    "NAO": (((-25.0, 62.0), (-20.0, 57.0), (-16.0, 53.0)), (-11.0, 55.5), (-8.5, 57.5), (-6.3, 55.7), (-7.0, 58.3)),
    "NWG": (
        ((-8.0, 64.0), (0.0, 66.0), (8.0, 70.0)),
        (-2.0, 61.0),
        (-4.8, 59.0),
        (-2.5, 59.8),
        ((4.0, 62.5), (9.0, 64.5), (13.0, 67.5), (17.0, 69.8)),
    ),
    "BAR": (((25.0, 73.0), (35.0, 72.0), (45.0, 71.0)), (38.0, 69.5), (37.0, 66.0)),
    "NTH": (((3.0, 52.8), (3.5, 56.0), (2.0, 59.0)), (0.5, 54.5), (6.0, 57.5), (-1.5, 57.0), (3.2, 51.8), (7.3, 56.3)),
    "HEL": ((7.5, 54.2), (8.3, 54.8)),
    "SKA": ((10.0, 58.0), (11.5, 57.2), (11.0, 58.3)),
    "BAL": (((14.0, 54.8), (18.0, 55.5), (19.5, 57.5)), (11.0, 54.5)),
    "BOT": (((20.0, 60.0), (20.0, 63.0), (23.0, 65.0)), (25.0, 59.8), (28.0, 60.1)),
    "ENG": (((-5.0, 49.5), (-1.0, 50.3), (1.5, 50.9)), (2.0, 51.15)),
    "IRI": ((-5.2, 53.9), (-4.8, 53.2), (-6.0, 52.2)),
    "MAO": (
        ((-15.0, 50.0), (-13.0, 42.0), (-12.0, 35.0)),
        (-6.0, 46.0),
        (-3.0, 44.0),
        (-6.0, 48.3),
        (-3.5, 47.3),
        (-7.0, 36.2),
        (-5.6, 35.95),
    ),
    "WES": (((-2.0, 36.3), (3.0, 38.0), (8.0, 38.0)),),
    "LYO": ((4.5, 42.5), (7.0, 43.0), (3.5, 41.5), (9.3, 43.8)),
    "TYS": ((12.0, 40.0), (13.5, 39.0), (11.0, 41.5), (10.5, 38.5)),
    "ION": (((12.5, 36.0), (17.5, 37.5), (19.5, 39.5)), (17.0, 34.0), (21.0, 36.0)),
    "ADR": (((13.5, 44.5), (15.5, 43.0), (18.0, 41.5))),
    "AEG": ((25.0, 39.5), (24.5, 37.5), (25.5, 36.2), (26.2, 40.5)),
    "EAS": ((30.0, 34.0), (33.0, 34.2), (35.5, 35.5), (27.0, 34.5)),
    "BLA": (((29.5, 43.0), (33.0, 43.0), (37.0, 42.5), (40.0, 42.0)), (31.5, 46.0)),
}

SUPPLY_CENTRES: dict[str, Place] = {
    "LON": (-0.13, 51.51),  # London
    "EDI": (-3.19, 55.95),  # Edinburgh
    "LVP": (-2.93, 53.42),  # Liverpool (east of the Mersey shore)
    "BRE": (-4.49, 48.39),  # Brest
    "PAR": (2.35, 48.85),  # Paris
    "MAR": (5.37, 43.30),  # Marseille
    "KIE": (10.13, 54.32),  # Kiel
    "BER": (13.40, 52.52),  # Berlin
    "MUN": (11.57, 48.14),  # Munich
    "VIE": (16.37, 48.21),  # Vienna
    "BUD": (19.04, 47.50),  # Budapest
    "TRI": (13.77, 45.65),  # Trieste
    "VEN": (12.24, 45.49),  # Venice (Mestre: the lagoon islands are below the source's detail)
    "ROM": (12.50, 41.90),  # Rome
    "NAP": (14.27, 40.85),  # Naples
    "MOS": (37.62, 55.75),  # Moscow
    "STP": (30.31, 59.94),  # St Petersburg
    "WAR": (21.01, 52.23),  # Warsaw
    "SEV": (33.52, 44.60),  # Sevastopol
    "CON": (28.98, 41.01),  # Istanbul
    "ANK": (32.86, 39.93),  # Ankara
    "SMY": (27.14, 38.42),  # Izmir
    "TUN": (10.18, 36.80),  # Tunis
    "POR": (-9.14, 38.76),  # Lisbon (north of the Tagus shore as the source draws it)
    "SPA": (-3.70, 40.42),  # Madrid
    "BEL": (4.35, 50.85),  # Brussels
    "HOL": (4.90, 52.37),  # Amsterdam
    "DEN": (12.53, 55.68),  # Copenhagen
    "NWY": (10.75, 59.91),  # Oslo
    "SWE": (17.95, 59.40),  # Stockholm (north-west: the source draws its islands as water)
    "SER": (20.46, 44.82),  # Belgrade
    "RUM": (26.10, 44.43),  # Bucharest
    "BUL": (23.32, 42.70),  # Sofia
    "GRE": (23.73, 37.98),  # Athens
}

# Unit anchors of the six coasts, on the land just inside that coast.
COAST_ANCHORS: dict[str, Place] = {
    "SPA/NC": (-5.6, 43.2),  # Asturias
    "SPA/SC": (-3.6, 37.0),  # Granada, near the Mediterranean
    "BUL/EC": (27.5, 43.0),  # inland of Varna
    "BUL/SC": (25.4, 41.2),  # Thrace, near the Aegean
    "STP/NC": (35.5, 68.2),  # Kola
    "STP/SC": (29.6, 60.4),  # the Karelian isthmus
}

# Where the unit of a region much larger than its part of the board stands: the region's own
# middle (its pole) lies far out in the ocean or the steppe, and arrows to it would cross the map.
ANCHOR_FOCUS: dict[str, Place] = {
    "NAO": (-19.0, 55.5),  # west of Ireland
    "MAO": (-11.0, 43.0),  # west of Galicia
    "NWG": (1.0, 65.0),
    "BAR": (36.0, 71.5),  # off the Kola peninsula
    "STP": (33.5, 63.0),  # Karelia
    "MOS": (39.0, 56.0),  # east of Moscow
    "SEV": (38.5, 47.0),  # north of the Sea of Azov
    "ARM": (41.5, 39.8),  # Erzurum
    "NAF": (-1.0, 34.0),  # the Algerian highlands near Morocco
    "NAP": (16.3, 39.3),  # Calabria: the mainland, not Sicily
    "SYR": (37.5, 35.0),  # Hama
}

# Neutral regions' names (the engine gives the provinces' names).
NEUTRAL_NAMES: dict[str, str] = {
    "ireland": "Ireland",
    "iceland": "Iceland",
    "greenland": "Greenland",
    "faroes": "Faroe Islands",
    "isle-of-man": "Isle of Man",
    "cyprus": "Cyprus",
    "malta": "Malta",
    "sahara": "Sahara",
    "levant": "Levant",
    "central-asia": "Central Asia",
    "channel-islands": "Channel Islands",
    "aland": "Åland",
    "corsica": "Corsica",
    "sardinia": "Sardinia",
    "balearics": "Balearic Islands",
    "crete": "Crete",
    "dodecanese": "Dodecanese",
    "caspian": "Caspian Sea",
    "azov": "Sea of Azov",
}
