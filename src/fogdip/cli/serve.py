"""``fogdip serve`` and ``fogdip db upgrade``: the server, on the embedded SQLite database by
default or PostgreSQL with ``--database``. Settings come from flags, else ``FOGDIP_*``
environment variables (docs/server.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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

db_app = typer.Typer(name="db", help="The server's database: upgrade applies its migrations.", no_args_is_help=True)

DataOption = Annotated[
    Path | None,
    typer.Option(
        "--data", help="Data directory for the embedded database (default ~/.local/share/fogdip; FOGDIP_DATA)."
    ),
]
DatabaseOption = Annotated[
    str | None,
    typer.Option(
        "--database",
        help="A database URL instead of the embedded SQLite, e.g. postgresql+psycopg://user:pw@host/db (FOGDIP_DATABASE).",
    ),
]


def _settings(data: Path | None, database: str | None, **more: object) -> object:
    from fogdip.server.config import Settings

    return Settings.from_env().with_overrides(data_dir=data, database=database, **more)


def serve(
    data: DataOption = None,
    database: DatabaseOption = None,
    host: Annotated[
        str | None, typer.Option("--host", help="Address to listen on (default 127.0.0.1; FOGDIP_HOST).")
    ] = None,
    port: Annotated[int | None, typer.Option("--port", help="Port to listen on (default 8500; FOGDIP_PORT).")] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A reverse proxy's address or network whose X-Forwarded-For is believed; repeat for several "
            "(default none: the header is ignored; FOGDIP_TRUSTED_PROXIES, separated by commas).",
        ),
    ] = None,
    with_mail: Annotated[
        bool,
        typer.Option("--mail", help="Run the e-mail judge in the server's process too (its flags below; fogdip mail)."),
    ] = False,
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
    """Run the fogdip server. With no arguments: the embedded SQLite database in the data
    directory, nothing to set up; its migrations are applied at start. With ``--mail``, the
    e-mail judge too, on the server's own database: every turn the server plays wakes the
    judge's loop, which queues the turn's mails right after."""
    import uvicorn

    from fogdip.server.config import Settings
    from fogdip.web import create_site

    with errors():
        proxies = tuple(trusted_proxy) if trusted_proxy else None
        settings = _settings(data, database, host=host, port=port, trusted_proxies=proxies)
        assert isinstance(settings, Settings)
        app = create_site(settings)
        judge = None
        if with_mail:
            from fogdip.mail.service import MailService

            state = app.state.fogdip
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
            judge = MailService(state.db, state.reads, chosen)
    where = (
        f"the embedded SQLite database {settings.data_dir / 'fogdip.sqlite3'} (one process)"
        if settings.is_sqlite
        else "PostgreSQL"
    )
    shown = "localhost" if settings.host in ("127.0.0.1", "0.0.0.0") else settings.host
    typer.echo(f"fogdip is serving at http://{shown}:{settings.port}/ (API described at /docs), on {where}.")
    typer.echo("Press Ctrl+C to stop.")
    log_as_json(settings.log_level)
    if judge is not None:
        # Started before the server: its SMTP server and loop wait out the migrations the
        # server applies as it starts (the loop's first round comes after a few seconds).
        judge.start()
        typer.echo(f"The e-mail judge runs at {judge.settings.judge}, SMTP on port {judge.smtp_port}.")
    # An idle connection is kept longer than clients keep theirs (httpx: 5 s; a reverse proxy's
    # pool: 60 s), so that the server never closes one just as a client sends on it.
    # X-Forwarded-For is believed from the proxies named only: uvicorn's own default believes it
    # from 127.0.0.1, where a proxy on this machine that passes on what its clients sent (or any
    # local process) would let every client name its own address, and dodge every limit.
    try:
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level,
            timeout_keep_alive=75,
            ws=WS,
            proxy_headers=bool(settings.trusted_proxies),
            forwarded_allow_ips=list(settings.trusted_proxies),
        )
    finally:
        if judge is not None:
            judge.stop()


#: uvicorn's WebSocket protocol: the sans-I/O implementation keeps each open stream to a few
#: objects (the default keeps a few dozen coroutines and tasks for each, which the garbage
#: collector must walk again and again with hundreds of streams open).
WS = "websockets-sansio"


def log_as_json(level: str) -> None:
    """fogdip's own log (``fogdip.*``) as one JSON object per line on standard error. Up to
    warnings it never holds a hidden fact, only ids, turns and counts; an error, for the admin
    alone, may say why a stored game cannot be read, naming its units (see docs/server.md)."""
    import json
    import logging

    class JsonLines(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            entry = {
                "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
                "level": record.levelname.lower(),
                "logger": record.name,
                "message": record.getMessage(),
            }
            if record.exc_info:
                entry["error"] = self.formatException(record.exc_info)
            return json.dumps(entry)

    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("fogdip")
    logger.handlers[:] = [handler]
    logger.setLevel(level.upper())
    logger.propagate = False


@db_app.command()
def upgrade(data: DataOption = None, database: DatabaseOption = None) -> None:
    """Apply the database's migrations (fogdip serve also does it when it starts)."""
    from fogdip.server.config import Settings
    from fogdip.server.db import Database

    with errors():
        settings = _settings(data, database)
        assert isinstance(settings, Settings)
        db = Database(settings.database_url)
        before = db.revision()
        damaged = db.upgrade()
        after = db.revision()
        db.dispose()
    for reason in damaged:
        typer.echo(f"fogdip: warning: {reason}; it was left as it was", err=True)
    typer.echo(f"Database at migration {after}" + ("" if before == after else f" (was {before or 'empty'})") + ".")
