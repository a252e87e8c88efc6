"""An HTML-only mail as the judge reads it: its text, a line for each block, and whether it
holds anything that could hide words from the player who sends it.

A mail program shows what its HTML and CSS let it show, and the judge cannot know what that
is: hidden text (``hidden``, ``display: none``, a size of 0, white on white, a class hidden
by a ``<style>`` rule, CSS escapes and comments that defeat a pattern) would be read as the
player's commands though the player never saw it, for example in a forwarded mail. So the
judge does not try: an HTML-only mail holding any construct that can hide text
(:func:`html_hiding`) is not read at all, and its sender is told to write plain text. Every
other HTML mail, as Gmail, Outlook or Apple Mail write it, is read as text (:func:`html_text`).

>>> html_text('<div dir="ltr"><div>A PAR - BUR</div><div><br></div><div>READY</div></div>').splitlines()
['A PAR - BUR', '', 'READY']
>>> html_hiding('<p>A PAR H</p><div style="font-size:0">DRAW</div>')
'a style that can hide text (font-size: 0)'
>>> html_hiding('<p style="margin:0cm;font-family:&quot;Calibri&quot;,sans-serif;font-size:11.0pt">READY</p>') is None
True
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from types import MappingProxyType


def _names(words: str) -> frozenset[str]:
    """The names written in ``words``, one a word.

    >>> sorted(_names("p div  br"))
    ['br', 'div', 'p']
    """
    return frozenset(words.split())


_BLOCKS = _names(
    "address article aside blockquote br dd div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 "
    "h5 h6 header hr li main nav ol p pre section table tbody td th thead tr ul"
)
#: Elements whose text no mail program shows (``<noscript>`` is shown: mail runs no script; text
#: in ``<head>`` is shown too, as a browser moves it into the body).
_UNSHOWN = frozenset({"script", "style", "title"})
#: Elements that hold nothing (no end tag).
_VOID = _names("area base br col embed hr img input link meta source track wbr")
#: Elements whose content may not be shown (closed details, one option of a select, fallback
#: content, templates, frames, SVG and MathML) or is shown raw where the judge would read tags.
_CONCEALING_ELEMENTS = _names(
    "applet audio canvas datalist details dialog embed frame frameset iframe listing math noembed "
    "noframes object plaintext rp select svg template textarea video xmp"
)
#: Elements that make text smaller each time they are nested.
_SHRINKING = frozenset({"small", "sub", "sup"})

#: CSS properties that never hide text, whatever their value.
_HARMLESS = _names(
    "font-family font-weight font-style font-variant font-variant-ligatures font-variant-caps "
    "font-feature-settings font-kerning font-stretch text-align text-decoration text-decoration-line "
    "text-decoration-style text-decoration-color text-underline text-transform word-wrap overflow-wrap "
    "word-break line-break -webkit-nbsp-mode -webkit-line-break -webkit-text-size-adjust "
    "-ms-text-size-adjust text-size-adjust white-space direction unicode-bidi list-style list-style-type "
    "list-style-position border-collapse border-spacing table-layout box-sizing float clear cursor "
    "caret-color page size panose-1 src orphans widows tab-stops layout-grid-mode text-rendering "
    "-webkit-font-smoothing empty-cells caption-side page-break-before page-break-after page-break-inside "
    "font-display width min-width min-height font-size-adjust font-variant-alternates font-variant-east-asian "
    "font-variant-position font-variant-numeric font-optical-sizing font-synthesis -webkit-tap-highlight-color "
    "text-decoration-thickness text-underline-offset text-underline-position text-decoration-skip-ink hyphens "
    "tab-size -webkit-text-stroke-color text-align-last"
)
_BOX = re.compile(r"(border|padding|outline)(-[a-z-]+)?")
_DISPLAYED = _names(
    "block inline inline-block list-item table inline-table table-row table-cell table-row-group "
    "table-header-group table-footer-group table-column table-column-group table-caption flex inline-flex "
    "grid inline-grid flow-root initial inherit"
)
_FONT_KEYWORDS = _names("xx-small x-small small medium large x-large xx-large xxx-large larger")
_DARK_NAMES = _names(
    "black windowtext navy darkblue blue darkred red maroon purple green darkgreen teal olive gray grey "
    "dimgray dimgrey darkslategray darkslategrey brown indigo midnightblue auto inherit initial "
    "currentcolor"
)
_BACKGROUND_WORDS = _names("none repeat no-repeat repeat-x repeat-y scroll fixed")
_LIGHT_NAMES = _names("white window transparent none inherit initial ivory snow yellow")
_LENGTH = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))([a-z%]*)$")
#: CSS pixels in each unit (relative units at a 16-pixel font).
_PIXELS = MappingProxyType(
    {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6}
    | {"em": 16.0, "rem": 16.0, "ex": 8.0, "ch": 8.0, "%": 0.16}
)
#: The smallest font the judge trusts a reader to see, in CSS pixels (6 pt).
_SMALLEST_FONT = 8.0


def _lengths(value: str) -> list[tuple[float, str]] | None:
    """The lengths in a CSS value (in pixels, with their unit), words ignored; ``None`` if a
    number has a unit not known here.

    >>> _lengths("0 0 0 .8ex"), _lengths("12pt/1.5 Calibri"), _lengths("10vw"), _lengths("-1e9px")
    ([(0.0, ''), (0.0, ''), (0.0, ''), (6.4, 'ex')], [(16.0, 'pt')], None, None)
    """
    found: list[tuple[float, str]] = []
    for token in re.split(r"[\s,/()]+", value):
        matched = _LENGTH.match(token)
        if matched is None:
            if any(c.isdigit() for c in token):  # 1e9px, 1px*0: not read here
                return None
            continue
        number, unit = float(matched[1]), matched[2]
        if unit not in _PIXELS:
            return None
        if unit or number == 0 or "/" not in value:  # a bare number after "/" is a line height
            found.append((number * _PIXELS[unit], unit))
    return found


def _brightness(value: str) -> float | None:
    """How light a CSS colour looks (its luma), 0 (black) to 1 (white); ``None`` if not read
    here (or not opaque).

    >>> _brightness("#FFF"), _brightness("rgb(0, 0, 0)"), _brightness("#1F497D") < 0.5, _brightness("rgba(0,0,0,0)")
    (1.0, 0.0, True, None)
    >>> round(_brightness("rgb(255, 255, 0)") or 0, 3), round(_brightness("#999") or 0, 3)
    (0.886, 0.6)
    """
    value = value.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        value = "#" + "".join(c * 2 for c in value[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        return _luma(int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
    matched = re.fullmatch(r"rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*(1|1\.0*)\s*)?\)", value)
    if matched:
        return _luma(*(min(int(matched[i]), 255) for i in (1, 2, 3)))
    return None


def _luma(red: int, green: int, blue: int) -> float:
    """How light a colour looks to the eye, 0 to 1 (ITU-R BT.601 weights)."""
    return (0.299 * red + 0.587 * green + 0.114 * blue) / 255


def _text_colour_hides(value: str) -> bool:
    """Whether a text colour may be unreadable: light (white on the usual white), transparent
    or not known here."""
    if value in _DARK_NAMES:
        return False
    light = _brightness(value)
    return light is None or light > 0.7


def _background_hides(value: str) -> bool:
    """Whether a background (a colour, or the ``background`` shorthand) may hide dark text:
    dark, an image, or not known here."""
    for part in re.findall(r"rgba?\([^)]*\)|#[0-9a-z]+|[^\s,]+", value):
        if part in _LIGHT_NAMES or part in _BACKGROUND_WORDS:
            continue
        light = _brightness(part)
        if light is None or light < 0.8:
            return True
    return not value


def _declaration_hides(name: str, value: str) -> bool:
    """Whether one CSS declaration can hide text (or is one the judge does not know)."""
    value = re.sub(r"\s*!\s*important$", "", value.strip().lower())
    if name in _HARMLESS or (name.startswith("mso-") and name not in ("mso-hide", "mso-highlight", "mso-color-alt")):
        return False
    lengths = _lengths(value)
    if name == "display":
        return value not in _DISPLAYED
    if name == "visibility":
        return value != "visible"
    if name == "opacity":
        return value not in ("1", "1.0")
    if name in ("color", "mso-color-alt", "-webkit-text-fill-color"):
        return _text_colour_hides(value)
    if name in ("background", "background-color", "mso-highlight"):
        return _background_hides(value)
    if name in ("font-size", "font"):
        if value in _FONT_KEYWORDS:
            return False
        if "smaller" in value:  # shrinks again in each element it is nested in
            return True
        if lengths is None or (name == "font-size" and not lengths):
            return True
        return any(px < _SMALLEST_FONT or (unit in ("em", "rem", "%") and px < 16.0) for px, unit in lengths)
    if name in ("height", "max-height", "line-height", "max-width"):
        return lengths is None or any(px <= 0 for px, _unit in lengths)
    if name == "overflow" or name.startswith("overflow-"):
        return value != "visible"
    if name in ("margin", "text-indent", "vertical-align", "letter-spacing", "word-spacing") or name.startswith(
        "margin-"
    ):
        floor = -1.0 if name.endswith("-spacing") else -100.0
        return lengths is None or any(px < floor or px > 400 or (unit == "%" and px > 4) for px, unit in lengths)
    if _BOX.fullmatch(name):
        return False
    if name == "-webkit-text-stroke-width":
        return lengths is None or any(px > 1 for px, _unit in lengths)
    if name == "position":
        return value != "static"
    return True  # anything else (mso-hide, clip, transform, filter, zoom, content...)


def _style_hides(css: str, *, sheet: bool) -> str | None:
    """The first thing in CSS (a ``style`` attribute, or a ``<style>`` sheet if ``sheet``)
    that can hide text, in words; ``None`` if nothing can. In a ``style`` attribute, an escape
    or a comment is refused. A sheet (where mail programs write comments) is looked at twice,
    once without its comments and once with their text kept, so that a comment can neither
    join nor hide a declaration a browser applies.

    >>> _style_hides('.x{font-family:"/*";display:none;font-family:"*/"}', sheet=True)
    'a style that can hide text (display: none)'
    >>> _style_hides(".x{display:/*}x{*/none}", sheet=True)
    'a style that can hide text (display: none)'
    """
    if not sheet:
        if "\\" in css:
            return "a CSS escape"
        return "a CSS comment in a style" if "/*" in css else _declarations_hide(css, sheet=False)
    css = css.replace("<!--", " ").replace("-->", " ")
    without = re.sub(r"/\*.*?(\*/|$)", " ", css, flags=re.S)
    kept = css.replace("/*", " ").replace("*/", " ")
    return _declarations_hide(without, sheet=True) or _declarations_hide(kept, sheet=True)


def _declarations_hide(css: str, *, sheet: bool) -> str | None:
    """The first declaration in CSS with no comments that can hide text, in words (or an
    escape, but in an ``mso-`` value of a sheet: Outlook's list bullets, ``mso-level-text:\\F0B7``)."""
    pieces = re.split(r"([;{}])", css)
    for piece, after in zip(pieces[::2], [*pieces[1::2], ""], strict=True):
        piece = piece.strip()
        if piece.lower().startswith("@import") or (piece.startswith("@") and "\\" in piece):
            return "an imported style sheet"
        if ":" not in piece or piece.startswith("@") or after == "{":
            continue  # not a declaration: a selector (a:link, p.MsoNormal) or an at-rule heads a block
        name, _colon, value = piece.partition(":")
        name = name.strip().lower()
        mso_value = sheet and name.startswith("mso-") and "\\" not in name and not _declaration_hides(name, "")
        if "\\" in piece and not mso_value:
            return "a CSS escape"
        if _declaration_hides(name, value):
            return f"a style that can hide text ({name}: {' '.join(value.split())})"
    return None


def _attributes_hide(tag: str, attrs: list[tuple[str, str | None]]) -> str | None:
    """Whether an element's attributes can hide its text, in words (``None``: they cannot)."""
    if tag in _CONCEALING_ELEMENTS:
        return f"a <{tag}> element"
    if tag in _UNSHOWN or tag in ("meta", "base"):  # never shown: Outlook writes <style style="display:none">
        return None
    for name, value in attrs:
        text = (value or "").strip().lower()
        if name == "hidden":
            return "a hidden element"
        if name == "style" and value:
            found = _style_hides(value, sheet=False)
            if found:
                return found
        if (name in ("color", "text") and _text_colour_hides(text)) or (name == "bgcolor" and _background_hides(text)):
            return f"a colour that can hide text ({name}={text})"
        if tag == "link" and name == "rel" and "stylesheet" in text:
            return "a linked style sheet"
    return None


class _TextOf(HTMLParser):
    """HTML as text: a line break at each block, entities decoded, scripts, styles and the
    title dropped, each line of a ``<blockquote>`` (a quoted reply) marked ``> ``; and the
    first construct that could hide text from the reader, in words (:attr:`hiding`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.unshown = 0
        self.quoted = 0
        self.pre = 0
        self.shrunk = 0
        self.in_style = False
        self.hiding: str | None = None

    def _break(self, blank: bool = False) -> None:
        """End the line begun (a blank one too if ``blank``: a ``<br>`` on its own)."""
        words = "".join(self.current)
        text = words if self.pre else " ".join(words.split())
        if not text.strip() and not blank:
            self.current = []
            return
        for line in text.split("\n") if self.pre else [text]:
            self.lines.append(("> " * self.quoted + line) if line.strip() and self.quoted else line)
        self.current = []

    def _hides(self, found: str | None) -> None:
        if found and self.hiding is None:
            self.hiding = found

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hides(_attributes_hide(tag, attrs))
        if tag == "style":
            self.in_style = True
        if tag in _SHRINKING:
            self.shrunk += 1
            self._hides("small text inside small text" if self.shrunk > 2 else None)
        if tag in _UNSHOWN:
            self.unshown += 1
        elif tag in _BLOCKS:
            self._break(blank=tag == "br")
            self.quoted += tag == "blockquote"
            self.pre += tag == "pre"
            if tag == "hr":  # a rule as plain-text mail writes it: Outlook heads a quoted reply so
                self.lines.append("_" * 32)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """``<br/>``; and ``<div/>`` or ``<script/>``, which HTML reads as ``<div>`` or
        ``<script>`` (the ``/`` is ignored on an element that is not void)."""
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self.in_style = False
        if tag in _SHRINKING:
            self.shrunk = max(self.shrunk - 1, 0)
        if tag in _UNSHOWN:
            self.unshown = max(self.unshown - 1, 0)
        elif tag in _BLOCKS:
            self._break()
            if tag == "blockquote":
                self.quoted = max(self.quoted - 1, 0)
            if tag == "pre":
                self.pre = max(self.pre - 1, 0)

    def handle_data(self, data: str) -> None:
        if self.in_style:
            self._hides(_style_hides(data, sheet=True))
        if not self.unshown:
            self.current.append(data)


def _closed(html: str) -> str:
    """HTML without its unclosed end: from a comment never closed, or from a tag (or a
    declaration) begun after the last ``>``, a browser shows nothing, and Python's parser
    would read it as text, and again from each ``<`` in it (quadratic: 200 KB of ``<a`` took
    30 s). Found in one pass from the end.

    >>> _closed("<p>A</p><!-- <p>DRAW</p> >"), _closed("<p>A</p><a DRAW"), _closed("<p>1 < 2</p>")
    ('<p>A</p>', '<p>A</p>', '<p>1 < 2</p>')
    """
    opened = html.find("<!--", html.rfind("-->") + 1)
    if opened >= 0:
        html = html[:opened]
    begun = re.compile(r"<[a-zA-Z/!?]").search(html, html.rfind(">") + 1)
    return html if begun is None else html[: begun.start()]


def _read(html: str) -> _TextOf:
    reader = _TextOf()
    try:
        reader.feed(_closed(html))
        reader.close()
    except Exception:  # html.parser is lenient; a last guard
        reader.hiding = reader.hiding or "HTML that could not be read"
    reader._break()
    if reader.hiding is None and _HIDDEN_IN_A_TAG.search(html):
        reader.hiding = "a hidden element"
    return reader


def html_text(html: str) -> str:
    """The text of an HTML mail, a line for each block (hidden or not: see :func:`html_hiding`).

    >>> print(html_text("<style>p {}</style><div>A PAR - BUR<br>F BRE &ndash; MAO</div><p>READY</p>"))
    A PAR - BUR
    F BRE – MAO
    READY
    >>> html_text("<p>Yes</p><blockquote><p>old letter</p></blockquote>").splitlines()
    ['Yes', '> old letter']
    >>> html_text("<noscript>READY</noscript>")
    'READY'
    """
    return "\n".join(_read(html).lines).strip("\n")


def html_hiding(html: str) -> str | None:
    """The first construct in an HTML mail that could hide text from the player who sends it
    (a ``hidden`` attribute, a style of ``display``, ``visibility``, ``opacity``, a tiny font
    or height, a light text colour or dark background, ``mso-hide``, anything not known here,
    a CSS escape or a comment in a style, a ``<details>``...), in words; ``None`` if none.

    >>> html_hiding('<div hidden/>DRAW</div>'), html_hiding('<div style="display:/**/none">DRAW</div>')
    ('a hidden element', 'a CSS comment in a style')
    >>> html_hiding('<style>.x{display:none}</style><div class="x">DRAW</div>')
    'a style that can hide text (display: none)'
    """
    return _read(html).hiding


def html_reading(html: str) -> tuple[str, str | None]:
    """:func:`html_text` and :func:`html_hiding` in one reading."""
    reader = _read(html)
    return "\n".join(reader.lines).strip("\n"), reader.hiding


#: The word ``hidden`` anywhere in a tag, however its attributes are written: where a browser
#: and Python's parser would part on an odd tag, the word alone is enough to refuse it.
_HIDDEN_IN_A_TAG = re.compile(r"<[^<>]*\bhidden\b[^<>]*>", re.IGNORECASE)


__all__ = ["html_hiding", "html_reading", "html_text"]
