"""The judge over real SMTP on loopback: mails in through its SMTP server, mails out through a
relay (aiosmtpd) that keeps them."""

from __future__ import annotations

import smtplib
from email import policy
from email.message import EmailMessage

import pytest
from judges import World, world_fixture  # noqa: F401  (the fixture "world")
from sqlalchemy import func, select

from fogdip.server.models import MAIL_MASTER, MailSeen, OutboxMail

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def seven(world: World, game: str = "g1", **settings: object) -> str:
    world.new_game(game, **settings)  # type: ignore[arg-type]
    for power in POWERS:
        world.invite(game, power, f"{power.lower()}@players.test")
    world.start_game(game)
    return game


def test_a_mail_player_is_welcomed_with_its_address_and_files_orders(world: World) -> None:
    game = seven(world)
    mails = world.deliver()
    assert sorted(m.recipients[0] for m in mails) == sorted(f"{p.lower()}@players.test" for p in POWERS)
    welcome = world.to("france@players.test", mails)[0]
    address = world.address(game, "FRANCE")
    assert address in welcome.text and str(welcome.mail["Reply-To"]) == address
    assert "ORDERS" in welcome.text and "fog-of-war" in welcome.text
    # Nothing about the other seats in its headers or text.
    for power in POWERS:
        if power != "FRANCE":
            assert world.address(game, power) not in welcome.raw.decode()
            assert f"{power.lower()}@players.test" not in welcome.raw.decode()

    world.send(address, "ORDERS\nA PAR - BUR\nA MAR - SPA\nF BRE - MAO\n", message_id="m1@players.test")
    (answer,) = world.deliver()
    assert answer.recipients == ("france@players.test",)
    text = answer.text
    assert "> A PAR - BUR\n  order: accepted" in text
    assert "FILED: 3 order line(s) for S1901M" in text
    assert str(answer.mail["In-Reply-To"]) == "<m1@players.test>"
    assert world.table(game).game.record.filed["FRANCE"] == ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]


def test_a_mistyped_order_files_nothing_and_says_why(world: World) -> None:
    game = seven(world)
    world.deliver()
    address = world.address(game, "FRANCE")
    world.send(address, "A PAR - BUR\n")
    world.deliver()
    world.send(address, "A PAR - BUR\nA PAR - NTH\nF KIE H\nHello there\n")
    (answer,) = world.deliver()
    text = answer.text
    assert "> A PAR - NTH\n  order: REFUSED: an army cannot move to North Sea, a sea" in text
    assert "> F KIE H\n  order: REFUSED: FRANCE has no unit in KIE" in text
    assert "NOTHING WAS FILED: 2 of 3 order lines refused" in text
    assert "> Hello there\n  NOT UNDERSTOOD: there is no command 'Hello'" in text
    assert world.table(game).game.record.filed["FRANCE"] == ["A PAR - BUR"]  # as it was


def test_a_wrong_secret_changes_nothing_and_is_answered_once_in_a_while(world: World) -> None:
    game = seven(world)
    world.deliver()
    address = world.address(game, "FRANCE")
    wrong = address.replace(address.split("-")[2].split("@")[0], "0" * 32)
    for _ in range(3):
        world.send(wrong, "A PAR - BUR\nREADY\n", sender="mallory@evil.test")
    world.send(
        f"judge@{world.settings.domain}", "SIGNON FRANCE g1 " + "1" * 32 + "\nA PAR - BUR\n", sender="mallory@evil.test"
    )
    mails = world.deliver()
    assert [m.recipients for m in mails] == [("mallory@evil.test",)]
    assert "nothing was changed" in mails[0].text
    assert "FRANCE" not in world.table(game).game.record.filed


def test_the_from_header_decides_nothing(world: World) -> None:
    """A mail From the France player's own address, but to the judge without its secret, is
    not France's; one to France's address From anyone is France's, answered to France's own
    address only."""
    game = seven(world)
    world.deliver()
    world.send(f"judge@{world.settings.domain}", "A PAR - BUR\nREADY\n", sender="france@players.test")
    (refused,) = world.deliver()
    assert refused.recipients == ("france@players.test",) and "was not read" in refused.text
    assert "FRANCE" not in world.table(game).game.record.filed
    world.send(world.address(game, "FRANCE"), "A PAR - BUR\nSTATUS\n", sender="somebody@else.test")
    (answer,) = world.deliver()
    assert answer.recipients == ("france@players.test",)
    assert "Filed: A PAR - BUR" in answer.text


def test_signon_to_the_judges_address(world: World) -> None:
    game = seven(world)
    world.deliver()
    secret = world.address(game, "ENGLAND").split("@")[0].rsplit("-", 1)[1]
    world.send(f"judge@{world.settings.domain}", f"SIGNON ENGLAND {game} {secret}\nF LON - NTH\n")
    (answer,) = world.deliver()
    assert answer.recipients == ("england@players.test",)
    assert "signed on as ENGLAND" in answer.text and "FILED: 1" in answer.text


def test_a_command_in_press_is_not_carried_out(world: World) -> None:
    game = seven(world)
    world.deliver()
    world.send(world.address(game, "FRANCE"), "PRESS TO GERMANY\nREADY\nA PAR - BUR\nENDPRESS\n")
    mails = world.deliver()
    (answer,) = world.to("france@players.test", mails)
    (press,) = world.to("germany@players.test", mails)  # Germany plays by mail: it is mailed the message
    assert "> READY\n> A PAR - BUR" in press.text and "from FRANCE" in press.text
    assert "message sent to GERMANY" in answer.text
    assert "No orders were filed" in answer.text
    table = world.table(game)
    assert "FRANCE" not in table.game.record.filed and not table.seat("FRANCE").ready


def test_the_same_mail_twice_acts_once(world: World) -> None:
    game = seven(world)
    world.deliver()
    address = world.address(game, "FRANCE")
    for _ in range(2):
        world.send(address, "BROADCAST\nhello all\nENDPRESS\n", message_id="twice@players.test")
    mails = world.deliver()
    assert len(world.to("france@players.test", mails)) == 1
    assert len(mails) == 7  # its answer, and the message mailed once to each other mail player
    with world.db.reading() as session:
        assert session.execute(select(func.count()).select_from(MailSeen)).scalar_one() == 1
    from fogdip.game import Actor
    from fogdip.game.seats import Member
    from fogdip.game.settings import Role
    from fogdip.server.store import SqlStore

    with world.db.reading() as session:
        table = SqlStore(session, world.reads).find(game, world.master)
        assert len(SqlStore(session, world.reads).messages(table, Member(Role.MASTER))) == 1
    del Actor


def test_a_mail_too_large_is_refused_by_the_smtp_server(world: World) -> None:
    game = seven(world)
    world.deliver()
    big = "A PAR - BUR\n" + "x" * (world.settings.max_size + 10)
    with pytest.raises(smtplib.SMTPException) as refused:
        world.send(world.address(game, "FRANCE"), big)
    assert "552" in str(refused.value)
    assert "FRANCE" not in world.table(game).game.record.filed


def test_every_ready_plays_the_turn_and_each_player_gets_its_own_mail_with_its_map(world: World) -> None:
    game = seven(world)
    world.master_by_mail(game, "gm@players.test")
    world.deliver()
    for power in POWERS:
        world.send(world.address(game, power), "READY\n")
    mails = world.deliver()
    answers = [m for m in mails if "answer" in m.text]
    turns = [m for m in mails if "answer" not in m.text]
    assert len(answers) == 7
    # (The outbox sends the due mails in random order: the last READY's answer is TURKEY's.)
    (last,) = world.to("turkey@players.test", answers)
    assert "S1901M was played" in last.text
    assert sorted(m.recipients[0] for m in turns) == sorted(
        [*(f"{p.lower()}@players.test" for p in POWERS), "gm@players.test"]
    )
    for power in POWERS:
        (mail,) = world.to(f"{power.lower()}@players.test", turns)
        assert mail.text.startswith(f"{power}, ")
        assert str(mail.mail["Reply-To"]) == world.address(game, power)
        (picture,) = mail.attachments()
        assert picture[1] == "image/png" and picture[2].startswith(b"\x89PNG")
    (master,) = world.to("gm@players.test", turns)
    assert "the whole turn" in master.text
    assert str(master.mail["Reply-To"]) == world.address(game, MAIL_MASTER)
    # Every mail of the turn is dated the turn's moment, not when each was built.
    assert len({str(m.mail["Date"]) for m in turns}) == 1
    assert world.table(game).turn != "S1901M"


def test_a_crash_before_sending_loses_nothing_and_sends_once(world: World) -> None:
    """What is queued is in the database: a new judge on it sends it; sent, it is sent no more."""
    game = seven(world)
    with world.db.reading() as session:
        assert session.execute(select(func.count()).select_from(OutboxMail)).scalar_one() == 7
    assert len(world.deliver()) == 7
    assert world.deliver() == []
    del game


def test_the_judges_own_mail_come_back_is_never_answered(world: World) -> None:
    game = seven(world)
    world.deliver()
    world.send(world.address(game, "FRANCE"), "A PAR - BUR\n", sender=world.settings.judge)
    world.send(f"judge@{world.settings.domain}", "hello\n", sender=world.settings.judge)
    assert world.deliver() == []
    assert "FRANCE" not in world.table(game).game.record.filed


def test_an_automatic_reply_is_neither_answered_nor_acted_on(world: World) -> None:
    """An out-of-office reply (``Auto-Submitted``) to the seat's address: no answer, no loop."""
    game = seven(world)
    world.deliver()
    mail = EmailMessage()
    mail["From"] = "france@players.test"
    mail["To"] = world.address(game, "FRANCE")
    mail["Subject"] = "Away: orders"
    mail["Auto-Submitted"] = "auto-replied"
    mail["Message-ID"] = "<away1@players.test>"
    mail.set_content("A PAR - BUR\nI am away until Monday.\n")
    world.send(world.address(game, "FRANCE"), "", raw=mail.as_bytes(policy=policy.SMTP))
    assert world.deliver() == []
    assert "FRANCE" not in world.table(game).game.record.filed


def test_a_message_longer_than_the_webs_is_not_sent(world: World) -> None:
    game = seven(world)
    world.deliver()
    world.send(world.address(game, "FRANCE"), "BROADCAST\n" + "x" * 4001 + "\nENDPRESS\n")
    (answer,) = world.deliver()
    assert "NOT SENT: a message holds at most 4000 characters" in answer.text


def test_history_and_map_of_a_turn(world: World) -> None:
    game = seven(world)
    world.deliver()
    world.send(world.address(game, "FRANCE"), "A PAR - BUR\n")
    for power in POWERS:
        world.send(world.address(game, power), "READY\n")
    world.deliver()
    world.send(world.address(game, "FRANCE"), "HISTORY S1901M\nHISTORY START\nHISTORY X1999M\nMAP S1901M\n")
    (answer,) = world.deliver()
    text = answer.text
    assert "> HISTORY S1901M\n  your report:\n  FRANCE, Spring 1901 movement" in text
    assert "A PAR - BUR" in text.split("> HISTORY START")[0]
    assert "> HISTORY START\n  your report:\n  FRANCE, before Spring 1901" in text
    assert "no report of X1999M" in text
    (picture,) = answer.attachments()
    assert picture[0] == "france-S1901M.png" and picture[2].startswith(b"\x89PNG")


def test_malformed_mails_are_taken_and_answered(world: World) -> None:
    game = seven(world)
    world.deliver()
    address = world.address(game, "FRANCE")
    head = f"From: ann@players.test\r\nTo: {address}\r\nSubject: x\r\n".encode()
    html_only = head + b"Message-ID: <h1@p.test>\r\nContent-Type: text/html\r\n\r\n<p>A PAR - BUR</p>\r\n"
    broken = (
        head
        + b'Message-ID: <b1@p.test>\r\nContent-Type: multipart/mixed; boundary="zz"\r\n\r\n--zz\r\nContent-Type: text/pl'
    )
    nothing = head + b"Message-ID: <n1@p.test>\r\n\r\n"
    binary = head + b"Message-ID: <x1@p.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\xff\xfe\x00READY\r\n"
    for raw in (html_only, broken, nothing, binary):
        world.send(address, "", raw=raw)
    answers = world.deliver()  # each taken (250), each answered, to the seat's own address
    assert len(answers) == 4 and all(m.recipients == ("france@players.test",) for m in answers)
    assert all("The judge's answer for FRANCE" in m.text for m in answers)
    assert not world.table(game).seat("FRANCE").ready


def test_no_mail_names_another_seat_in_its_headers(world: World) -> None:
    game = seven(world)
    world.master_by_mail(game, "gm@players.test")
    for power in POWERS:
        world.send(world.address(game, power), "STATUS\nREADY\n")
    mails = world.deliver()
    for mail in mails:
        message = mail.mail
        assert len(mail.recipients) == 1 and message.get_all("To") == [mail.recipients[0]]
        assert message["Cc"] is None and message["Bcc"] is None
        headers = "\n".join(f"{name}: {value}" for name, value in message.items())
        for power in POWERS:
            own = mail.recipients[0] == f"{power.lower()}@players.test"
            if not own:
                assert world.address(game, power) not in headers
                assert f"{power.lower()}@players.test" not in mail.raw.decode("utf-8", "replace")


def _smtp_answer(world: World, to: str, body: str, message_id: str, sender: str) -> tuple[int, bytes]:
    mail = f"From: {sender}\r\nTo: {to}\r\nSubject: s\r\nMessage-ID: <{message_id}>\r\n\r\n{body}\r\n".encode()
    port = world.service.smtp_port
    assert port is not None
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
        client.ehlo()
        client.mail(sender)
        client.rcpt(to)
        return client.data(mail)


def test_a_mail_naming_no_seat_never_stands_in_for_a_seats_own_and_smtp_says_the_same(world: World) -> None:
    game = seven(world)
    world.deliver()
    france, germany = world.address(game, "FRANCE"), world.address(game, "GERMANY")
    wrong = france.replace(france.split("@")[0].rsplit("-", 1)[1], "0" * 32)
    # France's next mail's Message-ID, sent first by someone without its secret, and by Germany.
    said = [
        _smtp_answer(world, wrong, "STATUS", "next@players.test", "mallory@evil.test"),
        _smtp_answer(world, f"judge@{world.settings.domain}", "hello", "next@players.test", "mallory@evil.test"),
        _smtp_answer(world, germany, "STATUS", "next@players.test", "germany@players.test"),
        _smtp_answer(world, france, "A PAR - BUR", "next@players.test", "france@players.test"),
        _smtp_answer(world, france, "A PAR - BUR", "next@players.test", "france@players.test"),  # again
    ]
    assert len(set(said)) == 1 and said[0][0] == 250
    assert world.table(game).game.record.filed.get("FRANCE")
    answered = world.deliver()
    assert len(world.to("france@players.test", answered)) == 1
    assert len(world.to("germany@players.test", answered)) == 1


def test_an_earlier_turns_mail_built_late_says_the_next_turn_was_played(world: World) -> None:
    game = seven(world, deadlines={"movement": 86400, "retreats": 86400, "adjustments": 86400})
    world.deliver()
    for _turn in range(2):  # two turns played before the judge's loop looks
        turn = world.table(game).turn
        for power in POWERS:
            world.send(world.address(game, power), "READY\n")
        assert world.table(game).turn != turn
    mails = world.to("france@players.test", world.deliver())
    first, second = [m for m in mails if m.text.startswith("FRANCE, ")]
    assert "has been played already" in first.text and "no deadline" not in first.text
    assert "your orders are due by" in second.text


def test_gunboat_takes_no_press_by_mail_as_its_page_offers_none(world: World) -> None:
    from fogdip.server.models import MailPlayer

    game = world.new_game("gb", press="gunboat")
    for power in POWERS:
        world.invite(game, None, f"{power.lower()}@players.test")  # type: ignore[arg-type]
    world.start_game(game)
    world.deliver()
    assert not world.table(game).press_box
    with world.db.reading() as session:
        row = session.execute(select(MailPlayer).where(MailPlayer.game_id == game).limit(1)).scalar_one()
        address, seat = world.settings.seat_address(row.game_id, row.power, row.secret), row.address
    world.send(address, "BROADCAST\nhello all\nENDPRESS\nPRESS TO FRANCE\nhi\nENDPRESS\n")
    mails = world.deliver()
    (answer,) = world.to(seat, mails)
    assert answer.text.count("REFUSED: this game has no press (gunboat)") == 2
    assert len(mails) == 1  # nobody was mailed a message
    with world.db.reading() as session:
        from fogdip.server.models import Message

        assert session.execute(select(func.count()).select_from(Message)).scalar_one() == 0


def test_the_judges_mails_say_a_machine_wrote_them_and_its_own_are_never_acted_on(world: World) -> None:
    game = seven(world)
    welcome = world.to("france@players.test", world.deliver())[0]
    assert welcome.mail["Auto-Submitted"] == "auto-generated"
    address = world.address(game, "FRANCE")
    world.send(address, "STATUS\n")
    (answer,) = world.deliver()
    assert answer.mail["Auto-Submitted"] == "auto-replied"
    # The judge's own mail, come back through a forwarding address: not acted on, not answered.
    world.send(address, "A PAR - BUR\n", sender="ann@players.test", raw=welcome.raw.replace(b"ORDERS", b"A PAR - BUR"))
    mine = welcome.raw.replace(str(welcome.mail["Message-ID"]).encode(), b"<other@players.test>")  # From: the judge
    world.send(address, "", sender="ann@players.test", raw=mine)
    assert world.deliver() == []
    assert "FRANCE" not in world.table(game).game.record.filed


def test_a_mail_too_large_or_nested_past_reading_is_answered_once_and_done(world: World) -> None:
    game = seven(world)
    world.deliver()
    france = world.address(game, "FRANCE")
    judge = world.service.judge
    big = f"From: a@x.test\r\nTo: {france}\r\nMessage-ID: <big@x.test>\r\n\r\nSTATUS\r\n".encode() + b"x" * (
        world.settings.max_size + 10
    )
    nested = f"From: a@x.test\r\nTo: {france}\r\nMessage-ID: <deep@x.test>\r\n".encode()
    for depth in range(3000):
        nested += f"Content-Type: multipart/mixed; boundary=b{depth}\r\n\r\n--b{depth}\r\n".encode()
    nested += b"Content-Type: text/plain\r\n\r\nSTATUS\r\n"
    for raw, why in ((big, "over 2 MB"), (nested, "could not be read")):
        assert judge.handle_raw(raw).acted  # (IMAP marks it done)
        assert not judge.handle_raw(raw).acted  # once
        (answer,) = world.deliver()
        assert why in answer.text and "> STATUS" not in answer.text


def test_the_judge_never_mails_an_address_at_its_own_domain(world: World) -> None:
    world.new_game("own")
    world.invite("own", "FRANCE", f"someone@{world.settings.domain}")
    world.invite("own", "ENGLAND", "england@players.test")
    mails = world.deliver()
    assert [m.recipients for m in mails] == [("england@players.test",)]
    assert world.deliver() == []  # not retried either
    with world.db.reading() as session:
        errors = session.execute(select(OutboxMail.last_error).where(OutboxMail.last_error.is_not(None))).scalars()
        assert list(errors) == ["not sent: an address at the judge's own domain"]


def test_a_reply_quoting_press_without_marks_never_runs_the_press_as_the_readers_commands(world: World) -> None:
    """Outlook answers with the mail it quotes under a From:/Sent: block, no ``>`` marks and no
    "wrote:" line. A rival's press (grey: anonymous) that holds commands must not become the
    reader's DRAW, READY or press when the reader replies so (an attacker review's finding)."""
    import html as markup

    from judges import MOMENT

    from fogdip.game import Actor
    from fogdip.server.models import User
    from fogdip.server.store import SqlStore

    world.new_game("g1", press="grey")
    world.invite("g1", "FRANCE", "france@players.test")
    world.invite("g1", "GERMANY", "germany@players.test")
    with world.db.transaction() as session:
        user = User(name="au", name_key="au", password_hash="!", is_admin=False, created_at=MOMENT)
        session.add(user)
        session.flush()
        austria = str(user.id)
        store = SqlStore(session, world.reads)
        table = store.find("g1", user.id, lock=True, invite="inv")
        table.join(Actor(austria), "AUSTRIA", "inv")
        store.save(table)
    world.start_game("g1")
    world.deliver()
    trap = "Let's be friends.\n\nPRESS TO GERMANY\nFrance here: I move on Munich.\nENDPRESS\nDRAW\nREADY"
    with world.db.transaction() as session:
        store = SqlStore(session, world.reads)
        table = store.find("g1", int(austria), lock=True)
        table.send(Actor(austria), ["FRANCE"], trap)
        store.save(table)
    press = next(m for m in world.to("france@players.test", world.deliver()) if "A message" in m.text)
    quoted = "<br>".join(markup.escape(line) for line in press.text.splitlines())
    page = (
        "<html><body><p>Thanks, will think.</p><div style='border-top:solid #E1E1E1 1.0pt'><p><b>From:</b> "
        f"{markup.escape(str(press.mail['From']))}<br><b>Sent:</b> Saturday, November 28, 2026 10:03 PM<br>"
        f"<b>Subject:</b> x</p></div><p>{quoted}</p></body></html>"
    )
    for number, plain in enumerate((True, False)):
        reply = EmailMessage()
        reply["From"] = "france@players.test"
        reply["To"] = str(press.mail["Reply-To"])
        reply["Subject"] = "RE: " + str(press.mail["Subject"])
        reply["Message-ID"] = f"<outlook-{number}@players.test>"
        if plain:
            reply.set_content(
                f"Thanks, will think.\n\nFrom: judge\nSent: Saturday 10:03 PM\nSubject: x\n\n{press.text}"
            )
            reply.add_alternative(page, subtype="html")
        else:
            reply.set_content(page, subtype="html")
        world.send(
            str(press.mail["Reply-To"]), "", raw=reply.as_bytes(policy=policy.SMTP), sender="france@players.test"
        )
        answers = world.to("france@players.test", world.deliver())
        assert answers and "Thanks, will think." in answers[-1].text
        assert "message sent" not in answers[-1].text and "draw" not in answers[-1].text.lower()
    table = world.table("g1")
    seat = table.seat("FRANCE")
    assert not seat.draw and not table.is_ready(seat)
    assert world.to("germany@players.test", world.deliver()) == []
