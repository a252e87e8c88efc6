"""The e-mail judge's flags, shared by ``fogdip mail`` and ``fogdip serve --mail``: each has its
``FOGDIP_*`` variable (a flag wins)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from fogdip.mail.config import MailSettings

SmtpListen = Annotated[
    str | None,
    typer.Option(
        "--smtp-listen",
        help="HOST:PORT the judge's SMTP server listens on, for a mail server to forward to "
        "(default 127.0.0.1:2525; 'off': none; FOGDIP_SMTP_LISTEN).",
    ),
]
Domain = Annotated[
    str | None,
    typer.Option(
        "--domain",
        help="The judge's mail domain: its address judge@DOMAIN, and each seat's (default localhost; FOGDIP_MAIL_DOMAIN).",
    ),
]
Relay = Annotated[
    str | None,
    typer.Option(
        "--relay", help="HOST:PORT of the SMTP relay mail goes out through (default 127.0.0.1:25; FOGDIP_RELAY)."
    ),
]
RelayTls = Annotated[
    str | None,
    typer.Option("--relay-tls", help="none, starttls or tls (default none; FOGDIP_RELAY_TLS)."),
]
RelayUser = Annotated[
    str | None, typer.Option("--relay-user", help="The relay's login, if it asks for one (FOGDIP_RELAY_USER).")
]
RelayPassword = Annotated[
    str | None,
    typer.Option(
        "--relay-password",
        help="The relay's password (better: FOGDIP_RELAY_PASSWORD, which no process list shows).",
    ),
]
RelayCafile = Annotated[
    str | None,
    typer.Option(
        "--relay-cafile", help="Certificates to trust for the relay's TLS, a private CA's (FOGDIP_RELAY_CAFILE)."
    ),
]

ImapHost = Annotated[
    str | None,
    typer.Option(
        "--imap-host",
        help="An IMAP server to poll for the judge's mail (FOGDIP_IMAP_HOST); its password: FOGDIP_IMAP_PASSWORD.",
    ),
]
ImapUser = Annotated[str | None, typer.Option("--imap-user", help="The IMAP mailbox's login (FOGDIP_IMAP_USER).")]
ImapTls = Annotated[
    str | None, typer.Option("--imap-tls", help="tls, starttls or none (default tls; FOGDIP_IMAP_TLS).")
]
ImapPort = Annotated[
    int | None, typer.Option("--imap-port", help="The IMAP port (default 993 with tls, else 143; FOGDIP_IMAP_PORT).")
]
ImapFolder = Annotated[
    str | None, typer.Option("--imap-folder", help="The folder polled (default INBOX; FOGDIP_IMAP_FOLDER).")
]
ImapDoneFolder = Annotated[
    str | None,
    typer.Option(
        "--imap-done-folder",
        help="A folder handled mail is moved to (default: it stays, marked seen; FOGDIP_IMAP_DONE_FOLDER).",
    ),
]
ImapEvery = Annotated[
    float | None, typer.Option("--imap-every", help="Seconds between polls (default 60; FOGDIP_IMAP_EVERY).")
]
MailHold = Annotated[
    float | None,
    typer.Option(
        "--mail-hold",
        help="Seconds each turn's, end's, press and reminder mails are held after their event, so that all "
        "go out together and their timing tells no player how many play by mail (default 30; 0: none; "
        "FOGDIP_MAIL_HOLD).",
    ),
]
MailSpread = Annotated[
    float | None,
    typer.Option(
        "--mail-spread",
        help="Seconds over which held mails are spread after the hold: each mail its own random send moment "
        "in that span, so that when it comes does not depend on how many others were sent before it "
        "(default 60; 0: none; FOGDIP_MAIL_SPREAD).",
    ),
]


def mail_settings(
    smtp_listen: str | None,
    domain: str | None,
    relay: str | None,
    relay_tls: str | None,
    relay_user: str | None,
    relay_password: str | None,
    imap_host: str | None = None,
    imap_user: str | None = None,
    imap_tls: str | None = None,
    imap_port: int | None = None,
    imap_folder: str | None = None,
    imap_done_folder: str | None = None,
    imap_every: float | None = None,
    relay_cafile: str | None = None,
    mail_hold: float | None = None,
    mail_spread: float | None = None,
) -> MailSettings:
    """The judge's settings: flags over ``FOGDIP_*`` variables over defaults."""
    from fogdip.mail.config import MailSettings

    return MailSettings.from_env().with_overrides(
        imap_host=imap_host,
        imap_user=imap_user,
        imap_tls=imap_tls,
        imap_port=imap_port,
        imap_folder=imap_folder,
        imap_done_folder=imap_done_folder,
        imap_every=imap_every,
        relay_cafile=relay_cafile,
        hold=mail_hold,
        spread=mail_spread,
        smtp_listen=smtp_listen,
        domain=domain,
        relay=relay,
        relay_tls=relay_tls,
        relay_user=relay_user,
        relay_password=relay_password,
    )


__all__ = [
    "Domain",
    "ImapDoneFolder",
    "ImapEvery",
    "ImapFolder",
    "ImapHost",
    "ImapPort",
    "ImapTls",
    "ImapUser",
    "MailHold",
    "MailSpread",
    "Relay",
    "RelayCafile",
    "RelayPassword",
    "RelayTls",
    "RelayUser",
    "SmtpListen",
    "mail_settings",
]
