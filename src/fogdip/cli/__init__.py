"""fogdip's command line (``fogdip --help``); the Typer app is :data:`fogdip.cli.main.app`."""
