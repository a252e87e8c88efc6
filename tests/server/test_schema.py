"""The API against its own description: schemathesis reads a running server's /openapi.json and
sends every operation requests made from it, valid and invalid, as a signed-in account with a
personal API token, on real games (forming, active, paused; the caller their game master, or a
player in them, or neither). No answer may be a 5xx, and every documented answer must match
the schema the description gives for it.

The run is bounded (a fixed number of examples per operation and kind, derandomized) so that it
takes about a minute per database; a failure lists each request that failed as a curl command,
and the server's log holds its traceback."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, Verbosity, assume, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.core.failures import FailureGroup

from fogdip.variants import PRESETS
from fogdip.variants.options import VariantOptions

from servers import PASSWORD, ServerProcess, account, start_server

#: Examples per operation and generation mode (valid data, invalid data).
MAX_EXAMPLES = 20
#: The checks every answer must pass: no server error, a status the description lists, and a
#: body and content type that match what it says of that status (errors included).
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.content_type_conformance,
]


@pytest.fixture(params=["sqlite", "postgresql"])
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    """``fogdip serve`` on a fresh database of each kind, with a rate limit no run reaches."""
    database = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    running = start_server(tmp_path / "data", database, env={"FOGDIP_RATE": "10000000"})
    yield running
    running.stop()


@dataclass
class World:
    """What the run's requests name: the caller's token, real games and tokens."""

    token: str
    token_id: int
    games: list[str]
    spare_tokens: list[int]
    invites: list[str]
    game_files: list[dict[str, Any]]
    #: Other accounts' names (never the caller's: a password reset would revoke its token).
    others: list[str] = field(default_factory=list)


def make_world(server: ServerProcess) -> World:
    """Accounts and games: the caller (the server's admin, its first account) masters a forming
    game, an active one and a paused one, plays one power in another account's game and one
    against bots; a private game of another account is hidden from it."""
    caller = account(server, "schema-caller")
    rival = account(server, "schema-rival")
    third = account(server, "schema-third")
    token = caller.make_token("schemathesis")
    [made] = [t for t in caller.tokens() if t.label == "schemathesis"]
    for n in range(2):
        caller.make_token(f"spare-{n}")
    rival.make_token("rival's")
    # the caller's spare tokens (revoked), and another account's (not the caller's to revoke)
    spare_ids = [t.id for t in caller.tokens() if t.label.startswith("spare")] + [rival.tokens()[0].id]

    forming = caller.create_game("fog-of-war", name="forming", deadlines={"movement": 3600})
    active = caller.create_game("standard", name="active", private=False, press="grey")
    rival.join(active.id, "FRANCE")
    caller.seat_bots(active.id, ["ENGLAND", "GERMANY", "ITALY", "RUSSIA"])
    caller.start(active.id)
    rival.send_message(active.id, "all", "hello, all")
    paused = caller.create_game("fog-of-war", name="paused", deadlines={"movement": 600})
    caller.seat_bots(paused.id)
    caller.start(paused.id)
    caller.pause(paused.id)

    played = rival.create_game("fog-of-war", name="played", press="black", deadlines={"movement": 3600})
    caller.join(played.id, "GERMANY", invite=played.invite)
    third.join(played.id, "AUSTRIA", invite=played.invite)
    rival.seat_bots(played.id)
    rival.start(played.id)
    third.send_message(played.id, ["GERMANY"], "an alliance?", claim="RUSSIA")
    caller.file_orders(played.id, ["A BER H"])
    against = caller.against_bots("fog-of-war", power="ENGLAND")
    hidden = rival.create_game("standard", name="hidden")
    files = [caller.export_game(active.id), rival.export_game(played.id)]
    names = [rival.me().name, third.me().name]
    for client in (caller, rival, third):
        client.close()
    return World(
        token=token,
        token_id=made.id,
        games=[forming.id, active.id, paused.id, played.id, against.id, hidden.id],
        spare_tokens=spare_ids,
        invites=[game.invite or "" for game in (forming, active, paused)] + [played.invite or ""],
        game_files=files,
        others=names,
    )


#: Names the run's requests use besides what schemathesis makes up from the description:
#: valid values reach past the first check of each operation.
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
ORDERS = ["A BER H", "A MUN S A BER", "F KIE - DEN", "F LON - NTH", "A LVP - YOR", "A PAR - BUR", "BUILD A PAR"]
PHASES = ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M", "S1901", "X"]
CHOICES = ["standard", "1898", "free", "fog-of-war", "year", "season", "full", "black", "none", "after", "2000"]
ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),  # JSON carries no others
    st.text(max_size=8),
    st.sampled_from(CHOICES),
    st.lists(st.integers(), max_size=2),
)


def known(world: World) -> dict[str, st.SearchStrategy[Any]]:
    """Real values by the name of a body field or query parameter."""
    return {
        "preset": st.sampled_from(sorted(PRESETS)),
        "options": st.just({})
        | st.dictionaries(st.sampled_from([f.name for f in fields(VariantOptions)]), ANYTHING, max_size=2),
        "power": st.sampled_from(POWERS),
        "powers": st.lists(st.sampled_from(POWERS), max_size=3),
        "claim": st.sampled_from(POWERS),
        "to": st.one_of(st.just("all"), st.lists(st.sampled_from(POWERS), max_size=3)),
        "lines": st.lists(st.sampled_from(ORDERS) | st.text(max_size=12), max_size=4),
        # never the caller's name: a password reset would revoke the token the run uses
        "name": st.sampled_from([*world.others, "schema-new", "x" * 40]),
        "password": st.just(PASSWORD),
        "invite": st.sampled_from(world.invites),
        "deadlines": st.none()
        | st.dictionaries(
            st.sampled_from(["movement", "retreats", "adjustments"]),
            st.floats(1, 86400) | st.floats(allow_nan=False, allow_infinity=False),
        ),
        "press": st.sampled_from(["none", "public", "white", "grey", "black", "gunboat"]),
        "game": st.sampled_from(world.game_files),
        "seconds": st.floats(min_value=0, max_value=40 * 86400),
        "phase": st.sampled_from(PHASES),
        "format": st.sampled_from(["fogdip", "mila"]),
        "since": st.integers(min_value=0, max_value=2**64),
        "up_to": st.integers(min_value=0, max_value=2**64),
    }


def cases(operation: APIOperation, mode: GenerationMode, world: World) -> st.SearchStrategy[Case]:
    """The operation's cases: a game's id is mostly a real game's (the token revoked is never
    the caller's own), and valid data has real values in some of its fields."""
    names = {parameter.name for parameter in operation.path_parameters}

    @st.composite  # with no arguments: hypothesis shows a strategy's, and an operation's is long
    def case(draw: st.DrawFn) -> Case:
        given: dict[str, Any] | None = None
        if "game_id" in names and draw(st.integers(0, 4)):
            given = {"game_id": draw(st.sampled_from(world.games))}
        elif "token_id" in names and draw(st.booleans()):
            given = {"token_id": draw(st.sampled_from(world.spare_tokens))}
        made = draw(operation.as_strategy(mode, path_parameters=given))
        assume((made.path_parameters or {}).get("token_id") != world.token_id)
        if mode is GenerationMode.POSITIVE and draw(st.booleans()):
            values = known(world)
            for part in (made.body, made.query):
                if isinstance(part, dict):
                    for key in part:
                        if key in values:
                            part[key] = draw(values[key])
        return made

    return case()


@dataclass
class Run:
    """Requests sent, by operation and status, and the failures found."""

    sent: Counter[str] = field(default_factory=Counter)
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    unsatisfiable: list[str] = field(default_factory=list)


def fuzz(operation: APIOperation, mode: GenerationMode, world: World, server: ServerProcess, run: Run) -> None:
    """Up to MAX_EXAMPLES requests to ``operation``; the first that fails a check is kept."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {world.token}"
    failed: list[Case] = []

    @settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: each try is a request to a live server
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )
    @given(case=cases(operation, mode, world))
    def send(case: Case) -> None:
        response = case.call(base_url=server.url, session=session, timeout=60)
        run.sent[operation.label] += 1
        run.statuses[(operation.label, response.status_code)] += 1
        failed[:] = [case]
        case.validate_response(response, checks=CHECKS)
        failed.clear()

    try:
        send()
    except Unsatisfiable:
        run.unsatisfiable.append(f"{operation.label} ({mode.value} data)")  # nothing of it can be invalid
    except FailureGroup as exc:  # a failed check (a BaseExceptionGroup): its message shows the request
        run.failures.append(f"{operation.label} ({mode.value} data): {exc}")
    except Exception as exc:  # no answer at all: the server crashed, or hung
        curl = failed[0].as_curl_command(base_url=server.url) if failed else "(no request)"
        run.failures.append(f"{operation.label} ({mode.value} data): {exc!r}\n    {curl}")
    finally:
        session.close()


def test_no_request_from_the_openapi_description_gets_a_server_error(live: ServerProcess) -> None:
    world = make_world(live)
    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 20  # the whole API is described, not an empty document
    run = Run()
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            fuzz(operation, mode, world, live, run)
    report(run, live)
    alive = "running" if live.process.poll() is None else f"exited with {live.process.returncode}"
    assert not run.failures, (
        f"{len(run.failures)} operations failed; the server is {alive}; its log: {live.log}\n" + "\n".join(run.failures)
    )
    still = requests.get(f"{live.url}/api/v1/me", headers={"Authorization": f"Bearer {world.token}"}, timeout=10)
    assert still.status_code == 200  # the run was made as the caller throughout
    assert run.statuses.total() > 0 and any(status < 300 for _label, status in run.statuses)


def report(run: Run, server: ServerProcess, out: Callable[[str], Any] = print) -> None:
    """The run's requests per operation and status (shown with ``pytest -s``)."""
    out(f"\n{run.sent.total()} requests to {len(run.sent)} operations on {server.url}")
    out(f"nothing invalid to send: {', '.join(run.unsatisfiable)}")
    for label in sorted(run.sent):
        statuses = ", ".join(f"{status}: {n}" for (name, status), n in sorted(run.statuses.items()) if name == label)
        out(f"  {label}: {run.sent[label]} ({statuses})")
