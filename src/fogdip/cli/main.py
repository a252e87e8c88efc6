"""The ``fogdip`` command: adjudicate phase documents, replay and generate saved games, demo.

Every command has ``--help``. Bad input never shows a traceback: it gets one line on
standard error (``fogdip: error: ...``) and exit code 2. Exit code 1 means a replay found a
mismatch; 3 an internal error (a bug: please report it).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, TextIO

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from fogdip.bots import random_bot
from fogdip.cli.common import (
    OneLineUsageErrors,
    choice,
    die,
    errors,
    explain,
    one_line,
    read_input,
    write_json,
)
from fogdip.cli.gm import gm_app
from fogdip.cli.mail import mail
from fogdip.cli.maps import map_command
from fogdip.cli.serve import db_app, serve
from fogdip.cli.tournament import tournament
from fogdip.documents import (
    COMPLETED,
    document_from_state,
    result_document,
    rules_from_spec,
    state_from_document,
)
from fogdip.engine.judge import adjudicate as judge_phase
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase
from fogdip.interop.mila import SavedGame, load_game, saved_game_from_phases
from fogdip.play import adjudicate_document
from fogdip.replay import PhaseComparison, record_rules, replay_game, rules_for_source
from fogdip.version import __version__

app = typer.Typer(
    name="fogdip",
    help="fogdip: a Diplomacy adjudicator. Adjudicate phase documents, replay saved games, play random games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    cls=OneLineUsageErrors,
)

PROGRESS_THRESHOLD = 20
CONVOY_INTENTS = ("rulebook", "explicit")
FORMATS = ("mila", "fogdip")


# --- adjudicate --------------------------------------------------------------------------------


@app.command()
def adjudicate(
    file: Annotated[str, typer.Argument(help="Phase document (JSON) to adjudicate; '-' reads standard input.")] = "-",
    jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl",
            help="Read one document per line and write one result per line, until end of input. "
            'A bad line gets {"error": ...} and the rest go on.',
        ),
    ] = False,
    pretty: Annotated[
        bool,
        typer.Option(
            "--pretty",
            help="Indent the JSON output (default: one compact line).",
        ),
    ] = False,
) -> None:
    """Adjudicate a phase document and print the result as JSON.

    The document holds the phase, units, centres and orders, e.g.
    {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]},
    "orders": {"FRANCE": ["A PAR - BUR"]}}. The result's "state" is the next phase's document:
    add orders to it to play on.
    """
    if jsonl:
        if file == "-":
            _adjudicate_lines(sys.stdin, pretty)
            return
        with errors(), open(file, encoding="utf-8") as stream:
            _adjudicate_lines(stream, pretty)
        return
    with errors():
        text = read_input(file)
    with errors(f"{'standard input' if file == '-' else file}: "):
        doc = json.loads(text)
    with errors():
        result = adjudicate_document(doc)
    write_json(result, sys.stdout, pretty)


def _adjudicate_lines(stream: TextIO, pretty: bool) -> None:
    number = 0
    for line in iter(stream.readline, ""):
        number += 1
        if not line.strip():
            continue
        try:
            result: dict[str, Any] = adjudicate_document(json.loads(line))
        except Exception as exc:
            message, _ = explain(exc)
            result = {"error": one_line(message), "line": number}
        write_json(result, sys.stdout, pretty)


# --- replay ------------------------------------------------------------------------------------


def _replay_rules(game: SavedGame, edition: str | None, mila_compat: bool | None, convoy_intent: str | None) -> Rules:
    if edition is None and mila_compat is None and game.rules is not None:
        rules = rules_from_spec(game.rules)
    elif mila_compat is None:
        rules = rules_for_source(game.source, "2000" if edition is None else edition)
    else:
        rules = record_rules("2000" if edition is None else edition, compat=mila_compat)
    if convoy_intent is not None:
        rules = rules.with_options(adjacent_convoy_intent=choice(convoy_intent, CONVOY_INTENTS, "--convoy-intent"))
    return rules


def _describe_rules(rules: Rules) -> str:
    return (
        f"edition {rules.edition}, convoy intent {rules.adjacent_convoy_intent}, "
        f"civil disorder {rules.civil_disorder}, unretreatable units {rules.unretreatable}"
    )


@app.command()
def replay(
    game_file: Annotated[
        str,
        typer.Argument(
            metavar="GAME",
            help="Saved game (JSON): MILA/Cicero format or fogdip's own.",
            show_default=False,
        ),
    ],
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Rule edition, 2000 or 2023. Default: the rules recorded in the game, else 2000.",
        ),
    ] = None,
    mila_compat: Annotated[
        bool | None,
        typer.Option(
            "--mila-compat/--no-mila-compat",
            help="Use the Cicero records' house choices (convoys to adjacent provinces need VIA; a unit with "
            "nowhere to retreat waits for the retreat phase); --no-mila-compat keeps only the latter. "
            "Default: the game's own rules if it records them, else MILA's engine's for a game MILA saved, "
            "else the records' choices.",
        ),
    ] = None,
    convoy_intent: Annotated[
        str | None,
        typer.Option(
            "--convoy-intent",
            help="Override the convoy-intent rule: rulebook or explicit.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Show only mismatching phases and the summary.")] = False,
) -> None:
    """Re-adjudicate every phase of a saved game and compare with the next recorded phase.

    Compares the phase name, units (dislodged ones too), centre owners and retreat options.
    Where the record itself is impossible (MILA's engine lets a unit dislodged by a convoyed
    army retreat into occupied places), the phase is reported as such, in words, and does not
    count as a mismatch. Exits 0 when every phase matches or is explained so, 1 on any other
    mismatch, 2 on bad input.
    """
    with errors():
        game = load_game(game_file)
        chosen = _replay_rules(game, rules, mila_compat, convoy_intent)
    console = Console(soft_wrap=True, highlight=False)
    with errors():
        comparisons = _run_replay(game, chosen)
    mismatches = [c for c in comparisons if not c.ok and not c.record_impossible]
    impossible = [c for c in comparisons if c.record_impossible]
    for comparison in comparisons:
        if comparison.ok and quiet:
            continue
        _print_comparison(console, comparison)
    matched = len(comparisons) - len(mismatches) - len(impossible)
    summary = f"{len(comparisons)} phases compared, {matched} match, {len(mismatches)} mismatch"
    if impossible:
        summary += f", {len(impossible)} impossible in the record"
    colour = "red" if mismatches else "green"
    name = escape(game.id or game_file)
    console.print(f"[bold]{name}[/]: [{colour}]{summary}[/] ({escape(_describe_rules(chosen))})")
    if mismatches:
        raise typer.Exit(1)


def _run_replay(game: SavedGame, rules: Rules) -> list[PhaseComparison]:
    console = Console(stderr=True)
    if len(game.phases) <= PROGRESS_THRESHOLD or not console.is_terminal:
        return replay_game(game.phases, rules)
    columns = (TextColumn("replaying"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"))
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("", total=len(game.phases) - 1)

        def advance(comparison: PhaseComparison) -> None:
            progress.update(task, advance=1, description=comparison.phase)

        return replay_game(game.phases, rules, on_phase=advance)


def _print_comparison(console: Console, comparison: PhaseComparison) -> None:
    arrow = f"{comparison.phase} -> {comparison.actual_phase}"
    if comparison.ok:
        console.print(f"[green]ok[/]        {arrow}")
        return
    same = comparison.expected_phase == comparison.actual_phase
    recorded = "" if same else f" (recorded {comparison.expected_phase})"
    if comparison.record_impossible:
        console.print(f"[bold yellow]RECORD[/]    {arrow}: the record is impossible")
        for line in comparison.impossible:
            console.print(f"          [yellow]-[/] {escape(line)}")
        return
    console.print(f"[bold red]MISMATCH[/]  {arrow}{escape(recorded)}")
    for line in comparison.describe():
        console.print(f"          [red]-[/] {escape(line)}")


# --- random-game -------------------------------------------------------------------------------


def play_random_game(seed: int, max_phases: int, rules: Rules) -> list[dict[str, Any]]:
    """The random bot's seeded game as phase documents (each with the orders given), ending
    with the position reached (no orders)."""
    docs: list[dict[str, Any]] = []
    state = GameState.initial()
    for record in random_bot.play_random_game(seed, rules, max_phases=max_phases, explain=False):
        orders: dict[str, list[str]] = {}
        for result in record.orders:
            if not result.defaulted and result.text:
                orders.setdefault(result.power, []).append(result.text)
        docs.append({**document_from_state(record.before, rules), "orders": orders})
        state = record.after
    docs.append({**document_from_state(state, rules), "orders": {}})
    return docs


@app.command("random-game")
def random_game(
    seed: Annotated[int, typer.Option("--seed", help="Random seed: the same seed plays the same game.")],
    max_phases: Annotated[int, typer.Option("--max-phases", min=1, help="Stop after this many phases.")] = 100,
    out: Annotated[str, typer.Option("--out", "-o", help="File to write; '-' writes standard output.")] = "-",
    rules: Annotated[str, typer.Option("--rules", help="Rule edition: 2000 or 2023.")] = "2023",
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="mila (MILA/Cicero saved game) or fogdip (fogdip's game record).",
        ),
    ] = "mila",
) -> None:
    """Play a game of random legal orders and write it as a saved game.

    Every orderable unit gets one random legal order; in winter each power builds or removes
    up to its count. The rules are recorded in the file, so `fogdip replay` uses them.
    """
    choice(fmt, FORMATS, "--format")
    with errors():
        chosen = rules_from_spec(rules)
        docs = play_random_game(seed, max_phases, chosen)
        game_id = f"fogdip-random-{seed}"
        if fmt == "mila":
            data = saved_game_from_phases(docs, game_id=game_id, rules=chosen)
        else:
            source = f"fogdip random-game --seed {seed}"
            data = {"source": source, "game_id": game_id, "map": "standard", "phases": docs}
        if out == "-":
            write_json(data, sys.stdout, pretty=False)
            return
        Path(out).write_text(json.dumps(data) + "\n", encoding="utf-8")
    last = docs[-1]
    ended = f"ended {last.get('ended_in')}" if last["phase"] == COMPLETED else f"stopped before {last['phase']}"
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"wrote {escape(out)}: {len(docs) - 1} phases played, {ended} ({fmt} format, rules {escape(rules)})"
    )


# --- demo --------------------------------------------------------------------------------------


def demo_document() -> dict[str, Any]:
    """The demo's position and orders (a fresh document each time: callers may change it)."""
    return {
        "variant": "standard",
        "rules": "2023",
        "phase": "F1901M",
        "units": {
            "AUSTRIA": ["F ALB", "A SER", "A VIE"],
            "ENGLAND": ["F NTH", "F NWG", "A YOR"],
            "FRANCE": ["A PAR", "A MAR", "F MAO"],
            "GERMANY": ["A MUN", "A RUH", "F DEN"],
            "ITALY": ["F ION", "A APU", "A VEN"],
            "RUSSIA": ["F BOT", "A UKR", "F SEV", "A WAR"],
            "TURKEY": ["F BLA", "A BUL", "A CON"],
        },
        "centers": {
            "AUSTRIA": ["BUD", "TRI", "VIE"],
            "ENGLAND": ["EDI", "LON", "LVP"],
            "FRANCE": ["BRE", "MAR", "PAR"],
            "GERMANY": ["BER", "KIE", "MUN"],
            "ITALY": ["NAP", "ROM", "VEN"],
            "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
            "TURKEY": ["ANK", "CON", "SMY"],
        },
        "orders": {
            "AUSTRIA": ["F ALB - GRE", "A SER S F ALB - GRE", "A VIE - GAL"],
            "ENGLAND": ["A YOR - NWY", "F NTH C A YOR - NWY", "F NWG S A YOR - NWY"],
            "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F MAO - POR"],
            "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "F DEN - SWE"],
            "ITALY": ["A APU - TUN", "F ION C A APU - TUN", "A VEN H"],
            "RUSSIA": ["F BOT - SWE", "A UKR - RUM", "F SEV S A UKR - RUM", "A WAR - GAL"],
            "TURKEY": ["A BUL - GRE", "F BLA - BUD", "A CON H", "A SMY H"],
        },
    }


_OUTCOME_STYLE = MappingProxyType(
    {
        "moved": "green",
        "supported": "green",
        "convoyed": "green",
        "held": "green",
        "bounced": "yellow",
        "cut": "yellow",
        "illegal": "red",
        "void": "red",
    }
)


@app.command()
def demo(
    show_document: Annotated[
        bool,
        typer.Option(
            "--show-document",
            help="Print the sample phase document as JSON instead, to try with `fogdip adjudicate`.",
        ),
    ] = False,
) -> None:
    """Show fogdip at work on a sample phase, with results and reasons.

    Fall 1901: a stand-off in Burgundy, two convoys, supports and an illegal order. Every
    order is shown with its result and the reason, then the position that follows.
    """
    if show_document:
        write_json(demo_document(), sys.stdout, pretty=True)
        return
    with errors():
        state, rules, orders = state_from_document(demo_document())
        resolution = judge_phase(state, orders, rules)
        result = result_document(resolution, rules)
    console = Console(highlight=False)
    phase = Phase.parse(result["phase"])
    table = Table(title=f"{phase.long_name.capitalize()}: orders and results", title_justify="left")
    for column in ("Power", "Order", "Result", "Why"):
        table.add_column(column, overflow="fold")
    for unit, words in result["results"].items():
        outcome = result["outcomes"][unit]
        style = _OUTCOME_STYLE.get(outcome, "cyan")
        shown = ", ".join(words) if words else "success"
        reason = escape(result["reasons"][unit])
        table.add_row(result["powers"][unit], result["orders"][unit], f"[{style}]{escape(shown)}[/]", reason)
    for rejected in result["rejected"]:
        table.add_row(rejected["power"], rejected["order"], "[red]rejected[/]", escape(rejected["reason"]))
    console.print(table)
    _print_position(console, resolution.after, result["state"])
    console.print(
        "Try it yourself: [bold]fogdip demo --show-document > phase.json[/] "
        "then [bold]fogdip adjudicate --pretty phase.json[/]"
    )


def _print_position(console: Console, state: GameState, doc: Mapping[str, Any]) -> None:
    title = "Game over" if state.completed else f"Next: {state.phase.long_name}"
    table = Table(title=title, title_justify="left")
    for column in ("Power", "Units", "Centres", "Adjustment"):
        table.add_column(column, overflow="fold")
    for power in state.powers:
        delta = state.adjustment(power)
        adjustment = f"builds {delta}" if delta > 0 else f"removes {-delta}" if delta < 0 else "-"
        table.add_row(
            power,
            ", ".join(doc["units"].get(power, [])),
            str(len(doc["centers"].get(power, []))),
            adjustment if state.phase.kind == "A" else "",
        )
    console.print(table)


# --- version -----------------------------------------------------------------------------------


@app.command()
def version() -> None:
    """Print fogdip's version."""
    Console(highlight=False).print(f"fogdip {__version__}")


# --- game master and variants ------------------------------------------------------------------

app.add_typer(gm_app, name="gm")
app.command(name="map")(map_command)
app.command(name="serve")(serve)
app.command(name="mail")(mail)
app.add_typer(db_app, name="db")
app.command(name="tournament")(tournament)


@app.command()
def variants() -> None:
    """List the variant presets and every option, with one-line explanations."""
    from fogdip.variants import PRESET_SUMMARIES, option_help

    console = Console(highlight=False)
    presets = Table(title='Presets (fogdip gm new --variant NAME; "variant" in a phase document)', title_justify="left")
    presets.add_column("Preset")
    presets.add_column("What it is", overflow="fold")
    for name, summary in PRESET_SUMMARIES.items():
        presets.add_row(name, escape(summary))
    console.print(presets)
    options = Table(title='Options (--option KEY=VALUE; "options" in a phase document)', title_justify="left")
    options.add_column("Option")
    options.add_column("What it does", overflow="fold")
    for name, text in option_help().items():
        options.add_row(name, escape(text))
    console.print(options)


@app.command()
def schema(
    name: Annotated[
        str | None, typer.Argument(help="The document whose JSON Schema to print; leave out to list them.")
    ] = None,
    write: Annotated[Path | None, typer.Option("--write", help="Write every schema into this folder instead.")] = None,
) -> None:
    """Print the JSON Schema of a fogdip document (phase-document, report, game-file, ...)."""
    from fogdip.codec.schemas import SCHEMAS, schema_text, write_schemas

    with errors():
        if write is not None:
            written = write_schemas(write)
            Console(highlight=False).print(f"Wrote {len(written)} schemas into {write}.")
            return
        if name is None:
            table = Table(title="Documents (fogdip schema NAME)", title_justify="left")
            table.add_column("Name")
            table.add_column("What it is", overflow="fold")
            for key, (_model, _title, description) in SCHEMAS.items():
                table.add_row(key, escape(description))
            Console(highlight=False).print(table)
            return
        if name not in SCHEMAS:
            die(f"unknown document {name!r}: use one of {', '.join(SCHEMAS)}")
        sys.stdout.write(schema_text(name))
