"""What the judge keeps no longer than it needs: the Message-IDs of mails it acted on (kept
:attr:`MailSettings.keep_days`, to know a mail delivered twice), when it last refused a sender
(a day, or the refusal interval if longer), and mails sent (``keep_days``; a mail not yet sent
is never pruned). The judge's loop prunes at most once an hour (:func:`prune_due`).

>>> from datetime import UTC
>>> older = limits(MailSettings(keep_days=30), datetime(2026, 3, 1, tzinfo=UTC))
>>> [str(moment.date()) for moment in (older.seen, older.refused, older.sent)]
['2026-01-30', '2026-02-28', '2026-01-30']
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete

from fogdip.mail.config import MailSettings
from fogdip.server.db import Database
from fogdip.server.models import MailRefusal, MailSeen, OutboxMail

#: The least time between two prunings.
PRUNE_EVERY = timedelta(hours=1)


@dataclass(frozen=True)
class Limits:
    """What is older than these goes: a mail acted on, a refusal, a mail sent."""

    seen: datetime
    refused: datetime
    sent: datetime


@dataclass(frozen=True)
class Pruned:
    """How many rows went: Message-IDs, refusals, mails sent."""

    seen: int
    refused: int
    sent: int


def limits(settings: MailSettings, moment: datetime) -> Limits:
    """The limits at ``moment``."""
    kept = timedelta(days=settings.keep_days)
    refused = max(timedelta(days=1), timedelta(seconds=settings.refusal_every))
    return Limits(moment - kept, moment - refused, moment - kept)


def prune(db: Database, settings: MailSettings, moment: datetime) -> Pruned:
    """Delete, in one transaction, what is older than :func:`limits` says."""
    older = limits(settings, moment)
    with db.transaction() as session:
        seen = session.execute(delete(MailSeen).where(MailSeen.received_at < older.seen))
        refused = session.execute(delete(MailRefusal).where(MailRefusal.answered_at < older.refused))
        sent = session.execute(
            delete(OutboxMail).where(OutboxMail.sent_at.is_not(None), OutboxMail.sent_at < older.sent)
        )
        return Pruned(*(int(getattr(done, "rowcount", 0) or 0) for done in (seen, refused, sent)))


def prune_due(db: Database, settings: MailSettings, moment: datetime, last: datetime | None) -> bool:
    """Prune if the last pruning (``last``; ``None``: none yet) is :data:`PRUNE_EVERY` ago or
    more. Whether it pruned."""
    if last is not None and moment - last < PRUNE_EVERY:
        return False
    prune(db, settings, moment)
    return True


__all__ = ["PRUNE_EVERY", "Limits", "Pruned", "limits", "prune", "prune_due"]
