"""How the e-mail judge is set up: flags, else ``FOGDIP_*`` environment variables.

>>> settings = MailSettings.from_env({"FOGDIP_MAIL_DOMAIN": "judge.example", "FOGDIP_RELAY": "mx.example:587"})
>>> settings.judge, settings.relay, settings.relay_tls
('judge@judge.example', ('mx.example', 587), 'none')
>>> settings.seat_address("Ab12", "FRANCE", "9f")
'ab12-france-9f@judge.example'
>>> "hunter2" in repr(settings.with_overrides(relay_password="hunter2", imap_password="hunter2"))
False
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from fogdip.server.config import SettingError

TLS_MODES = ("none", "starttls", "tls")

#: The fewest days a mail's Message-ID is kept (``FOGDIP_MAIL_KEEP_DAYS``): more than the ~5
#: days mail servers retry a mail for, so that a mail delivered again is known again.
LEAST_KEEP_DAYS = 7.0


def host_port(value: str, name: str, default_port: int) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``, on ``default_port``).

    >>> host_port("127.0.0.1:2525", "--smtp-listen", 25), host_port("mx", "--relay", 25)
    (('127.0.0.1', 2525), ('mx', 25))
    """
    host, colon, port = value.rpartition(":")
    if not colon:
        return value, default_port
    if not port.isdigit() or not host:
        raise SettingError(f"{name} is HOST:PORT, e.g. 127.0.0.1:2525, not {value!r}")
    return host.strip("[]"), int(port)


@dataclass(frozen=True)
class MailSettings:
    """The judge's settings. ``domain`` makes every address (``judge@domain``, and each
    seat's); the SMTP server listens on ``smtp_listen`` (``None``: none runs, as with IMAP
    only); mail goes out through ``relay``."""

    domain: str = "localhost"
    smtp_listen: tuple[str, int] | None = ("127.0.0.1", 2525)
    relay: tuple[str, int] = ("127.0.0.1", 25)
    relay_tls: str = "none"
    relay_user: str | None = None
    relay_password: str | None = field(default=None, repr=False)
    #: Certificates to trust for the relay's TLS (a private CA's), beside the system's.
    relay_cafile: str | None = None
    #: Largest mail taken, in bytes (bigger: 552).
    max_size: int = 2 * 1024 * 1024
    #: Seconds between the sender's looks at the outbox (and at reminders due).
    send_every: float = 2.0
    #: Seconds a sender without a secret waits for the judge's next answer.
    refusal_every: float = 600.0
    #: Seconds to the first retry of a mail the relay did not take (doubling, to an hour).
    retry_first: float = 30.0
    #: Whether mails carry maps (PNG): off only to spare the time where they are not wanted.
    maps: bool = True
    #: An IMAP mailbox polled for mail (none: only the SMTP server takes it in).
    imap_host: str | None = None
    imap_user: str | None = None
    imap_password: str | None = field(default=None, repr=False)
    imap_tls: str = "tls"
    imap_port: int | None = None
    imap_folder: str = "INBOX"
    imap_done_folder: str | None = None
    imap_every: float = 60.0
    #: Seconds every mail that follows from an event shared by several seats (a turn, the
    #: game's end, a message of press, a round of reminders) is held after the event's
    #: moment before it may go out: all of them go out together, in random order, whatever
    #: building them took, so that no player can tell from when its mail came how many others
    #: play by mail (each needs its map drawn, ~0.3 s on a slow machine: seven take ~2 s).
    #: 30 s is many times what seven maps take on a slow machine; a floor, not a promise:
    #: mails built after it go out when built (and the log says the hold was too short).
    #: 0: no hold (tests; a judge whose players all know who plays by mail).
    hold: float = 30.0
    #: Seconds over which the held mails of one event are spread: each its own send moment,
    #: the event's moment plus the hold plus a draw of its own, uniform in 0 to ``spread``
    #: (the OS's randomness). A mail's send moment then depends on nothing but its own draw:
    #: not on how many mails of other seats went ahead of it through the relay (each costs a
    #: send). 0: no spread, every held mail at the event's moment plus the hold (tests).
    spread: float = 60.0
    #: Days a mail's Message-ID is kept to know it again, and a sent mail kept in the outbox:
    #: at least :data:`LEAST_KEEP_DAYS` (mail servers retry a mail for up to ~5 days: one
    #: delivered again after its Message-ID was forgotten would act twice).
    keep_days: float = 30.0
    #: Attempts at a mail the relay keeps refusing (or cannot be reached for) before it is
    #: given up on (kept as done, with why): ~3 days at the longest wait between attempts
    #: (an hour). While a mail waits for its next attempt, its recipient's later mails wait
    #: behind it (:func:`fogdip.mail.outbox.due`); a refusal for good (5xx) is given up at once.
    attempts: int = 72

    def __post_init__(self) -> None:
        if not self.hold >= 0 or self.hold > 86400:
            raise SettingError(f"--mail-hold is seconds, 0 to 86400, not {self.hold!r}")
        if not self.spread >= 0 or self.spread > 86400:
            raise SettingError(f"--mail-spread is seconds, 0 to 86400, not {self.spread!r}")
        if not self.keep_days >= LEAST_KEEP_DAYS:
            raise SettingError(
                f"FOGDIP_MAIL_KEEP_DAYS is days, at least {LEAST_KEEP_DAYS:g} (mail servers retry a mail for "
                f"up to 5 days: a mail delivered again after it was forgotten would act twice), not {self.keep_days!r}"
            )
        if self.attempts < 1:
            raise SettingError(f"the attempts at a mail are at least 1, not {self.attempts!r}")
        if self.relay_tls not in TLS_MODES:
            raise SettingError(f"--relay-tls is one of {', '.join(TLS_MODES)}, not {self.relay_tls!r}")
        if self.imap_tls not in TLS_MODES:
            raise SettingError(f"--imap-tls is one of {', '.join(TLS_MODES)}, not {self.imap_tls!r}")
        if self.imap_host and not self.imap_user:
            raise SettingError("--imap-host needs --imap-user (and FOGDIP_IMAP_PASSWORD)")
        if not self.domain or "@" in self.domain:
            raise SettingError(f"--domain is the judge's mail domain, e.g. judge.example.org, not {self.domain!r}")

    @property
    def judge(self) -> str:
        """The judge's general address: SIGNON mails, and the sender of every mail."""
        return f"judge@{self.domain}"

    def seat_address(self, game: str, power: str, secret: str) -> str:
        """A seat's own address at the judge (or the game master's, ``power`` ``master``)."""
        return f"{game.lower()}-{power.lower().lstrip('+')}-{secret}@{self.domain}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MailSettings:
        """Settings from ``FOGDIP_MAIL_DOMAIN``, ``FOGDIP_SMTP_LISTEN``, ``FOGDIP_RELAY``,
        ``FOGDIP_RELAY_TLS``, ``FOGDIP_RELAY_USER``, ``FOGDIP_RELAY_PASSWORD``, ``FOGDIP_RELAY_CAFILE``, and the IMAP
        mailbox's ``FOGDIP_IMAP_HOST``, ``FOGDIP_IMAP_USER``, ``FOGDIP_IMAP_PASSWORD``,
        ``FOGDIP_IMAP_TLS``, ``FOGDIP_IMAP_PORT``, ``FOGDIP_IMAP_FOLDER``,
        ``FOGDIP_IMAP_DONE_FOLDER``, ``FOGDIP_IMAP_EVERY``; ``FOGDIP_MAIL_HOLD`` and
        ``FOGDIP_MAIL_SPREAD`` (seconds) and ``FOGDIP_MAIL_KEEP_DAYS``.

        >>> MailSettings.from_env({"FOGDIP_MAIL_HOLD": "0"}).hold, MailSettings.from_env({}).hold
        (0.0, 30.0)
        >>> MailSettings.from_env({"FOGDIP_MAIL_SPREAD": "0"}).spread, MailSettings.from_env({}).spread
        (0.0, 60.0)
        """
        env = os.environ if env is None else env
        port, every = env.get("FOGDIP_IMAP_PORT"), env.get("FOGDIP_IMAP_EVERY")
        hold, keep = env.get("FOGDIP_MAIL_HOLD"), env.get("FOGDIP_MAIL_KEEP_DAYS")
        spread = env.get("FOGDIP_MAIL_SPREAD")
        try:
            imap_port = int(port) if port else None
            imap_every = float(every) if every else None
        except ValueError:
            raise SettingError("FOGDIP_IMAP_PORT is a port number, FOGDIP_IMAP_EVERY seconds") from None
        try:
            mail_hold = float(hold) if hold else None
            mail_spread = float(spread) if spread else None
            keep_days = float(keep) if keep else None
        except ValueError:
            raise SettingError(
                "FOGDIP_MAIL_HOLD and FOGDIP_MAIL_SPREAD are seconds, FOGDIP_MAIL_KEEP_DAYS days"
            ) from None
        return cls().with_overrides(
            hold=mail_hold,
            spread=mail_spread,
            keep_days=keep_days,
            imap_host=env.get("FOGDIP_IMAP_HOST") or None,
            imap_user=env.get("FOGDIP_IMAP_USER") or None,
            imap_password=env.get("FOGDIP_IMAP_PASSWORD") or None,
            imap_tls=env.get("FOGDIP_IMAP_TLS") or None,
            imap_port=imap_port,
            imap_folder=env.get("FOGDIP_IMAP_FOLDER") or None,
            imap_done_folder=env.get("FOGDIP_IMAP_DONE_FOLDER") or None,
            imap_every=imap_every,
            domain=env.get("FOGDIP_MAIL_DOMAIN") or None,
            smtp_listen=env.get("FOGDIP_SMTP_LISTEN") or None,
            relay=env.get("FOGDIP_RELAY") or None,
            relay_tls=env.get("FOGDIP_RELAY_TLS") or None,
            relay_user=env.get("FOGDIP_RELAY_USER") or None,
            relay_password=env.get("FOGDIP_RELAY_PASSWORD") or None,
            relay_cafile=env.get("FOGDIP_RELAY_CAFILE") or None,
        )

    def with_overrides(self, **values: object) -> MailSettings:
        """These settings with every value that is not ``None`` replaced; ``smtp_listen``
        and ``relay`` may be given as ``HOST:PORT`` (``smtp_listen`` ``off``: no SMTP server)."""
        given = {key: value for key, value in values.items() if value is not None}
        listen = given.get("smtp_listen")
        if isinstance(listen, str):
            given["smtp_listen"] = None if listen.lower() == "off" else host_port(listen, "--smtp-listen", 25)
        relay = given.get("relay")
        if isinstance(relay, str):
            given["relay"] = host_port(relay, "--relay", 25)
        return replace(self, **given)  # type: ignore[arg-type]


__all__ = ["LEAST_KEEP_DAYS", "TLS_MODES", "MailSettings", "host_port"]
