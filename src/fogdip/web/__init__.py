"""The site a person plays on: server-rendered pages (Jinja2) with htmx for forms and partial
updates, and a small script for the live stream, over the same table rules as the API
(``docs/web.md`` says why this shape).

>>> import tempfile, pathlib
>>> from fogdip.server.config import Settings
>>> site = create_site(Settings(pathlib.Path(tempfile.mkdtemp())), upgrade=False)
>>> sorted({getattr(route, "path", None) for route in site.routes} & {"/docs", "/static"})
['/docs', '/static']
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from fogdip.server.app import create_app
from fogdip.server.config import Settings
from fogdip.web import console, game_pages, mail_pages, pages, press_pages, seen_pages
from fogdip.web.headers import SecurityHeaders
from fogdip.web.render import STATIC, ImmutableFiles, Pages


def create_site(settings: Settings, *, upgrade: bool = True) -> FastAPI:
    """The server's API with the site's pages beside it: what ``fogdip serve`` runs."""
    app = create_app(settings, upgrade=upgrade)
    app.state.pages = Pages()
    app.mount("/static", ImmutableFiles(directory=STATIC), name="static")
    app.include_router(pages.router)
    app.include_router(game_pages.router)
    app.include_router(console.router)
    app.include_router(mail_pages.router)
    app.include_router(press_pages.router)
    app.include_router(seen_pages.router)

    @app.get("/docs", include_in_schema=False, response_class=HTMLResponse)
    async def docs(request: Request) -> HTMLResponse:
        rendered: HTMLResponse = request.app.state.pages.render("docs.html", {})
        return rendered

    app.add_middleware(SecurityHeaders)
    return app


__all__ = ["create_site"]
