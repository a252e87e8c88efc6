"""An SVG map as a PNG, through cairosvg (Cairo draws it; see ``docs/maps.md`` for why).

cairosvg is imported only when a PNG is asked for, so drawing SVG needs nothing beyond fogdip.
"""

from __future__ import annotations

from fogdip.engine.errors import FogdipError


class PngUnavailable(FogdipError):
    """cairosvg (or the Cairo library under it) is not installed: what to install."""


def svg_to_png(svg: str, *, width: int | None = None) -> bytes:
    """The PNG image of ``svg``, ``width`` pixels wide (default: the SVG's own width)."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:
        raise PngUnavailable(
            f"PNG maps need cairosvg and the Cairo library ({exc}); install them with "
            "'pip install cairosvg' (and 'apt install libcairo2' where Cairo is missing), or draw .svg instead"
        ) from None
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    return png
