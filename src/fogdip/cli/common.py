"""What every ``fogdip`` command shares: one-line errors and exit codes, reading input,
writing JSON, and the command group whose usage errors are one line too."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

import typer
from typer.core import TyperGroup

try:  # Typer 0.2x carries its own copy of Click; older releases use the click package.
    from typer._click import exceptions as _click_exceptions
except ImportError:  # pragma: no cover - depends on the installed Typer
    from click import exceptions as _click_exceptions  # type: ignore[no-redef, import-not-found, unused-ignore]

from fogdip.engine.errors import FogdipError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class OneLineUsageErrors(TyperGroup):
    """The command group, with Typer's boxed usage errors replaced by this command's one-line
    errors: ``fogdip: error: missing option '--seed'; see 'fogdip random-game --help'``."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            # Outside standalone mode Click raises usage errors instead of printing them, and
            # returns the code of any Exit (--help, typer.Exit) instead of exiting.
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _click_exceptions.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare `fogdip` or `fogdip gm`: the help
                if exc.format_message():
                    exc.show()
                sys.exit(exc.exit_code)
            _usage_error(exc, self._command_path(prog_name, args))
        except _click_exceptions.ClickException as exc:
            sys.stderr.write(f"fogdip: error: {one_line(exc.format_message())}\n")
            sys.exit(EXIT_BAD_INPUT)
        except typer.Abort:
            sys.stderr.write("Aborted!\n")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def _command_path(self, prog_name: str | None, args: Sequence[str] | None) -> str:
        """The command the arguments name (``fogdip random-game``), for errors that Click
        raises without a context, such as an option given no value."""
        path = [prog_name or "fogdip"]
        command: Any = self
        for arg in sys.argv[1:] if args is None else args:
            commands = getattr(command, "commands", None)
            if not commands or arg not in commands:
                break
            path.append(arg)
            command = commands[arg]
        return " ".join(path)


def _usage_error(exc: Any, fallback: str) -> NoReturn:
    message = one_line(exc.format_message()).rstrip(".")
    message = message[:1].lower() + message[1:]
    command = exc.ctx.command_path if exc.ctx is not None else fallback
    sys.stderr.write(f"fogdip: error: {message}; see '{command} --help'\n")
    sys.stderr.flush()
    sys.exit(EXIT_BAD_INPUT)


# --- errors and input --------------------------------------------------------------------------


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def die(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    sys.stderr.write(f"fogdip: error: {one_line(message)}\n")
    sys.stderr.flush()
    raise typer.Exit(code)


def explain(exc: BaseException) -> tuple[str, int]:
    """The one-line message and exit code for an exception raised while handling input."""
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", EXIT_BAD_INPUT
    if isinstance(exc, RecursionError):
        return "the JSON is nested too deeply", EXIT_BAD_INPUT
    if isinstance(exc, UnicodeDecodeError):
        return "the input is not UTF-8 text", EXIT_BAD_INPUT
    if isinstance(exc, FogdipError):
        return str(exc), EXIT_BAD_INPUT
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"cannot read {where}{exc.strerror or exc}", EXIT_BAD_INPUT
    return f"internal error, please report it: {type(exc).__name__}: {exc}", EXIT_INTERNAL


@contextmanager
def errors(prefix: str = "") -> Iterator[None]:
    """Turn any exception into a one-line message and an exit code; no tracebacks."""
    try:
        yield
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except Exception as exc:
        message, code = explain(exc)
        die(f"{prefix}{message}", code)


def read_input(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    return Path(source).read_text(encoding="utf-8")


def write_json(data: Any, out: TextIO, pretty: bool) -> None:
    text = json.dumps(data, indent=2) if pretty else json.dumps(data, separators=(",", ":"))
    out.write(text + "\n")
    out.flush()


def choice(value: str, allowed: Sequence[str], option: str) -> str:
    if value not in allowed:
        die(f"{option} must be one of {', '.join(allowed)}, not {value!r}")
    return value
