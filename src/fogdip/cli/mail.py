"""``fogdip mail``: the e-mail judge, on the same database as ``fogdip serve`` (the same
``--data``/``--database`` flags and ``FOGDIP_*`` variables), beside it; or inside it, with
``fogdip serve --mail`` and the same mail flags. Mail comes in through an embedded SMTP server
(``--smtp-listen``) that a mail server forwards the judge's domain to, and goes out through
a relay (``--relay``). docs/mail.md has a recipe for a real mailbox."""

from __future__ import annotations

import signal
import threading

import typer

from fogdip.cli.common import errors
from fogdip.cli.mail_options import (
    Domain,
    ImapDoneFolder,
    ImapEvery,
    ImapFolder,
    ImapHost,
    ImapPort,
    ImapTls,
    ImapUser,
    MailHold,
    MailSpread,
    Relay,
    RelayCafile,
    RelayPassword,
    RelayTls,
    RelayUser,
    SmtpListen,
    mail_settings,
)
from fogdip.cli.serve import DatabaseOption, DataOption, _settings


def mail(
    data: DataOption = None,
    database: DatabaseOption = None,
    smtp_listen: SmtpListen = None,
    domain: Domain = None,
    relay: Relay = None,
    relay_tls: RelayTls = None,
    relay_user: RelayUser = None,
    relay_password: RelayPassword = None,
    relay_cafile: RelayCafile = None,
    imap_host: ImapHost = None,
    imap_user: ImapUser = None,
    imap_tls: ImapTls = None,
    imap_port: ImapPort = None,
    imap_folder: ImapFolder = None,
    imap_done_folder: ImapDoneFolder = None,
    imap_every: ImapEvery = None,
    mail_hold: MailHold = None,
    mail_spread: MailSpread = None,
) -> None:
    """Run the e-mail judge on the server's database: its SMTP server takes mail in, and every
    mail out (answers, turns, reminders) is sent through the relay. Runs until Ctrl+C."""
    from fogdip.cli.serve import log_as_json
    from fogdip.mail.service import MailService
    from fogdip.server.config import Settings
    from fogdip.server.db import Database
    from fogdip.server.store import ReadCache

    with errors():
        settings = _settings(data, database)
        assert isinstance(settings, Settings)
        chosen = mail_settings(
            smtp_listen,
            domain,
            relay,
            relay_tls,
            relay_user,
            relay_password,
            imap_host,
            imap_user,
            imap_tls,
            imap_port,
            imap_folder,
            imap_done_folder,
            imap_every,
            relay_cafile,
            mail_hold,
            mail_spread,
        )
        db = Database(settings.database_url)
        for reason in db.upgrade():
            typer.echo(f"fogdip: warning: {reason}; it was left as it was", err=True)
        reads = ReadCache()
        db.on_commit(reads.committed)
        service = MailService(db, reads, chosen)
        service.start()
    log_as_json(settings.log_level)
    where = "no SMTP server" if service.smtp_port is None else f"SMTP on port {service.smtp_port}"
    typer.echo(
        f"The fogdip judge runs at {chosen.judge} ({where}); mail goes out through {chosen.relay[0]}:{chosen.relay[1]}."
    )
    typer.echo("Press Ctrl+C to stop.")
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        stopped.wait()
    except KeyboardInterrupt:
        pass
    finally:
        service.stop()
        db.dispose()


__all__ = ["mail"]
