"""``fogdip gm``: running a postal or e-mail game from a game file, at its table: the same
rules as the server's (:class:`fogdip.game.Table`), with the game master at the console acting
for each power as its player's letters ask.

fogdip gm new --variant deadman game.json [--deadline movement=86400]
fogdip gm orders game.json FRANCE orders.txt
fogdip gm ready game.json FRANCE          # (the turn is played once every seat is ready)
fogdip gm vote game.json FRANCE           # a draw vote; unanimous ends the game
fogdip gm bots game.json ITALY TURKEY     # the bot plays these powers (--bot: which)
fogdip gm status game.json
fogdip gm adjudicate game.json --reports reports/
fogdip gm show game.json --as ENGLAND --map england.png
fogdip gm show game.json                  # the whole board
fogdip gm draw game.json                  # the powers still in agree a draw
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from fogdip.bots.base import DEFAULT_BOT, bot_named, bot_names
from fogdip.cli.common import EXIT_BAD_INPUT, die, errors, read_input
from fogdip.cli.maps import SUFFIXES, write_map
from fogdip.codec.observations import observation_to_json
from fogdip.codec.views import power_view_to_json
from fogdip.fog.report import observation_text
from fogdip.game import Actor, FileStore, Game, Refusal, Status, Table, Tables, TableSettings
from fogdip.game.pages import master_board, seat_status
from fogdip.game.store import CONSOLE
from fogdip.game.turn_text import turn_text
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.maps.scene import Scene
from fogdip.maps.svg import render_svg
from fogdip.maps.views import master_scene_of, power_scene_of
from fogdip.variants import PRESETS, VariantOptions


def _tables() -> Tables:
    """``fogdip gm`` keeps each game in its own file, named on the command line."""
    return Tables(FileStore())


@contextmanager
def _changing(game: Path) -> Iterator[Table]:
    """The game file's table, saved if the block ends without an error. A game run by
    ``fogdip gm`` is a postal game: its master, at the console, acts for each power."""
    with _tables().change(str(game)) as table:
        if not table.settings.postal:
            table.settings = table.settings.with_changes(postal=True)
        yield table


def _open(game: Path) -> Table:
    return _tables().open(str(game))


def _master(table: Table) -> Actor:
    return Actor(table.master or CONSOLE)


def _for(table: Table, power: str) -> Actor:
    return Actor(table.master or CONSOLE, for_power=table.seat(power).power)


def _now() -> datetime:
    return datetime.now(UTC)


gm_app = typer.Typer(
    name="gm",
    help="Run a game from a game file, as a game master: new, orders, status, adjudicate, show, draw.",
    no_args_is_help=True,
)


def _parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        die(f"option {text!r} must be written KEY=VALUE, e.g. --option end_year=1910")
    value: Any
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    if isinstance(getattr(VariantOptions(), key.strip(), None), str):
        value = raw  # edition=2000 names an edition; it is not the number 2000
    return key.strip(), value


def _parse_deadline(text: str) -> tuple[str, float]:
    kind, _sep, raw = text.partition("=")
    try:
        return kind.strip().lower(), float(raw)
    except ValueError:
        pass
    die(f"deadline {text!r} must be written TYPE=HOURS, e.g. --deadline movement=48")


def _moment(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


@gm_app.command()
def new(
    game: Annotated[Path, typer.Argument(help="Game file to create.")],
    variant: Annotated[
        str, typer.Option("--variant", "-v", help=f"Preset: {', '.join(sorted(PRESETS))}.")
    ] = "standard",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Override an option: KEY=VALUE (see 'fogdip variants')."),
    ] = None,
    deadline: Annotated[
        list[str] | None,
        typer.Option(
            "--deadline",
            "-d",
            help="A deadline per phase type, in hours: movement=48, retreats=24, adjustments=24 (reported by "
            "'gm status'; set again after each turn).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite an existing game file.")] = False,
) -> None:
    """Start a new game and write its game file."""
    with errors():
        if game.exists() and not force:
            die(f"{game} already exists; choose another name or pass --force to overwrite it")
        overrides = dict(_parse_option(o) for o in option or [])
        started = Game.create(variant.strip().lower(), **overrides)
        hours = dict(_parse_deadline(d) for d in deadline or [])
        # The game master at the console is told of any leak (below) and runs the game so.
        settings = TableSettings.for_game(
            started, postal=True, deadlines={kind: value * 3600 for kind, value in hours.items()}, accept_leaks=True
        )
        table = _tables().create(str(game), started, settings, status=Status.FORMING, replace=True)
        table.start(_master(table), _now())
        _tables().store.save(table)
        for leak in started.variant.options.schedule_leaks():
            Console(highlight=False, stderr=True).print(f"warning: {escape(leak)}")
        due = "" if table.clock.deadline is None else f"; its deadline is {_moment(table.clock.deadline)}"
        Console(highlight=False).print(f"New {variant} game in {game}; the first turn is {started.turn}{due}.")


@gm_app.command()
def orders(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    power: Annotated[str, typer.Argument(help="The power filing: FRANCE, France or fra.")],
    orders_file: Annotated[
        str,
        typer.Argument(
            metavar="ORDERS", help="Text file of orders, one per line ('-' for stdin); '#' starts a comment."
        ),
    ],
    partial: Annotated[bool, typer.Option(help="File the accepted lines even if some are not.")] = False,
) -> None:
    """File a power's orders for the next turn, replacing those it filed before."""
    with errors():
        lines = [line.split("#", 1)[0].strip() for line in read_input(orders_file).splitlines()]
        lines = [line for line in lines if line]
        console = Console(highlight=False, stderr=True)
        with _changing(game) as table:
            who = table.seat(power).power
            try:
                checks = table.file(_for(table, who), lines, turn=None, partial=partial)
            except Refusal as refusal:
                if refusal.code != "refused":
                    raise
                for check in refusal.lines:
                    if not check.ok:
                        console.print(f"line {check.number}: {escape(check.text)}: {escape(str(check.error))}")
                refused = sum(1 for check in refusal.lines if not check.ok)
                die(
                    f"{refused} of {len(lines)} line(s) rejected; nothing was filed for {who}. "
                    "Fix them, or pass --partial",
                    EXIT_BAD_INPUT,
                )
            bad = [c for c in checks if not c.ok]
            for check in bad:
                console.print(f"line {check.number}: {escape(check.text)}: {escape(str(check.error))}")
            unordered = table.game.unordered(who)
        left = f"; {unordered} unit(s) still without an order" if unordered else ""
        Console(highlight=False).print(f"Filed {len(checks) - len(bad)} line(s) for {who} for {table.turn}{left}.")


@gm_app.command()
def ready(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    power: Annotated[str, typer.Argument(help="The power whose orders are ready.")],
    not_ready: Annotated[bool, typer.Option("--not", help="Take the ready mark back.")] = False,
) -> None:
    """Mark a power's orders ready (or not): once every seat is ready, the turn is played
    (and the bot files for its seats)."""
    with errors():
        with _changing(game) as table:
            who = table.seat(power).power
            moment = _now()
            marked = table.mark_ready(_for(table, who), not not_ready, turn=None, moment=moment)
            # The bot files for its seats now (in the master's own time); the turn is played
            # then if every seat is ready.
            played = marked.played
            if played is None:
                played = table.think(bot_named, random.SystemRandom(), moment)
        console = Console(highlight=False)
        if not_ready:
            console.print(f"{who} is not ready.")
            return
        left = f" ({marked.unordered} unit(s) have no order: they hold)" if marked.unordered else ""
        console.print(f"{who} is ready{left}.")
        if played is not None:
            console.print(f"Every seat was ready: {played} is adjudicated; next: {table.turn}.")


@gm_app.command()
def vote(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    power: Annotated[str, typer.Argument(help="The power voting.")],
    against: Annotated[bool, typer.Option("--against", help="Take the vote for a draw back.")] = False,
) -> None:
    """Record a power's vote for a draw among the powers still in the game: unanimous ends
    the game (the bot votes with the players)."""
    with errors():
        with _changing(game) as table:
            who = table.seat(power).power
            ended = table.vote_draw(_for(table, who), not against)
        console = Console(highlight=False)
        console.print(f"{who} {'no longer votes' if against else 'votes'} for a draw.")
        if ended:
            shared = ", ".join(table.still_in())
            console.print(f"Every power still in voted for it: the game is drawn between {shared}.")


@gm_app.command()
def bots(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    powers: Annotated[
        list[str] | None, typer.Argument(help="The powers the bot plays (default: every power nobody plays).")
    ] = None,
    bot: Annotated[
        str, typer.Option("--bot", help=f"Which bot: {', '.join(bot_names())}.", show_default=True)
    ] = DEFAULT_BOT,
) -> None:
    """Seat a bot: before each turn is adjudicated it files its powers' orders, from each
    power's own reports only."""
    with errors():
        with _changing(game) as table:
            table.seat_bots(_master(table), powers or None, bot, moment=_now())
        Console(highlight=False).print(
            "The bot plays " + ", ".join(f"{seat.power} ({seat.bot_name})" for seat in table.seats if seat.bot) + "."
        )


@gm_app.command()
def status(game: Annotated[Path, typer.Argument(help="The game file.")]) -> None:
    """Show the next turn, its deadline, and every seat: who plays it, what it filed, whether
    it is ready and votes for a draw (the game master's view)."""
    with errors():
        table = _open(game)
        title = f"{game}: next turn {table.turn}"
        if table.clock.deadline is not None:
            title += f", due {_moment(table.clock.deadline)}"
        listing = RichTable(title=title, title_justify="left")
        listing.add_column("Power")
        listing.add_column("Seat")
        for power, state in seat_status(table).items():
            listing.add_row(power, state)
        console = Console(highlight=False)
        console.print(listing)
        outcome = table.game.outcome()
        if outcome is not None:
            console.print(f"The game is over: {outcome['result']} ({', '.join(outcome['powers'])}).")


@gm_app.command()
def draw(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    powers: Annotated[
        list[str] | None,
        typer.Argument(help="The powers that share the draw (default: every power still in the game)."),
    ] = None,
) -> None:
    """End the game in a draw the players have agreed, before the next turn is played."""
    with errors():
        with _changing(game) as table:
            record = table.game
            shared = [record.power_named(p) for p in powers] if powers else list(record.still_in())
            record.agree_draw(shared)
            table.status = Status.FINISHED
        revealed = " The whole game is now revealed to every power." if record.revealed_history() is not None else ""
        Console(highlight=False).print(f"The game is drawn between {', '.join(sorted(shared))}.{revealed}")


@gm_app.command()
def adjudicate(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    reports: Annotated[
        Path | None,
        typer.Option(
            "--reports",
            help="Directory to write each power's report into (text, JSON, and its map as SVG and PNG), and, "
            "in its gm folder, the whole turn as text and the whole board.",
        ),
    ] = None,
    png: Annotated[
        bool,
        typer.Option(
            "--png/--no-png",
            help="Also draw each map as PNG (about a quarter of a second a map); --no-png: SVG only.",
        ),
    ] = True,
) -> None:
    """Adjudicate the next turn with the orders filed (the bot files for its seats; powers that
    filed nothing hold or get their defaults), save the game, and write each power's report."""
    with errors():
        with _changing(game) as table:
            played = table.adjudicate(
                _master(table), turn=None, moment=_now(), bots=bot_named, rng=random.SystemRandom()
            )
        record = table.game
        turn = record.record.history[-1]
        if reports is not None:
            folder = reports / turn.turn
            folder.mkdir(parents=True, exist_ok=True)
            for power, seen in turn.reports.items():
                (folder / f"{power}.txt").write_text(observation_text(seen) + "\n", encoding="utf-8")
                report = json.dumps(observation_to_json(seen), indent=1)
                (folder / f"{power}.json").write_text(report + "\n", encoding="utf-8")
                png = _draw_both(power_scene_of(record, power), folder / power, png=png)
            # The whole turn goes in a folder of its own, so that the turn's folder holds only
            # what may be sent to the powers.
            (folder / "gm").mkdir(exist_ok=True)
            (folder / "gm" / "turn.txt").write_text(turn_text(turn) + "\n", encoding="utf-8")
            _draw_both(master_scene_of(record), folder / "gm" / "board", png=png)
        where = f"; reports in {reports / turn.turn}" if reports is not None else ""
        due = "" if table.clock.deadline is None else f"; due {_moment(table.clock.deadline)}"
        Console(highlight=False).print(f"Adjudicated {played.played}; next: {played.next}{due}{where}.")


def _draw_both(scene: Scene, stem: Path, *, png: bool) -> bool:
    """A map as ``stem.svg`` and, if ``png``, ``stem.png``. Where PNG cannot be drawn here
    (no Cairo), says so once and returns ``False``: the SVG maps and the reports still go out."""
    svg = render_svg(scene)
    stem.with_suffix(".svg").write_text(svg, encoding="utf-8")
    if not png:
        return False
    try:
        stem.with_suffix(".png").write_bytes(svg_to_png(svg))
    except PngUnavailable as exc:
        typer.echo(f"fogdip: warning: the maps are written as SVG only: {exc}", err=True)
        return False
    return True


@gm_app.command()
def show(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    as_power: Annotated[
        str | None, typer.Option("--as", help="Show the game as this power sees it (default: the whole board).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: the reports and knowledge (or the whole board).")
    ] = False,
    map_file: Annotated[
        Path | None,
        typer.Option(
            "--map",
            help="Where to draw the map now, .svg or .png (default: GAME-POWER.svg, or GAME-gm.svg, beside the game "
            "file).",
        ),
    ] = None,
) -> None:
    """Show the game as one power sees it (every report it received, what it knows now), or,
    without --as, the whole board as the game master sees it (every turn played, the position,
    what is filed); and where its map is drawn."""
    with errors():
        table = _open(game)
        if map_file is not None and map_file.suffix.lower() not in SUFFIXES:
            die(f"--map must end in .svg or .png, not {map_file.name!r}")
        if as_power is None:
            _show_board(table, game, as_json, map_file)
            return
        record = table.game
        power = table.seat(as_power).power
        view = record.view(power)
        drawn = write_map(power_scene_of(record, power), map_file or game.with_name(f"{game.stem}-{power}.svg"))
        if as_json:
            print(json.dumps(power_view_to_json(view), indent=1))
            typer.echo(f"Map: {drawn}", err=True)
            return
        knowledge, history = view.knowledge, view.revealed_history
        console = Console(highlight=False)
        for report in view.reports:
            console.print(escape(observation_text(report)))
            console.print()
        ghosts = [g for g in knowledge.ghosts() if not g.current]
        if ghosts:
            console.print("Last seen elsewhere:")
            for ghost in ghosts:
                console.print(f"  {escape(ghost.owner or 'unknown')}: {escape(str(ghost.unit))} (seen {ghost.phase})")
        if history is not None:
            console.print("The game is over; its whole history is revealed:")
            for turn in history:
                console.print(f"{turn['turn']}:")
                for entry in turn["orders"].values():
                    words = ", ".join(entry["result"]) or "ok"
                    console.print(f"  {escape(str(entry['power']))}: {escape(entry['order'])} ({escape(words)})")
        console.print(f"Next turn: {view.next_turn}; orders filed: {len(view.filed) if view.filed else 'none'}")
        console.print(f"Map: {escape(str(drawn))}", soft_wrap=True)


def _show_board(table: Table, game: Path, as_json: bool, map_file: Path | None) -> None:
    """The whole board, for the game master: every turn played, the position now, the seats."""
    record = table.game
    drawn = write_map(master_scene_of(record), map_file or game.with_name(f"{game.stem}-gm.svg"))
    if as_json:
        board: dict[str, Any] = master_board(table)
        print(json.dumps(board, indent=1, default=str))
        typer.echo(f"Map: {drawn}", err=True)
        return
    console = Console(highlight=False)
    for turn in record.record.history:
        console.print(escape(turn_text(turn)))
        console.print()
    state = record.position.state
    console.print(f"Next turn: {record.turn}")
    for power in state.powers:
        units = sorted(str(unit) for unit in state.units.values() if unit.power == power)
        centers = sorted(center for center, owner in state.centers.items() if owner == power)
        console.print(f"  {power}: {', '.join(units) or 'no units'}; centres {', '.join(centers) or 'none'}")
    for power, seat in seat_status(table).items():
        console.print(f"  {power}: {seat}")
    console.print(f"Map: {escape(str(drawn))}", soft_wrap=True)
