"""Secrets: passwords hashed with Argon2id, random tokens kept as their SHA-256.

>>> hashed = hash_password("correct horse")
>>> verify_password(hashed, "correct horse"), verify_password(hashed, "wrong")
(True, False)
>>> token = new_secret()
>>> len(token) >= 40 and token_digest(token) == token_digest(token)
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError


@cache
def _hasher() -> PasswordHasher:
    """Argon2id with the library's current recommended parameters (immutable, shared)."""
    return PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _hasher().verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


#: A hash of nothing, checked when a name is unknown, so that signing in takes as long for a
#: name that does not exist as for a wrong password.
def dummy_verify(password: str) -> None:
    verify_password(_dummy_hash(), password)


@cache
def _dummy_hash() -> str:
    return hash_password(secrets.token_urlsafe(16))


def new_secret() -> str:
    """A random secret for a token, a session or an invitation (256 bits)."""
    return secrets.token_urlsafe(32)


def mail_secret() -> str:
    """A seat's secret at the e-mail judge, in its address: 128 random bits as lowercase hex
    (a mail server may fold an address's case).

    >>> secret = mail_secret()
    >>> len(secret), secret == secret.lower()
    (32, True)
    """
    return secrets.token_hex(16)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same(one: str, two: str) -> bool:
    """Compare secrets in constant time."""
    return hmac.compare_digest(one.encode("utf-8"), two.encode("utf-8"))
