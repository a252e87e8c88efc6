"""The judge reading an IMAP mailbox: a real Dovecot, run by the IMAP poller's tests
(``tests/mail/test_imap.py``, whose fixtures this module takes), hands each mail to the same
entry point as the SMTP server; a mail delivered twice acts once. Skipped only where the
``dovecot`` program is not installed (CI installs Debian's ``dovecot-imapd``)."""

from __future__ import annotations

import time
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

import pytest
import test_imap as imap_tests
from judges import World

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        imap_tests.DOVECOT is None,
        reason="no dovecot here: install Debian's dovecot-imapd to test IMAP against a real server",
    ),
]
dovecot = imap_tests.dovecot
login = imap_tests.login


def test_the_judge_takes_its_mail_from_an_imap_mailbox(dovecot: Any, login: str, tmp_path: Path) -> None:
    world = World.start(
        tmp_path,
        maps=False,
        smtp_listen="off",
        imap_host="127.0.0.1",
        imap_port=dovecot.port,
        imap_user=login,
        imap_password=imap_tests.PASSWORD,
        imap_tls="none",
        imap_every=0.2,
    )
    try:
        game = world.new_game("imap")
        world.invite(game, "FRANCE", "ann@players.test")
        world.deliver()
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"] = "ann@players.test", world.address(game, "FRANCE"), "orders"
        mail["Message-ID"] = "<imap-1@players.test>"
        mail.set_content("A PAR - BUR\n")
        raw = mail.as_bytes(policy=SMTP)
        dovecot.deliver(login, raw, "first")
        deadline = time.monotonic() + 30
        while "FRANCE" not in world.table(game).game.record.filed and time.monotonic() < deadline:
            time.sleep(0.1)
        assert world.table(game).game.record.filed["FRANCE"] == ["A PAR - BUR"]
        (answer,) = world.deliver()
        assert answer.recipients == ("ann@players.test",) and "FILED: 1" in answer.text
        dovecot.deliver(login, raw, "again")  # the same mail delivered twice
        time.sleep(2)
        assert world.deliver() == []
    finally:
        world.stop()
