"""fogdip's version comes from one place below every layer (``fogdip.version``): the server
shows it without importing the command line, which imports the server (``fogdip serve``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import fogdip
from fogdip.version import NOT_INSTALLED, version_of

from cli_runner import run


def test_the_version_is_the_installed_packages() -> None:
    assert fogdip.__version__ == metadata.version("fogdip")
    assert version_of("no-such-distribution-installed") == NOT_INSTALLED


def test_the_command_prints_the_version() -> None:
    result = run("version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"fogdip {fogdip.__version__}"


def test_the_server_shows_the_version_without_importing_the_command_line(tmp_path: Path) -> None:
    """A fresh interpreter builds the server's app: its API description carries the version,
    and no module of ``fogdip.cli`` was imported on the way (they import the server)."""
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path

        from fogdip.server.app import create_app
        from fogdip.server.config import Settings

        app = create_app(Settings(data_dir=Path({str(tmp_path)!r})), upgrade=False)
        import fogdip

        assert app.version == fogdip.__version__, app.version
        cli = sorted(name for name in sys.modules if name == "fogdip.cli" or name.startswith("fogdip.cli."))
        print(cli)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
