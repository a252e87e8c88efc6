"""``fogdip gm``: running a postal or e-mail game from a game file.

fogdip gm new --variant deadman game.json
fogdip gm orders game.json FRANCE orders.txt
fogdip gm status game.json
fogdip gm adjudicate game.json --reports reports/
fogdip gm show game.json --as ENGLAND --map england.png
fogdip gm draw game.json                      # the powers still in agree a draw
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from fogdip.cli.common import EXIT_BAD_INPUT, die, errors, read_input
from fogdip.cli.maps import SUFFIXES, write_map
from fogdip.codec.observations import observation_to_json
from fogdip.codec.views import power_view_to_json
from fogdip.fog.report import observation_text
from fogdip.game import FileStore, GameService
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.maps.scene import Scene
from fogdip.maps.svg import render_svg
from fogdip.maps.views import master_scene_of, power_scene_of
from fogdip.variants import PRESETS, VariantOptions


def _games() -> GameService:
    """``fogdip gm`` keeps each game in its own file, named on the command line."""
    return GameService(FileStore())


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
    force: Annotated[bool, typer.Option(help="Overwrite an existing game file.")] = False,
) -> None:
    """Start a new game and write its game file."""
    with errors():
        if game.exists() and not force:
            die(f"{game} already exists; choose another name or pass --force to overwrite it")
        overrides = dict(_parse_option(o) for o in option or [])
        started = _games().create(str(game), variant.strip().lower(), overrides, replace=True)
        for leak in started.variant.options.schedule_leaks():
            Console(highlight=False, stderr=True).print(f"warning: {escape(leak)}")
        Console(highlight=False).print(f"New {variant} game in {game}; the first turn is {started.turn}.")


@gm_app.command()
def orders(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    power: Annotated[str, typer.Argument(help="The power filing, e.g. FRANCE.")],
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
        record = _games().open(str(game))
        who = record.power_named(power)
        lines = [line.split("#", 1)[0].strip() for line in read_input(orders_file).splitlines()]
        lines = [line for line in lines if line]
        checks = record.file(who, lines, partial=partial)
        console = Console(highlight=False, stderr=True)
        bad = [c for c in checks if not c.ok]
        for check in bad:
            console.print(f"line {check.number}: {escape(check.text)}: {escape(str(check.error))}")
        if bad and not partial:
            die(
                f"{len(bad)} of {len(checks)} line(s) rejected; nothing was filed for {who}. Fix them, or pass --partial",
                EXIT_BAD_INPUT,
            )
        _games().save(str(game), record)
        Console(highlight=False).print(f"Filed {len(checks) - len(bad)} line(s) for {who} for {record.turn}.")


@gm_app.command()
def status(game: Annotated[Path, typer.Argument(help="The game file.")]) -> None:
    """Show the next turn and who has filed orders for it (game master's view)."""
    with errors():
        record = _games().open(str(game))
        table = Table(title=f"{game}: next turn {record.turn}", title_justify="left")
        table.add_column("Power")
        table.add_column("Orders")
        for power, state in record.status().items():
            table.add_row(power, state)
        Console(highlight=False).print(table)


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
        record = _games().open(str(game))
        state = record.position.state
        shared = (
            [record.power_named(p) for p in powers]
            if powers
            else [p for p in record.powers if not state.is_eliminated(p)]
        )
        record.agree_draw(shared)
        _games().save(str(game), record)
        revealed = " The whole game is now revealed to every power." if record.revealed_history() is not None else ""
        Console(highlight=False).print(f"The game is drawn between {', '.join(sorted(shared))}.{revealed}")


@gm_app.command()
def adjudicate(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    reports: Annotated[
        Path | None,
        typer.Option(
            "--reports", help="Directory to write each power's report into: text, JSON, and its map as SVG and PNG."
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
    """Adjudicate the next turn with the orders filed (powers that filed nothing hold or get
    their defaults), save the game, and write each power's report."""
    with errors():
        record = _games().open(str(game))
        played = record.adjudicate()
        _games().save(str(game), record)
        if reports is not None:
            folder = reports / played.turn
            folder.mkdir(parents=True, exist_ok=True)
            for power, seen in played.observations.items():
                (folder / f"{power}.txt").write_text(observation_text(seen) + "\n", encoding="utf-8")
                report = json.dumps(observation_to_json(seen), indent=1)
                (folder / f"{power}.json").write_text(report + "\n", encoding="utf-8")
                png = _draw_both(power_scene_of(record, power), folder / power, png=png)
            # The whole board goes in a folder of its own, so that the turn's folder holds only
            # what may be sent to the powers.
            (folder / "gm").mkdir(exist_ok=True)
            _draw_both(master_scene_of(record), folder / "gm" / "board", png=png)
        where = f"; reports in {reports / played.turn}" if reports is not None else ""
        Console(highlight=False).print(f"Adjudicated {played.turn}; next: {record.turn}{where}.")


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
    as_power: Annotated[str, typer.Option("--as", help="Show the game as this power sees it.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: the reports and the power's accumulated knowledge.")
    ] = False,
    map_file: Annotated[
        Path | None,
        typer.Option(
            "--map",
            help="Where to draw the power's map now, .svg or .png (default: GAME-POWER.svg beside the game file).",
        ),
    ] = None,
) -> None:
    """Show the game as one power sees it: every report it received, what it knows now, and
    where its map is drawn."""
    with errors():
        record = _games().open(str(game))
        power = record.power_named(as_power)
        view = record.view(power)
        if map_file is not None and map_file.suffix.lower() not in SUFFIXES:
            die(f"--map must end in .svg or .png, not {map_file.name!r}")
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
