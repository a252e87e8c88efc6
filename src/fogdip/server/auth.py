"""Accounts: sign-up, sign-in with a session cookie (HttpOnly, SameSite, CSRF token for every
change), personal API tokens for bots and scripts, and who is asking."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import Depends, Path, Request, Response
from sqlalchemy import Row, select

from fogdip.codec.api import CSRF_HEADER, AccountOut, Credentials, PasswordReset, SessionOut, TokenIn, TokenOut
from fogdip.server.errors import ERROR_RESPONSES, ApiError, bad_request, conflict, slow_down, unauthorized
from fogdip.server.events import Credential
from fogdip.server.limits import address_of
from fogdip.server.models import ApiToken, Session, User
from fogdip.server.queries import statements
from fogdip.server.routing import Router, SignInCheck, in_lane
from fogdip.server.security import dummy_verify, hash_password, new_secret, same, token_digest, verify_password
from fogdip.server.state import ServerState, server

COOKIE = "fogdip_session"
SESSION_DAYS = 30
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,39}$")
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
#: The lane every password's hash is made or checked in, one at a time
#: (:class:`fogdip.server.routing.Lanes`): Argon2id takes a tenth of a second of CPU (and 64 MiB)
#: each, so on the request workers a flood of sign-ins would take every one of them. argon2-cffi
#: lets go of the interpreter as it hashes, so the lane's thread leaves it to the others.
PASSWORDS = "passwords"

router = Router(prefix="/api/v1", tags=["accounts"], responses=ERROR_RESPONSES)


@dataclass(frozen=True)
class Caller:
    """Who is asking: the account, and how it proved it."""

    user_id: int
    name: str
    is_admin: bool
    by_token: bool


def _check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise bad_request(
            "a name is 3 to 40 letters, digits, '_', '.' or '-', starting with a letter or digit", "bad-name"
        )
    return name


def _check_password(password: str) -> str:
    if len(password) < 10:
        raise bad_request("a password needs at least 10 characters", "weak-password")
    if len(password) > 1024:
        raise bad_request("a password may have at most 1,024 characters", "bad-password")
    return password


def _now() -> datetime:
    return datetime.now(UTC)


def caller_of(request: Request, state: ServerState) -> Caller | None:
    """The account behind a request: a bearer token, or a session cookie (whose changes must
    carry the session's CSRF token)."""
    return caller_from(request.headers, request.cookies, request.method, state)


def caller_from(
    headers: Mapping[str, str],
    cookies: Mapping[str, str],
    method: str,
    state: ServerState,
    csrf: str | None = None,
) -> Caller | None:
    """The account behind a request's headers and cookies (a WebSocket's handshake too)."""
    header = headers.get("authorization", "")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "unauthorized", "the Authorization header must be 'Bearer <token>'")
        with state.db.lookup() as connection:
            row = connection.execute(statements().token_caller, {"digest": token_digest(token.strip())}).first()
        if row is None:
            raise ApiError(401, "unauthorized", "that API token is not valid: it may have been revoked")
        return Caller(row.id, row.name, row.is_admin, True)
    found = _live_session(state, cookies)
    if found is None:
        return None
    if method not in _SAFE and not same(csrf if csrf is not None else headers.get(CSRF_HEADER, ""), found.csrf_token):
        raise ApiError(
            403, "csrf", f"a change made with a session cookie must send the session's CSRF token in {CSRF_HEADER}"
        )
    return Caller(found.id, found.name, found.is_admin, False)


def credential_of(headers: Mapping[str, str], cookies: Mapping[str, str]) -> Credential:
    """How a request (already signed in: :func:`caller_from` found its account) proved it."""
    header = headers.get("authorization", "")
    if header:
        return Credential("token", token_digest(header.partition(" ")[2].strip()))
    return Credential("session", token_digest(cookies.get(COOKIE, "")))


def signed_in(request: Request) -> Caller:
    """Who is asking, or 401: checked on the worker thread that runs the endpoint, before it
    (:mod:`fogdip.server.routing`), or as a FastAPI dependency on a router of FastAPI's own."""
    caller = caller_of(request, request.app.state.fogdip)
    if caller is None:
        raise unauthorized()
    return caller


def maybe_signed_in(request: Request) -> Caller | None:
    """Who is asking, or ``None`` for someone not signed in (who sees what anyone may)."""
    caller: Caller | None = caller_of(request, request.app.state.fogdip)
    return caller


Server = Annotated[ServerState, Depends(server)]
SignedIn = Annotated[Caller, Depends(signed_in), SignInCheck(signed_in)]
MaybeSignedIn = Annotated[Caller | None, Depends(maybe_signed_in), SignInCheck(maybe_signed_in)]


@router.post("/accounts", status_code=201, response_model=AccountOut, summary="Sign up")
@in_lane(PASSWORDS)
def sign_up(body: Credentials, state: Server) -> AccountOut:
    return create_account(state, body.name, body.password)


def create_account(state: ServerState, name: str, password: str) -> AccountOut:
    """A new account (the API's sign-up and the first page's): the first of a server is its
    admin. Run in the passwords' lane (its hash is slow work)."""
    name, password = _check_name(name), _check_password(password)
    with state.db.transaction() as session:
        if session.execute(select(User.id).where(User.name_key == name.casefold())).first() is not None:
            raise conflict(f"the name {name!r} is taken; choose another")
        first = session.execute(select(User.id).limit(1)).first() is None
        # The first account of a server is its admin.
        session.add(
            User(
                name=name,
                name_key=name.casefold(),
                password_hash=hash_password(password),
                is_admin=first,
                created_at=_now(),
            )
        )
    return AccountOut(name=name, is_admin=first)


@router.post("/session", response_model=SessionOut, summary="Sign in: sets the session cookie")
@in_lane(PASSWORDS)
def sign_in(body: Credentials, request: Request, response: Response, state: Server) -> SessionOut:
    signed, secret = open_session(state, body.name, body.password, address_of(request.scope))
    set_session_cookie(response, secret, state)
    return signed


def open_session(state: ServerState, name: str, password: str, address: str) -> tuple[SessionOut, str]:
    """A new session for the account ``name`` with ``password`` (the API's sign-in and the
    first page's): the session's answer and its secret, for the cookie. Failed sign-ins are
    throttled per name and address. Run in the passwords' lane, where sign-ins run one at a
    time: no burst gets past the count."""
    name_key = name.casefold()
    throttled = state.sign_ins.check(name_key, address)
    if throttled is not None:
        raise slow_down("sign-in-throttled", throttled.message, throttled.wait)
    with state.db.reading() as session:
        user = session.execute(select(User).where(User.name_key == name_key)).scalar_one_or_none()
    if user is None:
        dummy_verify(password)
    if user is None or not verify_password(user.password_hash, password):
        state.sign_ins.failed(name_key, address)
        raise ApiError(401, "bad-credentials", "that name and password do not match an account")
    state.sign_ins.succeeded(name_key, address)
    secret, csrf = new_secret(), new_secret()
    with state.db.transaction() as session:
        session.add(
            Session(
                user_id=user.id,
                secret_hash=token_digest(secret),
                csrf_token=csrf,
                created_at=_now(),
                expires_at=_now() + timedelta(days=SESSION_DAYS),
            )
        )
    return SessionOut(name=user.name, is_admin=user.is_admin, csrf_token=csrf), secret


def set_session_cookie(response: Response, secret: str, state: ServerState) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=state.settings.secure_cookies,
        path="/",
    )


def end_session(state: ServerState, secret: str | None) -> None:
    """The session of the cookie ``secret`` ends (signed out)."""
    if not secret:
        return
    with state.db.transaction() as session:
        found = session.execute(select(Session).where(Session.secret_hash == token_digest(secret))).scalar_one_or_none()
        if found is not None:
            session.delete(found)


def _live_session(state: ServerState, cookies: Mapping[str, str]) -> Row[Any] | None:
    """The live session a browser's cookie names, as its row (``None``: none, or expired)."""
    secret = cookies.get(COOKIE)
    if not secret:
        return None
    with state.db.lookup() as connection:
        found = connection.execute(statements().session_caller, {"digest": token_digest(secret)}).first()
    if found is None or found.expires_at < _now():
        return None
    return found


def session_csrf(state: ServerState, cookies: Mapping[str, str]) -> str | None:
    """The CSRF token of the session a browser's cookie names (``None``: no live session)."""
    found = _live_session(state, cookies)
    if found is None:
        return None
    token: str = found.csrf_token
    return token


@router.delete("/session", status_code=204, summary="Sign out")
def sign_out(request: Request, response: Response, state: Server, caller: SignedIn) -> None:
    end_session(state, request.cookies.get(COOKIE))
    response.delete_cookie(COOKIE, path="/")


@router.get("/me", response_model=AccountOut, summary="Who am I")
def me(caller: SignedIn) -> AccountOut:
    return AccountOut(name=caller.name, is_admin=caller.is_admin)


@router.post("/tokens", status_code=201, response_model=TokenOut, summary="Make a personal API token")
def make_token(body: TokenIn, state: Server, caller: SignedIn) -> TokenOut:
    token = new_secret()
    row = ApiToken(user_id=caller.user_id, token_hash=token_digest(token), label=body.label, created_at=_now())
    with state.db.transaction() as session:
        session.add(row)
        session.flush()
        made = TokenOut(id=row.id, label=row.label, created_at=row.created_at, revoked=False, token=token)
    return made


@router.get("/tokens", response_model=list[TokenOut], summary="My API tokens (never the tokens themselves)")
def list_tokens(state: Server, caller: SignedIn) -> list[TokenOut]:
    with state.db.reading() as session:
        rows = session.execute(
            select(ApiToken).where(ApiToken.user_id == caller.user_id).order_by(ApiToken.id)
        ).scalars()
        return [
            TokenOut(id=r.id, label=r.label, created_at=r.created_at, revoked=r.revoked_at is not None) for r in rows
        ]


@router.delete("/tokens/{token_id}", status_code=204, summary="Revoke an API token")
def revoke_token(token_id: Annotated[int, Path(ge=1, le=2**31 - 1)], state: Server, caller: SignedIn) -> None:
    with state.db.transaction() as session:
        row = session.get(ApiToken, token_id)
        if row is None or row.user_id != caller.user_id:
            raise ApiError(404, "not-found", "no such token of yours; GET /api/v1/tokens lists them")
        if row.revoked_at is None:
            row.revoked_at = _now()


@router.post("/admin/password", status_code=204, summary="Set an account's password (server admin only)")
@in_lane(PASSWORDS)
def reset_password(body: PasswordReset, state: Server, caller: SignedIn) -> None:
    if not caller.is_admin:
        raise ApiError(403, "forbidden", "only the server's admin can set another account's password")
    password = _check_password(body.password)
    with state.db.transaction() as session:
        user = session.execute(select(User).where(User.name_key == body.name.casefold())).scalar_one_or_none()
        if user is None:
            raise ApiError(404, "not-found", f"no account is named {body.name!r}")
        user.password_hash = hash_password(password)
        # Every session of the account ends and every token is revoked: whoever held the old
        # password is shut out.
        for old in session.execute(select(Session).where(Session.user_id == user.id)).scalars():
            session.delete(old)
        for token in session.execute(select(ApiToken).where(ApiToken.user_id == user.id)).scalars():
            if token.revoked_at is None:
                token.revoked_at = _now()
