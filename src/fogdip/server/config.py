"""How a server is set up: flags and ``FOGDIP_*`` environment variables, read once at start.

>>> settings = Settings.from_env({"FOGDIP_PORT": "9000", "FOGDIP_DATA": "/tmp/fd"})
>>> settings.port, settings.database_url
(9000, 'sqlite:////tmp/fd/fogdip.sqlite3')
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from fogdip.engine.errors import FogdipError

DEFAULT_PORT = 8500


class SettingError(FogdipError):
    """A setting (a flag or a ``FOGDIP_*`` variable) that cannot be used: which, and why."""


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/fogdip``, else ``~/.local/share/fogdip``."""
    base = os.environ.get("XDG_DATA_HOME")
    return (Path(base) if base else Path.home() / ".local" / "share") / "fogdip"


@dataclass(frozen=True)
class Settings:
    """A server's settings. ``database`` is a SQLAlchemy URL; empty means the embedded SQLite
    database in ``data_dir``."""

    data_dir: Path
    database: str = ""
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    #: Largest request body accepted, in bytes.
    max_body: int = 256 * 1024
    #: Largest game file imported, in bytes: a long game's file (every turn's records and
    #: reports) is about 12 KB a turn.
    max_import: int = 8 * 1024 * 1024
    #: Requests a client may make per minute (per account, or per address when signed out).
    rate_per_minute: int = 600
    log_level: str = "info"
    #: Mark the session cookie Secure (behind HTTPS, as in production).
    secure_cookies: bool = False
    #: How often, in seconds, the server looks for games whose deadline has passed.
    deadline_check: float = 1.0
    #: Worker threads for requests (each request's database work and game logic runs on one).
    #: Two: Python runs one thread at a time, and a request's work is mostly the interpreter's
    #: (SQLite answers within the process; PostgreSQL on this machine within a millisecond), so
    #: more threads only share the core in slices, and a burst of requests all finish late
    #: together, where two serve them nearly in turn while one can wait (for a password's hash,
    #: the disk, a lock, the database) as the other runs. More may serve a database far away.
    threads: int = 2
    #: Seconds between the garbage collector's full passes, made by the server itself
    #: (``fogdip.server.memory``); 0: Python's own schedule.
    gc_every: float = 300.0
    #: The reverse proxies whose ``X-Forwarded-For`` is believed (addresses or networks). None
    #: by default: the header is anyone's to invent, so the address a request came from is its
    #: client's, for the rate limits and every other limit kept per address.
    trusted_proxies: tuple[str, ...] = ()
    #: Live streams (WebSockets) one account, and one address, may hold open, per process.
    streams_per_account: int = 16
    streams_per_address: int = 64

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise SettingError(f"FOGDIP_THREADS must be at least 1, not {self.threads}")
        if not self.gc_every >= 0:
            raise SettingError(
                f"FOGDIP_GC_EVERY must be 0 (Python's own schedule) or more seconds, not {self.gc_every}"
            )
        for name, value in (
            ("FOGDIP_STREAMS_PER_ACCOUNT", self.streams_per_account),
            ("FOGDIP_STREAMS_PER_ADDRESS", self.streams_per_address),
        ):
            if value < 1:
                raise SettingError(f"{name} must be at least 1, not {value}")
        for proxy in self.trusted_proxies:
            _check_proxy(proxy)

    @property
    def database_url(self) -> str:
        return self.database or f"sqlite:///{self.data_dir / 'fogdip.sqlite3'}"

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``FOGDIP_DATA``, ``FOGDIP_DATABASE``, ``FOGDIP_HOST``, ``FOGDIP_PORT``,
        ``FOGDIP_MAX_BODY``, ``FOGDIP_MAX_IMPORT``, ``FOGDIP_RATE``, ``FOGDIP_LOG_LEVEL``, ``FOGDIP_SECURE_COOKIES``,
        ``FOGDIP_DEADLINE_CHECK``, ``FOGDIP_THREADS``, ``FOGDIP_GC_EVERY``,
        ``FOGDIP_TRUSTED_PROXIES`` (separated by commas), ``FOGDIP_STREAMS_PER_ACCOUNT`` and
        ``FOGDIP_STREAMS_PER_ADDRESS``."""
        env = os.environ if env is None else env
        settings = cls(Path(env["FOGDIP_DATA"]) if env.get("FOGDIP_DATA") else default_data_dir())
        return settings.with_overrides(
            database=env.get("FOGDIP_DATABASE"),
            host=env.get("FOGDIP_HOST"),
            port=_int(env, "FOGDIP_PORT"),
            max_body=_int(env, "FOGDIP_MAX_BODY"),
            max_import=_int(env, "FOGDIP_MAX_IMPORT"),
            rate_per_minute=_int(env, "FOGDIP_RATE"),
            log_level=env.get("FOGDIP_LOG_LEVEL"),
            secure_cookies=env.get("FOGDIP_SECURE_COOKIES", "").lower() in ("1", "true", "yes") or None,
            deadline_check=_float(env, "FOGDIP_DEADLINE_CHECK"),
            threads=_int(env, "FOGDIP_THREADS"),
            gc_every=_float(env, "FOGDIP_GC_EVERY"),
            trusted_proxies=proxies(env.get("FOGDIP_TRUSTED_PROXIES")),
            streams_per_account=_int(env, "FOGDIP_STREAMS_PER_ACCOUNT"),
            streams_per_address=_int(env, "FOGDIP_STREAMS_PER_ADDRESS"),
        )

    def with_overrides(self, **values: object) -> Settings:
        """These settings with every value that is not ``None`` replaced (flags over the
        environment)."""
        given = {key: value for key, value in values.items() if value is not None}
        if isinstance(given.get("data_dir"), str):
            given["data_dir"] = Path(str(given["data_dir"]))
        return replace(self, **given)  # type: ignore[arg-type]


def _int(env: Mapping[str, str], name: str) -> int | None:
    value = env.get(name)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise SettingError(f"{name} must be a whole number, not {value!r}") from None


def _float(env: Mapping[str, str], name: str) -> float | None:
    value = env.get(name)
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        raise SettingError(f"{name} must be a number of seconds, not {value!r}") from None


def proxies(listed: str | None) -> tuple[str, ...] | None:
    """The proxies of ``FOGDIP_TRUSTED_PROXIES``, separated by commas (``None`` if unset).

    >>> proxies("127.0.0.1, 10.0.0.0/8")
    ('127.0.0.1', '10.0.0.0/8')
    """
    if listed is None:
        return None
    return tuple(part.strip() for part in listed.split(",") if part.strip())


def _check_proxy(proxy: str) -> None:
    """A trusted proxy is an IP address or network; anything else (a name, ``*``) is refused at
    start, where uvicorn would quietly never match it, or trust every client to name itself.

    >>> try:
    ...     _check_proxy("*")
    ... except SettingError as exc:
    ...     print(exc)
    FOGDIP_TRUSTED_PROXIES (--trusted-proxy) names a reverse proxy by its IP address or network, such as 127.0.0.1 or 10.0.0.0/8, not '*'; trusting every address would let any client name its own
    """
    try:
        ipaddress.ip_network(proxy, strict=False)
    except ValueError:
        anyone = "; trusting every address would let any client name its own" if proxy == "*" else ""
        raise SettingError(
            "FOGDIP_TRUSTED_PROXIES (--trusted-proxy) names a reverse proxy by its IP address or network, "
            f"such as 127.0.0.1 or 10.0.0.0/8, not {proxy!r}{anyone}"
        ) from None
