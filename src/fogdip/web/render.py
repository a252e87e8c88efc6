"""Pages rendered on the server: the templates, the static files (each named by its content's
hash, so a browser keeps it for good), and the context every page shares.

>>> assets = Assets()
>>> assets.url("site.css").startswith("/static/site.css?v=")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from fogdip.engine.units import Phase
from fogdip.version import __version__

STATIC = Path(__file__).parent / "static"


class Assets:
    """The server's own static files, each with a URL that changes when the file does."""

    def __init__(self, folder: Path = STATIC) -> None:
        self.folder = folder
        self._hashes: dict[str, str] = {}
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                name = path.relative_to(folder).as_posix()
                self._hashes[name] = hashlib.sha256(path.read_bytes()).hexdigest()[:12]

    def url(self, name: str) -> str:
        return f"/static/{name}?v={self._hashes[name]}"


class ImmutableFiles(StaticFiles):
    """Static files that a browser keeps for a year: their URLs carry their content's hash."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["cache-control"] = "public, max-age=31536000, immutable"
        return response

    async def get_response(self, path: str, scope: Scope) -> Response:
        return await super().get_response(path, scope)


def phase_title(turn: str) -> str:
    """``S1901M`` as people say it: *Spring 1901 movement*.

    >>> phase_title("S1901M"), phase_title("S1901S"), phase_title("COMPLETED")
    ('Spring 1901 movement', 'the setup before Spring 1901', 'the game is over')
    """
    if turn == "COMPLETED":
        return "the game is over"
    if len(turn) > 2 and turn[0] == "S" and turn[-1] == "S" and turn[1:-1].isdigit():
        return f"the setup before Spring {turn[1:-1]}"
    try:
        return Phase.parse(turn).long_name
    except ValueError:
        return turn


class Pages:
    """The templates, with what every page shares."""

    def __init__(self) -> None:
        self.assets = Assets()
        self.environment = Environment(
            loader=PackageLoader("fogdip.web", "templates"),
            autoescape=select_autoescape(("html",)),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.environment.globals.update(asset=self.assets.url, version=__version__, phase_title=phase_title)

    def render(self, template: str, context: Mapping[str, Any], status: int = 200) -> HTMLResponse:
        html = self.environment.get_template(template).render(**context)
        return HTMLResponse(html, status_code=status, headers={"cache-control": "no-store"})


__all__ = ["Assets", "ImmutableFiles", "Pages", "phase_title"]
