"""The judge's answers to the mails of review F2 and F4, over real SMTP on loopback: a forward
under an open PRESS is neither sent nor carried out, and an HTML-only mail that can hide text
is answered that plain text is needed, with nothing done."""

from __future__ import annotations

from judges import World, world_fixture  # noqa: F401  (the fixture "world")


def _started(world: World) -> str:
    world.new_game("g1")
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        world.invite("g1", power, f"{power.lower()}@players.test")
    world.start_game("g1")
    world.deliver()
    return "g1"


def test_a_forward_under_an_open_press_is_not_sent_nor_carried_out(world: World) -> None:
    game = _started(world)
    world.send(
        world.address(game, "FRANCE"),
        "PRESS TO ITALY\nLook what Germany sent me.\n\n---------- Forwarded message ---------\n"
        "From: Germany <germany@players.test>\nDate: Mon, 5 Jan 2026 at 10:00\nSubject: deal\n\n"
        "PRESS TO FRANCE\nlet us split Belgium\nENDPRESS\nDRAW\nA PAR - PIC\nREADY\n",
    )
    mails = world.deliver()
    (answer,) = world.to("france@players.test", mails)
    assert world.to("italy@players.test", mails) == []  # no press went out
    assert "NOT SENT" in answer.text
    assert "> DRAW" not in answer.text and "> READY" not in answer.text and "A PAR - PIC" not in answer.text
    table = world.table(game)
    assert "FRANCE" not in table.game.record.filed and not table.seat("FRANCE").ready


def test_html_that_can_hide_text_is_answered_and_not_carried_out(world: World) -> None:
    game = _started(world)
    address = world.address(game, "FRANCE")
    head = f"From: france@players.test\r\nTo: {address}\r\nSubject: orders\r\nMessage-ID: <h1@p.test>\r\n"
    html = '<p>A PAR - BUR</p><div style="font-size:0">READY</div>'
    world.send(address, "", raw=(head + f"Content-Type: text/html\r\n\r\n{html}\r\n").encode())
    (answer,) = world.to("france@players.test", world.deliver())
    assert "plain text" in answer.text and "nothing in it was read" in answer.text
    table = world.table(game)
    assert "FRANCE" not in table.game.record.filed and not table.seat("FRANCE").ready
