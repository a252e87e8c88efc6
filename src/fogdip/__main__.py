"""``python -m fogdip``: the ``fogdip`` command line."""

from fogdip.cli.main import app

if __name__ == "__main__":
    app(prog_name="fogdip")
