"""The judge's letters (fogdip.mail.letters): one mail to one address, what each says, and
the mail layer's no-leak property: a power's turn letter, map included, is the same bytes in
two games that differ only in what that power may not see."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest

from fogdip.bots.base import BotInput, bot_named
from fogdip.codec.observations import observation_to_json
from fogdip.fog.report import observation_text
from fogdip.game import Game, Table, TableSettings
from fogdip.game.turn_text import turn_text
from fogdip.mail.letters import (
    MASTER_FOOTER,
    PLAYER_FOOTER,
    as_bytes,
    master_letter,
    master_map_png,
    outgoing,
    power_map_png,
    reminder_letter,
    turn_letter,
)
from fogdip.mail.reading import read_letter
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.variants import PRESETS

JUDGE = "fogdip judge <judge@judge.example>"
SEAT = "g1-england-9fk3ab@judge.example"
PLAYER = "ellen@example.org"
DEADLINE = datetime(2026, 1, 7, 12, 0, tzinfo=UTC)
MOMENT = datetime(2026, 1, 5, 9, 30, tzinfo=UTC)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))


def _cairo() -> bool:
    try:
        svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
    except PngUnavailable:
        return False
    return True


CAIRO = _cairo()


def parsed(message: EmailMessage) -> EmailMessage:
    """The letter as its recipient's client reads it, from the bytes sent."""
    from email.parser import BytesParser

    out = BytesParser(policy=default).parsebytes(as_bytes(message))
    assert isinstance(out, EmailMessage)
    return out


def text_of(message: EmailMessage) -> str:
    """The letter's text, its line ends as a reader sees them."""
    body = message.get_body(("plain",))
    assert body is not None
    content = body.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")


# --- one mail to one address ----------------------------------------------------------------


def test_the_headers_of_a_letter() -> None:
    message = parsed(
        outgoing(PLAYER, "fogdip Lepanto: S1901M played — ENGLAND", "Déjà vu.\n", sender=JUDGE, reply_to=SEAT)
    )
    assert sorted(message.keys()) == sorted(
        [
            "From",
            "To",
            "Reply-To",
            "Subject",
            "Date",
            "Message-ID",
            "Auto-Submitted",
            "Content-Type",
            "Content-Transfer-Encoding",
            "MIME-Version",
        ]
    )
    assert message["Auto-Submitted"] == "auto-generated"  # no auto-responder answers it
    assert message["To"] == PLAYER
    assert message["From"] == JUDGE
    assert message["Reply-To"] == SEAT
    assert message["Subject"] == "fogdip Lepanto: S1901M played — ENGLAND"
    assert message["Message-ID"].endswith("@judge.example>")
    assert message.get_content_charset() == "utf-8"
    assert text_of(message) == "Déjà vu.\n"


def test_each_letter_has_its_own_message_id() -> None:
    ids = {outgoing(PLAYER, "s", "b", sender=JUDGE)["Message-ID"] for _ in range(50)}
    assert len(ids) == 50


def test_an_answer_names_the_mail_it_answers() -> None:
    message = parsed(outgoing(PLAYER, "Re: orders", "ok", sender=JUDGE, reply_to=SEAT, in_reply_to="<m1@example.org>"))
    assert message["In-Reply-To"] == "<m1@example.org>"
    assert message["References"] == "<m1@example.org>"


@pytest.mark.parametrize("to", ["a@example.org, b@example.org", "undisclosed-recipients:;", "nobody", ""])
def test_exactly_one_recipient(to: str) -> None:
    with pytest.raises(ValueError, match="exactly one address"):
        outgoing(to, "s", "b", sender=JUDGE)


def test_a_subject_cannot_add_a_header() -> None:
    message = parsed(outgoing(PLAYER, "orders\r\nBcc: spy@example.com", "b", sender=JUDGE))
    assert message["Bcc"] is None
    assert message["Subject"] == "orders Bcc: spy@example.com"


def test_attachments_go_as_they_are() -> None:
    message = parsed(
        outgoing(PLAYER, "map", "Your map.", sender=JUDGE, attachments=[("england.png", "image/png", PNG)])
    )
    parts = list(message.iter_attachments())
    assert [(part.get_filename(), part.get_content_type()) for part in parts] == [("england.png", "image/png")]
    assert parts[0].get_content() == PNG
    assert message.get_body(("plain",)) is not None


def test_the_same_letter_twice_is_the_same_bytes_but_for_date_and_id() -> None:
    first = outgoing(PLAYER, "map", "Your map.", sender=JUDGE, attachments=[("e.png", "image/png", PNG)])
    second = outgoing(PLAYER, "map", "Your map.", sender=JUDGE, attachments=[("e.png", "image/png", PNG)])
    assert first["Message-ID"] != second["Message-ID"]
    assert without_date_and_id(first) == without_date_and_id(second)


def test_the_judge_reads_its_own_letter_back() -> None:
    sent = outgoing(PLAYER, "Re: orders", "A PAR - BUR: ok\nREADY: ok", sender=JUDGE, reply_to=SEAT)
    letter = read_letter(as_bytes(sent))
    assert letter.lines == ("A PAR - BUR: ok", "READY: ok")
    assert letter.message_id == sent["Message-ID"].strip("<>")
    assert letter.recipients == (PLAYER,)
    assert letter.problems == ()


# --- what each letter says --------------------------------------------------------------------


def lepanto(preset: str = "fog-of-war") -> Table:
    game = Game.create(preset)
    table = Table.new("g1", game, TableSettings.for_game(game, name="Lepanto"), master="gm")
    _ = game.file("ENGLAND", ["F LON - NTH", "A LVP - YOR"])
    game.adjudicate()
    return table


def test_a_turn_letter() -> None:
    table = lepanto()
    turn = table.game.record.history[-1]
    sent = turn_letter(
        table, "england", turn, map_png=PNG, deadline=DEADLINE, to=PLAYER, sender=JUDGE, reply_to=SEAT, moment=MOMENT
    )
    message = parsed(sent)
    assert message["Subject"] == "fogdip Lepanto: S1901M played — ENGLAND"
    assert (message["To"], message["Reply-To"], message["Cc"]) == (PLAYER, SEAT, None)
    assert message["Date"] == "Mon, 05 Jan 2026 09:30:00 +0000"
    text = text_of(message)
    assert text.startswith(observation_text(turn.reports["ENGLAND"]) + "\n\n")
    assert "Orders:\n  A LVP - YOR (ok)\n  F EDI H (ok)\n  F LON - NTH (ok)\n" in text
    assert "Next: Spring 1901 retreats (S1901R); your orders are due by 2026-01-07 12:00 UTC (Wednesday)." in text
    assert "england-S1901M.png" in text
    assert text.endswith("-- \n" + PLAYER_FOOTER + "\n")
    [png] = list(message.iter_attachments())
    assert (png.get_filename(), png.get_content()) == ("england-S1901M.png", PNG)


def test_a_turn_letter_without_a_map_or_deadline() -> None:
    table = lepanto()
    turn = table.game.record.history[-1]
    message = parsed(
        turn_letter(table, "ENGLAND", turn, map_png=None, deadline=None, to=PLAYER, sender=JUDGE, reply_to=SEAT)
    )
    assert not message.is_multipart()
    assert "it has no deadline" in text_of(message)


def test_the_last_turn_says_the_game_is_over() -> None:
    game = Game.create("standard", end_year=1901)
    table = Table.new("g1", game, TableSettings.for_game(game, name="Short"), master="gm")
    game.adjudicate()
    game.adjudicate()
    turn = game.record.history[-1]
    text = turn_letter(table, "ENGLAND", turn, map_png=None, deadline=None, to=PLAYER, sender=JUDGE, reply_to=SEAT)
    assert "The game is over." in text_of(text)


def test_the_master_letter_has_the_whole_turn() -> None:
    table = lepanto()
    turn = table.game.record.history[-1]
    message = parsed(master_letter(table, turn, map_png=PNG, deadline=DEADLINE, to="gm@example.org", sender=JUDGE))
    assert message["Subject"] == "fogdip Lepanto: S1901M played — the whole turn"
    text = text_of(message)
    assert text.startswith(turn_text(turn) + "\n\n")
    assert "TURKEY: A CON H" in text
    assert text.endswith(MASTER_FOOTER + "\n")
    assert [part.get_filename() for part in message.iter_attachments()] == ["board-S1901M.png"]


def test_a_reminder() -> None:
    table = lepanto()
    message = parsed(
        reminder_letter(table, "england", deadline=DEADLINE, to=PLAYER, sender=JUDGE, reply_to=SEAT, moment=MOMENT)
    )
    assert (
        message["Subject"]
        == "fogdip Lepanto: reminder: orders for S1901R due 2026-01-07 12:00 UTC (Wednesday) — ENGLAND"
    )
    assert "you have not filed your orders for Spring 1901 retreats (S1901R) in Lepanto" in text_of(message)
    assert message["Reply-To"] == SEAT


@pytest.mark.skipif(not CAIRO, reason="no Cairo here: PNG maps cannot be drawn")
def test_maps_as_png() -> None:
    table = lepanto()
    assert (power_map_png(table, "ENGLAND") or b"").startswith(b"\x89PNG")
    assert (power_map_png(table.game, "ENGLAND", "start") or b"").startswith(b"\x89PNG")
    assert (master_map_png(table) or b"").startswith(b"\x89PNG")


# --- the no-leak property --------------------------------------------------------------------


def without_date_and_id(message: EmailMessage) -> bytes:
    """The letter's bytes without its Date and Message-ID headers."""
    head, _sep, body = as_bytes(message).partition(b"\r\n\r\n")
    kept = [line for line in head.split(b"\r\n") if not line.lower().startswith((b"date:", b"message-id:"))]
    return b"\r\n".join(kept) + b"\r\n\r\n" + body


@dataclass
class World:
    """A game at its table, played by the random bot for every power."""

    table: Table

    @property
    def game(self) -> Game:
        return self.table.game


def world(preset: str, seed: int, viewer: str, other: str, hidden: bool) -> World:
    """A table of ``preset``. The second world (``hidden``) differs in what ``viewer`` may
    not know: who plays the other seats, the invitation, and, under fog, ``other``'s orders
    (drawn from another seed; every other power's, the viewer's too, from the same seeds)."""
    game = Game.create(preset)
    settings = TableSettings.for_game(game, name="Lepanto")
    table = Table.new("g1", game, settings, master="gm", invite="second-invite" if hidden else "first-invite")
    for seat in table.seats:
        if seat.power == viewer:
            seat.player = "ellen"
        elif hidden:
            seat.bot, seat.bot_name = True, "random"
        else:
            seat.player = f"player-of-{seat.power.lower()}"
    return World(table)


def play_turn(one: World, seed: int, turn: int, other: str, hidden: bool) -> None:
    """Every power's random orders for the next turn, each from its own reports and seed."""
    game = one.game
    bot = bot_named("random")
    for power in game.still_in():
        tag = f"{seed}-{power}-{turn}" + ("-hidden" if hidden and power == other else "")
        lines = bot.orders(BotInput.of(game, power), random.Random(tag))
        if lines:
            game.file(power, lines, partial=True)
    game.adjudicate()


def dumped(world: World, power: str) -> list[str]:
    return [json.dumps(observation_to_json(seen), sort_keys=True) for seen in world.game.reports(power)]


def letter_of(one: World, power: str, map_png: bytes | None) -> bytes:
    turn = one.game.record.history[-1]
    sent = turn_letter(
        one.table, power, turn, map_png=map_png, deadline=DEADLINE, to=PLAYER, sender=JUDGE, reply_to=SEAT
    )
    return without_date_and_id(sent)


def map_of(one: World, power: str) -> bytes | None:
    """The power's map as the judge attaches it (its SVG's bytes where Cairo is missing, so
    that the map is compared either way)."""
    if CAIRO:
        return power_map_png(one.table, power)
    from fogdip.maps.svg import render_svg
    from fogdip.maps.views import power_scene_of

    return render_svg(power_scene_of(one.game, power)).encode()


TURNS = 4
PAIRS = [("ENGLAND", "TURKEY"), ("FRANCE", "RUSSIA")]


@pytest.mark.slow  # about 3 s a case: four turns, two worlds, a PNG map for each
@pytest.mark.parametrize(("viewer", "other"), PAIRS)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_turn_letter_tells_only_what_its_power_may_see(preset: str, viewer: str, other: str) -> None:
    """Two games of ``preset`` alike but for what ``viewer`` may not see (who plays the other
    seats, the invitation, and, under fog, another power's orders), played turn by turn: as
    long as the viewer's reports are the same, so is its turn letter, byte for byte after the
    Date and Message-ID headers, its PNG map included. The fog presets must show a turn
    whose whole turn differed but the letter did not, or the case proves nothing."""
    foggy = PRESETS[preset].fog_enabled
    seed = sum(map(ord, preset + viewer))
    worlds = (world(preset, seed, viewer, other, False), world(preset, seed, viewer, other, foggy))
    compared = hidden_turns = 0
    for turn in range(TURNS):
        if worlds[0].game.turn == "COMPLETED":
            break
        for index, one in enumerate(worlds):
            play_turn(one, seed, turn, other, hidden=foggy and index == 1)
        if dumped(worlds[0], viewer) != dumped(worlds[1], viewer):
            break  # the difference reached the viewer: the fog's own tests judge that
        played = [one.game.record.history[-1] for one in worlds]
        hidden_turns += turn_text(played[0]) != turn_text(played[1])
        first, second = (letter_of(one, viewer, map_of(one, viewer)) for one in worlds)
        assert first == second, f"{preset}: {viewer}'s letter after {played[0].turn} shows what it may not see"
        compared += 1
    assert compared, f"{preset}: no turn compared"
    if foggy:
        assert hidden_turns, f"{preset}: the two games never differed out of {viewer}'s sight"


def test_the_property_would_see_a_leak() -> None:
    """The same two worlds, the game master's letter (which tells everything) differs: the
    comparison above is not blind."""
    worlds = (world("fog-of-war", 1, "ENGLAND", "TURKEY", False), world("fog-of-war", 1, "ENGLAND", "TURKEY", True))
    for index, one in enumerate(worlds):
        play_turn(one, 1, 0, "TURKEY", hidden=index == 1)
    assert dumped(worlds[0], "ENGLAND") == dumped(worlds[1], "ENGLAND")
    letters = [
        without_date_and_id(
            master_letter(one.table, one.game.record.history[-1], map_png=None, deadline=None, to=PLAYER, sender=JUDGE)
        )
        for one in worlds
    ]
    assert letters[0] != letters[1]


# --- the example in docs/mail.md ---------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mail.md"


def shown(message: EmailMessage) -> str:
    """A letter as docs/mail.md shows it: the headers a reader sees, the text, the attachments."""
    headers = [f"{name}: {message[name]}" for name in ("From", "To", "Reply-To", "Subject", "Date")]
    attached = [f"[attached: {part.get_filename()} ({part.get_content_type()})]" for part in message.iter_attachments()]
    return "\n".join(headers) + "\n\n" + text_of(message) + "\n" + "\n".join(attached)


def docs_example() -> str:
    """England's letter after Fall 1901 in a fog-of-war game, as docs/mail.md shows it."""
    game = Game.create("fog-of-war")
    table = Table.new("k3m9x2", game, TableSettings.for_game(game, name="Lepanto"), master="gm")
    _ = game.file("ENGLAND", ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"])
    _ = game.file("FRANCE", ["A PAR - PIC", "F BRE - MAO", "A MAR - SPA"])
    _ = game.file("GERMANY", ["F KIE - HOL", "A BER - KIE", "A MUN - RUH"])
    _ = game.file("RUSSIA", ["F STP/SC - BOT", "A MOS - STP"])
    game.adjudicate()
    game.adjudicate()  # Spring's retreats: none
    _ = game.file("ENGLAND", ["F NTH - BEL", "F NWG - NWY", "A YOR - LON"])
    _ = game.file("FRANCE", ["A PIC S F NTH - BEL"])
    _ = game.file("GERMANY", ["F HOL - BEL", "A RUH S F HOL - BEL", "A KIE - DEN"])
    _ = game.file("RUSSIA", ["A STP - NWY"])
    game.adjudicate()
    sent = turn_letter(
        table,
        "ENGLAND",
        game.record.history[-1],
        map_png=power_map_png(table, "ENGLAND") or PNG,
        deadline=datetime(2026, 1, 9, 18, 0, tzinfo=UTC),
        to="ellen@example.org",
        sender="fogdip judge <judge@judge.example>",
        reply_to="k3m9x2-england-7hq4wz8rtn@judge.example",
        moment=datetime(2026, 1, 7, 18, 0, 3, tzinfo=UTC),
    )
    return shown(parsed(sent))


def test_the_docs_show_what_the_judge_writes() -> None:
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("<!-- turn-letter -->\n```\n", 1)[1].split("\n```\n<!-- /turn-letter -->", 1)[0]
    assert block == docs_example()
