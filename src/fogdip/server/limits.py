"""Limits kept per client besides the request rate (``fogdip.server.app.RateGuard``): failed
sign-ins, and open live streams. Each server keeps its own on its state (never at module
level); each process of a scaled-out server counts its own share.

A client is counted by its address, as the request came (``X-Forwarded-For`` only from a proxy
the operator trusts: ``fogdip serve --trusted-proxy``): an IPv6 address by its /64 network, which
one subscriber commonly holds whole.

>>> address_of({"client": ("2001:db8:1:2:3:4:5:6", 443)}), address_of({"client": ("::ffff:10.0.0.1", 1)})
('2001:db8:1:2::/64', '10.0.0.1')
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

K = TypeVar("K")

#: A live stream's close code when a limit refuses it: the application's range (4000-4999), like
#: HTTP's 429.
STREAM_SLOW_DOWN = 4429


def address_of(scope: Mapping[str, Any]) -> str:
    """The address an ASGI request (or WebSocket) came from, as limits count it."""
    client = scope.get("client")
    if not client:
        return "?"
    host = str(client[0])
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an IP address (a Unix socket's peer): counted as it is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host


@dataclass(frozen=True)
class Throttled:
    """A sign-in refused before its password is checked: why, and the seconds to wait."""

    wait: int
    message: str


class SignInThrottle:
    """Failed sign-ins, each remembered for ``window`` seconds. An address that failed
    ``per_name`` times with one name may not try that name again until the oldest of those
    failures is ``window`` old; one that failed ``per_address`` times, whatever the names, may
    not try any. A refused attempt is answered at once: no password is checked, so a flood of
    them costs the server next to nothing, and it is not counted as a failure.

    A name is counted alike whether an account has it or not (the throttle tells nothing of
    which names exist), and kept as a digest (a password typed into the name field is not kept).
    A success clears that name's failures from that address only: not the address's own count
    (an attacker signing into its own account between guesses at others' would clear it), and
    never another address's. So an attacker who fails from one address never shuts the
    account's owner out from another.

    >>> throttle = SignInThrottle(window=60, per_name=2, per_address=3)
    >>> for moment in (0.0, 1.0):
    ...     throttle.failed("alice", "10.0.0.1", now=moment)
    >>> throttle.check("alice", "10.0.0.1", now=2.0).wait
    58
    >>> throttle.check("alice", "10.0.0.2", now=2.0) is None, throttle.check("bob", "10.0.0.1", now=2.0) is None
    (True, True)
    >>> throttle.failed("bob", "10.0.0.1", now=3.0)
    >>> throttle.check("carol", "10.0.0.1", now=3.0).message.startswith("too many failed sign-ins from your address")
    True
    >>> throttle.check("alice", "10.0.0.1", now=61.0) is None  # the first failure is forgotten
    True
    """

    def __init__(self, window: float = 900.0, per_name: int = 5, per_address: int = 20) -> None:
        self.window = window
        self.per_name = per_name
        self.per_address = per_address
        #: Failure times, newest last, by (name digest, address) and by (address,).
        self._failures: dict[tuple[str, ...], deque[float]] = {}
        self._lock = threading.Lock()  # sign-ins may run on more than one thread
        self._forget_past = 10_000

    def check(self, name: str, address: str, now: float | None = None) -> Throttled | None:
        """Whether a sign-in as ``name`` (its key: the name casefolded) from ``address`` must
        wait, and how long; ``None`` if it may go ahead."""
        now = time.monotonic() if now is None else now
        with self._lock:
            by_address = self._wait((address,), self.per_address, now)
            if by_address:
                return Throttled(
                    by_address,
                    f"too many failed sign-ins from your address, whatever the name: try again in {by_address} s",
                )
            by_name = self._wait((_digest(name), address), self.per_name, now)
            if by_name:
                return Throttled(
                    by_name,
                    f"too many failed sign-ins with this name from your address: try again in {by_name} s, "
                    "or reset the password with the server's admin",
                )
        return None

    def failed(self, name: str, address: str, now: float | None = None) -> None:
        """Count a failed sign-in as ``name`` from ``address``."""
        now = time.monotonic() if now is None else now
        with self._lock:
            for key, limit in (((_digest(name), address), self.per_name), ((address,), self.per_address)):
                self._failures.setdefault(key, deque(maxlen=limit)).append(now)
            if len(self._failures) > self._forget_past:
                self._forget(now)

    def succeeded(self, name: str, address: str) -> None:
        """A sign-in as ``name`` from ``address`` succeeded: its failures with that name from
        there are cleared (nothing else)."""
        with self._lock:
            self._failures.pop((_digest(name), address), None)

    def _wait(self, key: tuple[str, ...], limit: int, now: float) -> int:
        """Seconds until ``key`` may try again: 0 if it may now."""
        failures = self._failures.get(key)
        if failures is None or len(failures) < limit:
            return 0
        left = failures[0] + self.window - now
        return max(1, math.ceil(left)) if left > 0 else 0

    def _forget(self, now: float) -> None:
        """Drop what is older than the window (now and then: as the table grows)."""
        self._failures = {key: times for key, times in self._failures.items() if times[-1] + self.window > now}
        self._forget_past = max(10_000, 2 * len(self._failures))


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()


class StreamSlots:
    """Open live streams, counted per account and per address, each up to its cap. Used on the
    event loop only (a slot is taken and given back between awaits), so it needs no lock.

    >>> slots = StreamSlots(per_account=1, per_address=2)
    >>> slots.take(1, "10.0.0.1") is None, slots.take(2, "10.0.0.1") is None
    (True, True)
    >>> slots.take(1, "10.0.0.2")
    'at most 1 streams open per account: close one first (one stream a game is enough)'
    >>> slots.take(3, "10.0.0.1")[:36]
    'at most 2 streams open per address: '
    >>> slots.give_back(2, "10.0.0.1")
    >>> slots.take(3, "10.0.0.1") is None
    True
    """

    def __init__(self, per_account: int, per_address: int) -> None:
        self.per_account = per_account
        self.per_address = per_address
        self._accounts: dict[int, int] = {}
        self._addresses: dict[str, int] = {}

    def take(self, account: int, address: str) -> str | None:
        """Count a new stream of ``account`` from ``address``: ``None`` if it may open, else
        why not (a WebSocket close reason, under 123 bytes)."""
        if self._accounts.get(account, 0) >= self.per_account:
            return f"at most {self.per_account} streams open per account: close one first (one stream a game is enough)"
        if self._addresses.get(address, 0) >= self.per_address:
            return (
                f"at most {self.per_address} streams open per address: close one first, "
                "or ask the admin to raise FOGDIP_STREAMS_PER_ADDRESS"
            )
        self._accounts[account] = self._accounts.get(account, 0) + 1
        self._addresses[address] = self._addresses.get(address, 0) + 1
        return None

    def give_back(self, account: int, address: str) -> None:
        """A stream :meth:`take` let open has closed."""
        _less(self._accounts, account)
        _less(self._addresses, address)


def _less(counts: dict[K, int], key: K) -> None:
    """One fewer of ``key``; none left: forgotten."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
