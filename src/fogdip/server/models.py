"""The server's tables. A game's row holds its settings, status, clock and the position to
play next; each turn played is appended as a row of its own (``turns``), with each power's
report and knowledge after it (``reports``), and never rewritten; the orders filed for the next
turn are on the seats. JSON is kept as JSONB on PostgreSQL and as text on SQLite."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator, TypeEngine

from fogdip.bots.base import DEFAULT_BOT

#: A JSON document: JSONB on PostgreSQL, text on SQLite. Read as values where they are needed,
#: or cast to text to be sent on as stored (a power's reports).
Document: TypeEngine[Any] = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


class UtcDateTime(TypeDecorator[datetime]):
    """A moment in UTC, read back with its time zone on every database (SQLite keeps none)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("a moment is kept in UTC: give it a time zone")
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        moment: datetime = value
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The name as written, and folded for lookups (names are unique whatever their case).
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class ApiToken(Base):
    """A personal token for bots and scripts: stored as its SHA-256 (it is random, so a fast
    hash is enough), shown once when made, revocable."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class Session(Base):
    """A signed-in browser: the cookie holds the session's secret, the table its SHA-256 and
    the CSRF token that form posts must echo."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())


class GameRow(Base):
    """One game: its settings, status and clock, and the position to play next (its turns are
    rows of ``turns`` and ``reports``); ``version`` counts the saves that changed the game
    itself (a turn, a draw). ``record`` is a whole game file as fogdip kept games before
    turns were rows (empty: the game is kept as rows): ``fogdip db upgrade`` turns it into
    rows and empties it."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_due", "status", "deadline_at"),)

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    preset: Mapped[str] = mapped_column(String(40))
    private: Mapped[bool] = mapped_column(Boolean, default=True)
    #: The invitation secret (a private game is joined with it).
    invite: Mapped[str] = mapped_column(String(40))
    master_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: forming, active, paused, finished
    status: Mapped[str] = mapped_column(String(16), default="forming")
    record: Mapped[str] = mapped_column(Text, deferred=True, default="")
    #: The position to play next (a phase document of the variant), and how a game agreed to
    #: end ({"draw": [...], "turn": ...}); the number of turns played.
    position: Mapped[Any] = mapped_column(Document, deferred=True, nullable=True)
    ending: Mapped[Any] = mapped_column(Document, nullable=True)
    turns_played: Mapped[int] = mapped_column(Integer, default=0)
    #: A postal game: its master acts for each power.
    postal: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
    #: Seconds per phase type, as JSON: {"movement": 86400, "retreats": 3600, "adjustments": 3600}.
    deadlines: Mapped[str] = mapped_column(Text, default="{}")
    #: When the current turn is adjudicated if it has not been already (none: no deadline).
    deadline_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: When its bot seats file this turn's orders, where one has yet to (none: at once, or
    #: none has: :attr:`fogdip.game.Table.bots_due`).
    bots_due_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: Seconds that were left of the deadline when the game was paused.
    paused_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: none, public, white, grey, black or gunboat (fogdip.server.press)
    press: Mapped[str] = mapped_column(String(16), default="white")
    #: any, or adjacent: a power writes only to powers it sees a unit of next to its own
    press_range: Mapped[str] = mapped_column(String(16), default="any")
    #: The next turn, the variant's name and, once over, the outcome (JSON): copies of what the
    #: record holds, so that listing games reads no record.
    turn: Mapped[str] = mapped_column(String(16), default="")
    variant_name: Mapped[str] = mapped_column(String(200), default="")
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: What observers see: none (no observers), press (public press; the reveal once over) or
    #: board (also the game master's board as it stands)
    observers: Mapped[str] = mapped_column(String(16), default="press")
    #: open (every member sees who votes for a draw) or secret (only the result is told)
    draw_votes: Mapped[str] = mapped_column(String(16), default="secret")
    #: Whether members are told how many powers have marked their orders ready.
    ready_counts: Mapped[bool] = mapped_column(Boolean, default=False)


class Seat(Base):
    """A power of a game and who plays it: a person, the built-in bot, or nobody yet."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(24))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Which bot plays it when the bot does (``fogdip.bots.base.bot_named``).
    bot_name: Mapped[str] = mapped_column(String(32), default=DEFAULT_BOT, server_default=DEFAULT_BOT)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    #: How many of the messages this seat may read it has read.
    read: Mapped[int] = mapped_column(Integer, default=0)
    #: Whether this power votes for a draw (a bot's seat is counted as voting with the players).
    draw: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The lines this power has filed for the next turn, as a JSON list; none: it has filed
    #: nothing (an empty list: it filed no orders).
    filed: Mapped[str | None] = mapped_column(Text, nullable=True)


class TurnRow(Base):
    """One played turn, appended when it is played: the lines filed, the engine's records, the
    lines set aside and the position reached (:func:`fogdip.codec.gamefiles.turn_to_json`,
    less the reports)."""

    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: Its place in the game, from 1.
    seq: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(16))
    record: Mapped[Any] = mapped_column(Document)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class ReportRow(Base):
    """One power's report of one turn (``seq`` 0: its opening report), as it was sent, and what
    the power knew once it had it (kept with its latest report at least)."""

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("game_id", "power", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(24))
    seq: Mapped[int] = mapped_column(Integer)
    report: Mapped[Any] = mapped_column(Document)
    knowledge: Mapped[Any] = mapped_column(Document, nullable=True)


class Delivery(Base):
    """A message in one reader's list: a power (its sent messages, those sent to it, those to
    all) or ``*`` (the messages to all, as observers read them). A reader's messages are read
    through its own rows, so reading takes what the reader's list holds, whatever others
    write to each other."""

    __tablename__ = "deliveries"
    __table_args__ = (Index("ix_deliveries_reader", "game_id", "reader", "message_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    reader: Mapped[str] = mapped_column(String(24))
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"))


class Observer(Base):
    """Someone watching a game without playing in it."""

    __tablename__ = "observers"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)


class Event(Base):
    """Something that happened to a game that its members' live streams are told: a new phase
    (``phase``), a deadline set, moved or stopped (``deadline``). Public facts only."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    turn: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    #: The powers the event is for, comma-separated (a message's sender and recipients); none:
    #: every member. The game master hears every event.
    audience: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: More of the event, as JSON (how many are ready, the new deadline): sent with it.
    detail: Mapped[str | None] = mapped_column(Text, nullable=True)


class Message(Base):
    """A message of a game's press. ``sender`` is the power that really sent it (seen by its
    own player and the game master only, in grey and black press); ``shown_as`` the sender it
    claims in black press; ``recipients`` the powers it goes to, comma-separated, or ``*``."""

    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    turn: Mapped[str] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(24))
    shown_as: Mapped[str | None] = mapped_column(String(24), nullable=True)
    recipients: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


#: The ``power`` of a game master's mail address (never a power's name).
MAIL_MASTER = "+master"


class MailPlayer(Base):
    """A seat played by mail (or, with ``power`` :data:`MAIL_MASTER`, a game master who
    gets the game by mail): the player's own address, where its mails go, and the seat's
    secret, which makes the seat's address ``<game>-<power>-<secret>@<domain>`` (lowercase,
    as mail servers may fold it). The account is the seat's player (one made for the address
    when the player has no web account). ``mailed_turns`` counts the game's turns whose mails
    are queued (the same transaction moves it on); ``welcomed``: the welcome mail is queued;
    ``ended``: the mail that the game is over."""

    __tablename__ = "mail_players"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: The game's id lowercased, as it comes back in an address.
    game_key: Mapped[str] = mapped_column(String(24), index=True)
    power: Mapped[str] = mapped_column(String(24))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(254))
    secret: Mapped[str] = mapped_column(String(64))
    #: Hours before a deadline to remind the player, if it has filed nothing (none: never).
    remind_hours: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The turn the last reminder was for (one a turn).
    reminded_turn: Mapped[str | None] = mapped_column(String(16), nullable=True)
    mailed_turns: Mapped[int] = mapped_column(Integer, default=0)
    welcomed: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The mail that the game is over is queued.
    ended: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The last message of its power's list that is mailed to it (``messages.id``; 0: none).
    mailed_press: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class MailSeen(Base):
    """A mail the judge has acted on for a seat, by its Message-ID: the same mail delivered
    twice acts once. Kept per seat, and only once the seat's secret named it: a mail that
    names no seat (or another's) never keeps a seat's own mail from being acted on."""

    __tablename__ = "mail_seen"
    __table_args__ = (UniqueConstraint("mail_player_id", "message_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    mail_player_id: Mapped[int] = mapped_column(ForeignKey("mail_players.id", ondelete="CASCADE"))
    message_id: Mapped[str] = mapped_column(String(255))
    received_at: Mapped[datetime] = mapped_column(UtcDateTime())


class MailRefusal(Base):
    """When the judge last answered a sender whose mail carried no right secret: it answers
    such a sender at most once in a while."""

    __tablename__ = "mail_refusals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    sender: Mapped[str] = mapped_column(String(254), unique=True)
    answered_at: Mapped[datetime] = mapped_column(UtcDateTime())


class OutboxMail(Base):
    """A mail to send, queued in the transaction that caused it, sent with retries, marked
    sent as soon as the relay took it. ``message_id`` is the mail's own, the same on every
    attempt, so that a mail sent again after a crash is known for what it is."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_due", "sent_at", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    recipient: Mapped[str] = mapped_column(String(254))
    message_id: Mapped[str] = mapped_column(String(255))
    message: Mapped[bytes] = mapped_column(LargeBinary)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime())
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
