"""HTML-only mail (fogdip.mail.html_text, through read_letter): a mail that could hide text
from its sender is not read at all, and says so (review F4); the HTML that mail programs
write (Gmail, Outlook, Apple Mail, Thunderbird) is read as the player sees it."""

from __future__ import annotations

import time

import pytest

from fogdip.mail.commands import parse
from fogdip.mail.html_text import html_hiding, html_reading, html_text
from fogdip.mail.reading import read_letter


def html_mail(html: str) -> bytes:
    """An HTML-only mail to a seat, as sent over SMTP."""
    head = "From: Anne <anne@example.org>\r\nTo: g1-france-s3cret@judge.example\r\nSubject: orders\r\n"
    return (head + "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html).encode()


#: HTML whose DRAW (or NODRAW) a mail program does not show, or may not: the reviewer's cases
#: and their kin.
HIDING = {
    "hidden start-end tag": "<p>A PAR H</p><div hidden/>DRAW</div><p>READY</p>",
    "hidden attribute": "<p>A PAR H</p><p hidden>DRAW</p>",
    "css comment": '<p>A PAR H</p><div style="display:/**/none">DRAW</div>',
    "css escape": '<p>A PAR H</p><div style="display:n\\6f ne">DRAW</div>',
    "class hidden by a sheet": '<style>.x{display:none}</style><p>A PAR H</p><div class="x">DRAW</div>',
    "escape in a sheet": '<style>.x{display:n\\6f ne}</style><p>A PAR H</p><div class="x">DRAW</div>',
    "font-size 0": '<p>A PAR H</p><div style="font-size:0">DRAW</div>',
    "font-size 1px": '<p>A PAR H</p><div style="font-size:1px">DRAW</div>',
    "font shorthand 0": '<p>A PAR H</p><div style="font:0/0 a">DRAW</div>',
    "shrinking em": '<p>A PAR H</p><div style="font-size:.5em"><div style="font-size:.5em">DRAW</div></div>',
    "opacity 0": '<p>A PAR H</p><div style="opacity:0">DRAW</div>',
    "white on white": '<p>A PAR H</p><div style="color:#fff;background:#fff">NODRAW</div>',
    "white font": '<p>A PAR H</p><font color="white">DRAW</font>',
    "black on black": '<p>A PAR H</p><table bgcolor="#000000"><tr><td>DRAW</td></tr></table>',
    "max-height 0": '<p>A PAR H</p><div style="max-height:0;overflow:hidden">DRAW</div>',
    "visibility": '<p>A PAR H</p><span style="visibility: hidden">DRAW</span>',
    "display none then block": '<div style="display:none; display:block">READY</div>',
    "mso-hide": '<p>A PAR H</p><div style="mso-hide:all">DRAW</div>',
    "off the page": '<p>A PAR H</p><div style="position:absolute;left:-9999px">DRAW</div>',
    "indented away": '<p>A PAR H</p><div style="text-indent:-9999px">DRAW</div>',
    "clipped": '<p>A PAR H</p><div style="clip-path:inset(100%)">DRAW</div>',
    "closed details": "<p>A PAR H</p><details><summary>more</summary>DRAW</details>",
    "a select": "<p>A PAR H</p><select><option>x</option><option>DRAW</option></select>",
    "small in small": "<p>A PAR H</p><small><small><small><small>DRAW</small></small></small></small>",
    "imported sheet": '<style>@import url("https://x.example/h.css");</style><p>A PAR H</p>',
    "linked sheet": '<link rel="stylesheet" href="https://x.example/h.css"><p>A PAR H</p>',
    "p hidden, implied end": "<p hidden>preview</p><p hidden>x<p>A PAR - BUR</p><p>READY</p>",
    "li hidden, implied end": "<ul><li hidden>x<li>READY</ul>",
    "comment in a sheet's string": '<style>.x{font-family:"/*";display:none;font-family:"*/"}</style>'
    '<p>A PAR H</p><div class="x">DRAW</div>',
    "comment joining a sheet's value": '<style>.x{display:/*}y{*/none}</style><p>A PAR H</p><div class="x">DRAW</div>',
    "escaped import": "<style>@\\69mport url(https://x.example/h.css);</style><p>A PAR H</p>",
    "light grey on grey": '<p>A PAR H</p><div style="color:#ccc;background-color:rgb(204, 204, 204)">DRAW</div>',
    "hidden in an odd tag (refused, to be safe)": "<p>A PAR H</p><div title=a/hidden>DRAW</div>",
    "background image": '<p>A PAR H</p><div style="background:url(https://x.example/black.png)">DRAW</div>',
}


@pytest.mark.parametrize("html", list(HIDING.values()), ids=list(HIDING))
def test_html_that_can_hide_text_is_not_read(html: str) -> None:
    letter = read_letter(html_mail(html))
    assert letter.lines == ()
    assert parse(letter.lines) == []
    (problem,) = letter.problems
    assert "plain text" in problem and "nothing in it was read" in problem


def test_the_plain_part_is_read_even_beside_html_that_hides() -> None:
    message = (
        "From: anne@example.org\r\nTo: g1-france-s@judge.example\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/alternative; boundary="b"\r\n\r\n'
        "--b\r\nContent-Type: text/plain\r\n\r\nA PAR H\r\n"
        "--b\r\nContent-Type: text/html\r\n\r\n<p>A PAR H</p><p hidden>DRAW</p>\r\n--b--\r\n"
    )
    letter = read_letter(message.encode())
    assert letter.lines == ("A PAR H",) and letter.problems == ()


def test_noscript_is_read_as_shown() -> None:
    # Mail programs run no script: what <noscript> holds is what they show.
    assert read_letter(html_mail("<noscript>READY</noscript>")).lines == ("READY",)


def test_a_start_end_tag_that_is_not_void_opens_its_element() -> None:
    # <blockquote/> opens a quote, as HTML reads it; <script/> hides what follows.
    assert read_letter(html_mail("<p>READY</p><blockquote/>A MUN H</blockquote>")).lines == ("READY",)
    assert read_letter(html_mail("<p>READY</p><script/>DRAW</script>")).lines == ("READY",)


def test_text_in_the_head_is_shown_and_read() -> None:
    assert html_text("<html><head><meta charset=utf-8>READY</head><body><p>A PAR H</p></body></html>").split() == [
        "READY",
        "A",
        "PAR",
        "H",
    ]


GMAIL = (
    '<div dir="ltr"><div class="gmail_default" style="font-family:verdana,sans-serif;font-size:small;'
    'color:#000000">A PAR - <span style="background-color:rgb(255,255,0)">BUR</span></div><div class="gmail_default" style="font-family:verdana,sans-serif;'
    'font-size:small;color:#000000">F BRE - MAO</div><div><br></div><div><span style="font-size:12.8px">READY'
    '</span></div><div><br></div><span class="gmail_signature_prefix">-- </span><br><div dir="ltr" '
    'class="gmail_signature"><div dir="ltr"><font color="#999999">Anne, Paris</font></div></div></div><br>'
    '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, Jan 5, 2026 at 10:00\u202fAM fogdip '
    'judge &lt;<a href="mailto:g1-france-s3cret@judge.example">g1-france-s3cret@judge.example</a>&gt; wrote:<br>'
    '</div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid '
    'rgb(204,204,204);padding-left:1ex"><div>FRANCE, Spring 1901<br>A MAR H</div></blockquote></div>\n'
)

OUTLOOK = """<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns="http://www.w3.org/TR/REC-html40">
<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<meta name="Generator" content="Microsoft Word 15 (filtered medium)">
<style><!--
/* Font Definitions */
@font-face
\t{font-family:"Cambria Math";
\tpanose-1:2 4 5 3 5 4 6 3 2 4;}
@font-face
\t{font-family:Aptos;}
/* Style Definitions */
p.MsoNormal, li.MsoNormal, div.MsoNormal
\t{margin:0cm;
\tfont-size:12.0pt;
\tfont-family:"Aptos",sans-serif;
\tmso-ligatures:standardcontextual;
\tmso-fareast-language:EN-US;}
a:link, span.MsoHyperlink
\t{mso-style-priority:99;
\tcolor:#467886;
\ttext-decoration:underline;}
span.EmailStyle19
\t{mso-style-type:personal-reply;
\tfont-family:"Aptos",sans-serif;
\tcolor:windowtext;}
.MsoChpDefault
\t{mso-style-type:export-only;
\tfont-size:10.0pt;}
@list l0:level1
\t{mso-level-number-format:bullet;
\tmso-level-text:\\F0B7;
\tmso-level-tab-stop:none;
\tmso-level-number-position:left;
\ttext-indent:-18.0pt;
\tfont-family:Symbol;}
@page WordSection1
\t{size:612.0pt 792.0pt;
\tmargin:72.0pt 72.0pt 72.0pt 72.0pt;}
div.WordSection1
\t{page:WordSection1;}
--></style><!--[if gte mso 9]><xml>
<o:shapedefaults v:ext="edit" spidmax="1026" />
</xml><![endif]--></head>
<body lang="EN-GB" link="#467886" vlink="#96607D" style="word-wrap:break-word">
<div class="WordSection1">
<p class="MsoNormal"><span style="font-size:11.0pt">A PAR - BUR<o:p></o:p></span></p>
<p class="MsoListParagraph" style="margin-left:36.0pt;text-indent:-18.0pt;mso-list:l0 level1 lfo1"><![if !supportLists]>
<span style="font-family:Symbol"><span style="mso-list:Ignore">\u00b7<span style="font:7.0pt &quot;Times New Roman&quot;">
&nbsp;&nbsp; </span></span></span><![endif]>READY<o:p></o:p></p>
<p class="MsoNormal"><o:p>&nbsp;</o:p></p>
<div style="border:none;border-top:solid #B5C4DF 1.0pt;padding:3.0pt 0cm 0cm 0cm">
<p class="MsoNormal"><b><span lang="EN-US" style="font-size:11.0pt">From:</span></b><span lang="EN-US"
 style="font-size:11.0pt"> fogdip judge &lt;g1-france-s3cret@judge.example&gt; <br>
<b>Sent:</b> Monday, January 5, 2026 10:00 AM<br>
<b>To:</b> Anne &lt;anne@example.org&gt;<br>
<b>Subject:</b> FRANCE Spring 1901<o:p></o:p></span></p>
</div>
<p class="MsoNormal"><o:p>&nbsp;</o:p></p>
<p class="MsoNormal">A MAR H<o:p></o:p></p>
</div>
</body>
</html>
"""

OUTLOOK_COM = (
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style type="text/css" '
    'style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head><body dir="ltr">'
    '<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, Calibri, Helvetica, '
    'sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">A PAR - BUR</div><div class="elementToProof" '
    'style="font-family: Aptos, Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">READY'
    '</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
    '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
    'color="#000000"><b>From:</b> fogdip judge &lt;g1-france-s3cret@judge.example&gt;<br><b>Sent:</b> Monday, '
    "January 5, 2026 10:00<br><b>To:</b> Anne<br><b>Subject:</b> FRANCE Spring 1901</font><div>&nbsp;</div>"
    "</div><div>A MAR H</div></body></html>"
)

APPLE_MAIL = (
    '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body '
    'style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: after-white-space;">'
    '<div>A PAR - BUR</div><div>READY</div><br id="lineBreakAtBeginningOfMessage"><div><br><blockquote '
    'type="cite"><div>On 5 Jan 2026, at 10:00, fogdip judge &lt;g1-france-s3cret@judge.example&gt; wrote:'
    '</div><br class="Apple-interchange-newline"><div><div>A MAR H</div></div></blockquote></div><br></body>'
    "</html>"
)

THUNDERBIRD = (
    '<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'
    '</head><body><p>A PAR - BUR<br>READY</p><div class="moz-signature">-- <br>Anne</div>'
    '<div class="moz-cite-prefix">On 05/01/2026 10:00, fogdip judge wrote:<br></div><blockquote '
    'type="cite"><pre class="moz-quote-pre" wrap="">A MAR H</pre></blockquote></body></html>'
)


@pytest.mark.parametrize(
    ("html", "said"),
    [
        (GMAIL, ("A PAR - BUR", "F BRE - MAO", "", "READY")),
        (OUTLOOK, ("A PAR - BUR", "\u00b7 READY")),  # a bulleted line, its bullet shown as Outlook's readers show it
        (OUTLOOK_COM, ("A PAR - BUR", "READY")),
        (APPLE_MAIL, ("A PAR - BUR", "READY")),
        (THUNDERBIRD, ("A PAR - BUR", "READY")),
    ],
    ids=["gmail", "outlook", "outlook.com", "apple mail", "thunderbird"],
)
def test_what_mail_programs_write_is_read(html: str, said: tuple[str, ...]) -> None:
    assert html_hiding(html) is None
    letter = read_letter(html_mail(html))
    assert letter.lines == said
    assert letter.problems == ()


def test_the_unclosed_end_of_html_is_not_read() -> None:
    # A browser shows nothing of a comment or a tag never closed; Python's parser gave it as text.
    for html in ("<p>A PAR H</p><!-- <p>DRAW</p> >", "<p>A PAR H</p><a\nDRAW", "<p>A PAR H</p><?x\nDRAW"):
        assert read_letter(html_mail(html)).lines == ("A PAR H",)
    assert read_letter(html_mail("<p>1 &lt; 2, A PAR H</p><p>READY</p>")).lines == ("1 < 2, A PAR H", "READY")


@pytest.mark.parametrize("unit", ["<a", "<!--", "</", "<?", "<"])
def test_reading_html_is_linear(unit: str) -> None:
    # Python's HTML parser read an unclosed tag again from each "<" in it: 200 KB of "<a" took
    # 30 s, before any secret was checked. 400 KB now reads in well under a second.
    html = unit * (400_000 // len(unit))
    started = time.process_time()
    html_reading(html)
    assert time.process_time() - started < 5
