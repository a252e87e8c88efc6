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


def mail_settings(
    smtp_listen: str | None,
    domain: str | None,
    relay: str | None,
    relay_tls: str | None,
    relay_user: str | None,
    relay_password: str | None,
) -> MailSettings:
    """The judge's settings: flags over ``FOGDIP_*`` variables over defaults."""
    from fogdip.mail.config import MailSettings

    return MailSettings.from_env().with_overrides(
        smtp_listen=smtp_listen,
        domain=domain,
        relay=relay,
        relay_tls=relay_tls,
        relay_user=relay_user,
        relay_password=relay_password,
    )


__all__ = ["Domain", "Relay", "RelayPassword", "RelayTls", "RelayUser", "SmtpListen", "mail_settings"]
