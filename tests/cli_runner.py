"""Running the ``fogdip`` command in process, its stdout and stderr kept apart."""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from fogdip.cli.main import app


def run(*args: object, input: str | None = None) -> Any:
    """``fogdip`` with ``args`` (paths and numbers as text); the Click result."""
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # older Click
    except TypeError:
        runner = CliRunner()
    return runner.invoke(app, [str(a) for a in args], input=input)
