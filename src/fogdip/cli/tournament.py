"""``fogdip tournament``: many games between bots, and how well each played, with intervals.

fogdip tournament --preset fog-of-war --seats heuristic:1,random:6 --games 70 --to 1920
fogdip tournament --seats random:7 --games 7 --to 1902 --seed 1 --out results.json
fogdip tournament --seats heuristic:1,random:6 --ray auto     # on a Ray cluster
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from fogdip.bots.tournament import (
    BotFailed,
    TournamentResult,
    TournamentSettings,
    parse_seats,
    run_tournament,
)
from fogdip.bots.tournament_stats import BotFigures, GameResult, Interval
from fogdip.cli.common import EXIT_INTERNAL, die, errors


def _option_value(text: str) -> Any:
    """An option's value as JSON (``true``, ``1910``, ``"year"``), or else the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as option overrides."""
    options = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            die(f"--option {pair!r} must be KEY=VALUE, e.g. --option espionage=true")
        options[key.strip()] = _option_value(value.strip())
    return options


@contextmanager
def _progress(total: int, console: Console) -> Iterator[Any]:
    """A callback told of each game played: a bar on a terminal, else a line every tenth."""
    if console.is_terminal:
        columns = (
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
        )
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("", total=total)

            def advance(game: GameResult) -> None:
                progress.update(task, advance=1, description=f"game {game.index} ended {game.last_turn}")

            yield advance
        return
    done = [0]
    step = max(total // 10, 1)

    def count(game: GameResult) -> None:
        done[0] += 1
        if done[0] % step == 0 or done[0] == total:
            console.print(f"played {done[0]}/{total} games")

    yield count


def _interval(interval: Interval, digits: int) -> str:
    return f"{interval.value:.{digits}f} [{interval.low:.{digits}f}, {interval.high:.{digits}f}]"


#: The table's rows: a label and how to show the figure (a column per bot keeps it narrow).
_ROWS: tuple[tuple[str, Callable[[BotFigures], str]], ...] = (
    ("seats played", lambda f: f"{f.seats} in {f.games} games"),
    ("score", lambda f: _interval(f.score, 3)),
    ("solo rate", lambda f: _interval(f.solo_rate, 2)),
    ("draw share", lambda f: _interval(f.draw_share, 2)),
    ("survival", lambda f: _interval(f.survival, 2)),
    ("mean centres", lambda f: _interval(f.mean_centers, 1)),
    ("rating mu", lambda f: f"{f.rating.mu:.1f}"),
    ("rating sigma", lambda f: f"{f.rating.sigma:.1f}"),
    ("rating ordinal", lambda f: f"{f.rating.ordinal:.1f}"),
)


def results_table(result: TournamentResult) -> Table:
    """Every bot's figures with their 95% intervals, a column each, and the candidate seat's
    alone when its bot played other seats too."""
    settings = result.settings
    title = (
        f"{settings.preset}: {settings.games} games to {settings.to_year} or a solo, seats "
        f"{','.join(str(seat) for seat in settings.seats)}, seed {settings.seed}"
    )
    columns = dict(result.standings.bots)
    candidate = result.standings.candidate
    if candidate.seats != columns[candidate.bot].seats:
        columns[f"{candidate.bot} (candidate seat)"] = candidate
    table = Table(title=escape(title), title_justify="left")
    table.add_column("")
    for name in columns:
        table.add_column(escape(name), justify="right")
    for label, shown in _ROWS:
        table.add_row(label, *(shown(figures) for figures in columns.values()))
    table.caption = (
        "95% intervals: Wilson's for rates, a bootstrap over games for score and centres. "
        "An equal score is 1/7 = 0.143."
    )
    table.caption_justify = "left"
    return table


def tournament(
    seats: Annotated[
        str,
        typer.Option(
            "--seats",
            help="The bots and how many powers each plays, summing to 7, e.g. heuristic:1,random:6. "
            "The first is the candidate: game i seats it on the i-th power (mod 7), the rest in a seeded shuffle.",
        ),
    ],
    preset: Annotated[
        str, typer.Option("--preset", help="The preset played (fogdip variants lists them).")
    ] = "fog-of-war",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", help="Change one of the preset's options, KEY=VALUE (repeatable), e.g. espionage=true."
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 70,
    to_year: Annotated[
        int,
        typer.Option("--to", min=1, help="Stop each game after this year's last phase (or at a solo) and score it."),
    ] = 1920,
    seed: Annotated[int, typer.Option("--seed", help="The run's seed: the same seed plays the same games.")] = 0,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Games played at once, in processes (default: CPU count).")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Spread the games over the Ray cluster at ADDRESS ('auto': the running one; 'local': start one "
            "here). Needs pip install 'fogdip[ray]'.",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the settings, games and figures as JSON.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
) -> None:
    """Play GAMES games between bots and print, for each bot, its score, solo rate, draw share,
    survival and mean centres with 95% intervals, and its openskill rating.

    The meaning of each figure: docs/bots.md, "Tournaments".
    """
    with errors():
        settings = TournamentSettings(
            seats=parse_seats(seats),
            preset=preset,
            options=parse_options(option or []),
            games=games,
            to_year=to_year,
            seed=seed,
            jobs=jobs,
            ray_address=ray,
        )
    status = Console(stderr=True, highlight=False, soft_wrap=True, quiet=quiet)
    with errors(), _progress(games, status) as on_game:
        try:
            result = run_tournament(settings, on_game)
        except BotFailed as failed:
            sys.stderr.write(failed.trace)
            die(f"{failed} (a bug in the bot: please report it)", EXIT_INTERNAL)
    Console(highlight=False).print(results_table(result))
    if out is not None:
        with errors():
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
        status.print(f"wrote {escape(str(out))}")
