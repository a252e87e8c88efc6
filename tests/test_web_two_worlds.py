"""No leak through the pages: two worlds that differ only in one fact a party may not know give
that party byte-identical HTML, on every page and partial it can load (``web_worlds.PAGES`` and
``CHANGES``, and every link of this game a page carries), at every checkpoint of the game.

The site runs in-process (``fogdip.web.create_site``), twice: the same accounts on two
databases, each game made alike in both but for the fact. The facts: another power's orders
and so where its units went, the kind of a unit it built, whether a hidden unit was dislodged,
and the press between other powers. The parties: France (a player), the watcher (an observer,
under each ``observers`` setting), someone outside the game, and the game master, who may
know the fact and whose pages do differ: the harness sees a difference where there is one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from web_worlds import (
    CHANGES,
    NOT_PROBED,
    OWN_LINES,
    PAGES,
    World,
    Worlds,
    assert_differs,
    assert_no_account_names,
    assert_same,
    site_routes,
    two_sites,
)

#: Each example plays two games and loads every page of each party at every checkpoint.
WORLDS = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

#: Orders for Germany's units in Spring 1901 that keep them out of France's sight (its units
#: hold in Paris, Marseilles and Brest): where they go, and whether they bounce, is hidden.
GERMAN_OPTIONS = (
    ("A MUN H", "A MUN - RUH", "A MUN - BOH", "A MUN - TYR", "A MUN - SIL", "A MUN - KIE"),
    ("A BER H", "A BER - PRU", "A BER - SIL", "A BER - KIE", "A BER - MUN"),
    ("F KIE H", "F KIE - BAL", "F KIE - DEN", "F KIE - HOL", "F KIE - HEL"),
)
german_orders = st.tuples(*(st.sampled_from(options) for options in GERMAN_OPTIONS)).map(list)

OTHERS = ("GERMANY", "ENGLAND", "ITALY")
PLAYERS = {"FRANCE": "france", "GERMANY": "germany", "ENGLAND": "england", "ITALY": "italy"}

#: A private message between the other powers: its sender, recipients (never France) and body.
private_messages = st.lists(
    st.tuples(
        st.sampled_from(OTHERS),
        st.lists(st.sampled_from(OTHERS), min_size=1, max_size=2, unique=True),
        st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=40),
    ).filter(lambda m: m[0] not in m[1] and m[2].strip() != ""),
    min_size=1,
    max_size=3,
)


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worlds]:
    yield from two_sites(Path(tmp_path_factory.mktemp("two-worlds")))


def both(worlds: Worlds, play: object, facts: tuple[object, object], **game: object) -> tuple[World, World]:
    """The two worlds, each a game made on its own site and played with its fact."""
    made = []
    for side, fact in enumerate(facts):
        world = World(worlds, side, **game)  # type: ignore[arg-type]
        play(world, fact)  # type: ignore[operator]
        made.append(world)
    return made[0], made[1]


def test_every_page_of_the_site_is_probed(worlds: Worlds) -> None:
    """A route the site grows is either probed (added to ``PAGES`` or ``CHANGES`` in
    tests/web_worlds.py) or said not to be about a game (``NOT_PROBED``, with why)."""
    probed = {(probe.method, probe.route) for probe in (*PAGES, *CHANGES)}
    routes = site_routes(worlds.sites[0].app)
    assert routes - probed - set(NOT_PROBED) == set(), "add these to web_worlds.PAGES or CHANGES"
    assert (probed | set(NOT_PROBED)) - routes == set(), "these are no routes of the site (any more)"


def _orders_game(observers: str) -> dict[str, object]:
    return {
        "preset": "fog-of-war",
        "players": {"FRANCE": "france", "GERMANY": "germany"},
        "observers": observers,
    }


def _play_orders(world: World, german: object) -> None:
    world.file("FRANCE", OWN_LINES)
    world.file("GERMANY", list(german))  # type: ignore[call-overload]
    world.checkpoint("filed")
    world.adjudicate()
    world.checkpoint("moved")
    world.adjudicate()
    world.checkpoint("next")


@pytest.mark.slow
@pytest.mark.parametrize("observers", ["press", "board"])
@WORLDS
@given(pair=st.tuples(german_orders, german_orders).filter(lambda p: p[0] != p[1]))
@example(pair=(["A MUN H", "A BER H", "F KIE H"], ["A MUN - RUH", "A BER - SIL", "F KIE - HOL"]))
def test_another_powers_orders_and_moves(worlds: Worlds, observers: str, pair: tuple[list[str], list[str]]) -> None:
    """Germany's orders, and so where its units go (out of France's sight): France and
    someone outside the game get the same pages, before and after the turns; an observer of
    the board too, while the orders are only filed (it sees the board once they are played)."""
    one, other = both(worlds, _play_orders, pair, **_orders_game(observers))
    assert_same(one, other, "FRANCE", "outsider")
    assert_same(one, other, "watcher", tags=None if observers == "press" else ["filed"])
    assert_no_account_names(one, "FRANCE", "watcher", "outsider")


@pytest.mark.parametrize("observers", ["press", "board"])
def test_the_harness_sees_where_the_worlds_differ(worlds: Worlds, observers: str) -> None:
    """The game master's pages, and a board observer's, show where Germany's units went."""
    one, other = both(
        worlds,
        _play_orders,
        (["A MUN H", "A BER H", "F KIE H"], ["A MUN - RUH", "A BER - SIL", "F KIE - HOL"]),
        **_orders_game(observers),
    )
    assert_same(one, other, "FRANCE", "outsider")
    assert_differs(one, other, "master", "moved game page")
    assert_differs(one, other, "master", "moved board partial")
    if observers == "board":
        assert_differs(one, other, "watcher", "moved board partial")


@pytest.mark.slow
@WORLDS
@given(builds=st.tuples(st.sampled_from("AF"), st.sampled_from("AF")).filter(lambda b: b != ("A", "A")))
def test_the_kind_of_a_hidden_unit(worlds: Worlds, builds: tuple[str, str]) -> None:
    """Germany takes Denmark and Holland and builds an army or a fleet in Berlin, out of
    France's sight: France's pages are the same in both worlds."""

    def play(world: World, kind: object) -> None:
        world.file("FRANCE", OWN_LINES)
        world.file("GERMANY", ["F KIE - DEN", "A MUN - RUH", "A BER - KIE"])
        world.adjudicate()
        while world.turn.startswith("S"):  # its retreats, if the variant plays them
            world.adjudicate()
        world.file("FRANCE", OWN_LINES)
        world.file("GERMANY", ["A RUH - HOL", "F DEN H", "A KIE H"])
        world.adjudicate()
        while not world.turn.startswith("W"):
            world.adjudicate()
        world.file("GERMANY", [f"{kind} BER B", "A MUN B"])
        world.checkpoint("built")
        world.adjudicate()
        world.checkpoint("spring")

    one, other = both(worlds, play, ("A", builds[1]), preset="fog-of-war", players=_orders_game("press")["players"])
    assert_same(one, other, "FRANCE", "watcher", "outsider")
    if builds[1] == "F":
        assert_differs(one, other, "master", "spring game page")


def test_a_hidden_unit_dislodged(worlds: Worlds) -> None:
    """Italy's army in Tyrolia is dislodged by Germany's supported attack, or the attack
    bounces, out of France's sight: France's pages, its phases among them, are the same."""
    players = {"FRANCE": "france", "GERMANY": "germany", "ITALY": "italy"}

    def play(world: World, support: object) -> None:
        world.file("FRANCE", OWN_LINES)
        world.file("GERMANY", ["A MUN - BOH", "A BER - MUN", "F KIE H"])
        world.file("ITALY", ["A VEN - TYR", "A ROM H", "F NAP H"])
        world.adjudicate()
        while world.turn.startswith("S"):
            world.adjudicate()
        world.file("FRANCE", OWN_LINES)
        world.file("GERMANY", ["A MUN - TYR", "A BOH S A MUN - TYR" if support else "A BOH H", "F KIE H"])
        world.file("ITALY", ["A TYR H", "A ROM H", "F NAP H"])
        world.checkpoint("filed")
        world.adjudicate()
        world.checkpoint("fought")
        world.adjudicate()
        world.checkpoint("after")

    one, other = both(worlds, play, (True, False), preset="fog-of-war", players=players)
    assert_same(one, other, "FRANCE", "watcher", "outsider")
    assert_differs(one, other, "master", "fought game page")


@pytest.mark.slow
@pytest.mark.parametrize("observers", ["none", "press", "board"])
@WORLDS
@given(messages=private_messages)
def test_press_between_other_powers(worlds: Worlds, observers: str, messages: list[tuple[str, list[str], str]]) -> None:
    """England, Germany and Italy write to each other, or do not; then England writes to all
    in both: France and the watcher get the same pages (nothing of the private messages, not
    even a gap in their numbering, nor an unread count)."""

    def play(world: World, talk: object) -> None:
        if talk:
            for sender, to, body in messages:
                world.send(sender, to, body)
        world.send("ENGLAND", "all", "Hello, everyone.")
        world.checkpoint("talked")
        world.adjudicate()
        if talk:
            world.send("GERMANY", ["ENGLAND"], "And after the turn?")
        world.checkpoint("next")

    one, other = both(
        worlds, play, (True, False), preset="fog-of-war", players=PLAYERS, observers=observers, press="white"
    )
    assert_same(one, other, "FRANCE", "watcher", "outsider")
    assert_no_account_names(one, "FRANCE", "watcher", "outsider")


@pytest.mark.parametrize(("preset", "press"), [("fog-of-war", "black"), ("fog-of-war", "grey"), ("fog-1898", None)])
def test_who_really_sent_a_message(worlds: Worlds, preset: str, press: str | None) -> None:
    """A message to France and one to all, claiming to be Turkey's in black press, anonymous
    in grey, come from England or from Italy: France (a recipient), and the watcher, get the
    same pages."""

    def play(world: World, sender: object) -> None:
        claim = "TURKEY" if world.site.accounts["master"].client.game(world.id).press == "black" else None
        world.send(str(sender), ["FRANCE"], "Shall we share Belgium?", claim=claim)
        world.send(str(sender), "all", "Peace to everyone.", claim=claim)
        world.checkpoint("sent")

    one, other = both(worlds, play, ("ENGLAND", "ITALY"), preset=preset, players=PLAYERS, press=press)
    assert_same(one, other, "FRANCE", "watcher", "outsider")
    assert_no_account_names(one, "FRANCE", "watcher", "outsider")
