"""Press blocks as the judge reads them (fogdip.mail.reading.said_lines): a block is closed only
by an ``ENDPRESS`` of the writer's own text, never by one in a forwarded or quoted mail below
it (review F2); and reading is linear in the text, whatever lines it holds (review F3)."""

from __future__ import annotations

import time

import pytest

from fogdip.mail.commands import Draw, OrderLine, Press, Ready, parse
from fogdip.mail.reading import read_letter, said_lines

GERMANY_SAID = (
    "Here is what I will send the judge:\nPRESS TO FRANCE\nlet us split Belgium\nENDPRESS\nDRAW\nA PAR - PIC\nREADY\n"
)

#: The ways a mail client heads the mail it forwards or quotes, with no ">" marks.
HEADINGS = {
    "forward": "---------- Forwarded message ---------\nFrom: Germany <germany@players.test>\n"
    "Date: Mon, 5 Jan 2026 at 10:00\nSubject: deal\n\n",
    "original": "-----Original Message-----\nFrom: Germany\nSent: Monday\n\n",
    "outlook rule": "________________________________\nFrom: Germany <germany@players.test>\nSent: Monday\n\n",
    "outlook header block": "From: Germany <germany@players.test>\nSent: Monday, 5 January 2026 10:00\n"
    "To: France\nSubject: deal\n\n",
    "attribution, unmarked": "On Mon, 5 Jan 2026 at 10:00, Germany <germany@players.test> wrote:\n\n",
}


@pytest.mark.parametrize("heading", list(HEADINGS), ids=list(HEADINGS))
def test_an_open_press_block_stops_at_a_forwarded_mail(heading: str) -> None:
    # Review F2: France forwards Germany's mail to Italy, inline, under a PRESS with no
    # ENDPRESS of its own. The ENDPRESS in Germany's mail does not close France's block: the
    # forward (with Germany's address) is not sent, and Germany's DRAW, order and READY are
    # never run as France's.
    body = f"PRESS TO ITALY\nLook what Germany sent me. Thoughts?\n\n{HEADINGS[heading]}{GERMANY_SAID}"
    lines = read_letter(b"From: anne@example.org\r\nTo: g1-france-s@judge.example\r\n\r\n" + body.encode()).lines
    assert lines == ("PRESS TO ITALY", "Look what Germany sent me. Thoughts?")
    steps = parse(lines)
    assert [type(step.command) for step in steps] == [Press]
    (press,) = [step.command for step in steps if isinstance(step.command, Press)]
    assert not press.closed  # answered NOT SENT, as any unclosed block
    assert "germany@players.test" not in press.body


def test_a_quote_inside_an_open_press_block_is_not_sent() -> None:
    # A reply quoted with ">" under an open block: the quote and its heading (with Germany's
    # address) are not the writer's press; the lines below the quote are the writer's own
    # answers, as everywhere in a reply written below a quote.
    body = (
        "BROADCAST\nread this\n\nOn Mon, 5 Jan 2026 at 10:00, germany@players.test wrote:\n"
        "> PRESS TO FRANCE\n> hi\n\nENDPRESS\nREADY\n"
    )
    steps = parse(said_lines(body))
    assert [type(step.command) for step in steps] == [Press, Ready]
    (press,) = [step.command for step in steps if isinstance(step.command, Press)]
    assert press.closed and press.body.split() == ["read", "this"]


def test_a_closed_press_block_before_a_forward_is_kept_and_the_forward_is_not() -> None:
    body = f"PRESS TO ITALY\nsee below\nENDPRESS\nREADY\n\n{HEADINGS['forward']}{GERMANY_SAID}"
    steps = parse(said_lines(body))
    assert [type(step.command) for step in steps] == [Press, Ready]
    assert not any(isinstance(step.command, (Draw, OrderLine)) for step in steps)


def test_a_press_block_holding_what_only_looks_like_a_heading_is_closed() -> None:
    # A line of press that names no date or address is no quote heading.
    body = "PRESS TO GERMANY\nOn Monday you wrote:\nfine\nENDPRESS\nREADY"
    assert said_lines(body) == ("PRESS TO GERMANY", "On Monday you wrote:", "fine", "ENDPRESS", "READY")


#: Texts built to make a line-by-line look-ahead quadratic: each a few lines repeated.
PATHOLOGICAL = [
    pytest.param("PRESS\n", id="press lines"),
    pytest.param("BROADCAST\n\n\n", id="broadcast lines, blank lines"),
    pytest.param("____________\n", id="rules"),
    pytest.param("On 5 Jan 2026 a@b.example wrote:\n> x\n", id="quote headings"),
    pytest.param("From: x\n", id="header lines"),
    pytest.param("PRESS TO ITALY\nENDPRESS\n-----Original Message-----\n", id="press then stop"),
    pytest.param("am schrieb schrieb schrieb schrieb ", id="german heading"),
]


@pytest.mark.parametrize("unit", PATHOLOGICAL)
def test_reading_is_linear(unit: str) -> None:
    # Review F3: a 96 KB mail of PRESS lines took 6.9 s, before any secret was checked. At
    # 800 KB a quadratic reading takes minutes; a linear one well under a second.
    text = unit * (800_000 // len(unit))
    started = time.process_time()
    said_lines(text)
    assert time.process_time() - started < 5


def test_a_whole_mail_of_press_lines_is_read_at_once() -> None:
    raw = b"From: x@evil.test\r\nTo: nobody@judge.test\r\nSubject: x\r\n\r\n" + b"PRESS\r\n" * 16_000
    started = time.process_time()
    letter = read_letter(raw)
    assert time.process_time() - started < 2
    assert len(letter.lines) > 14_000  # all the first 100,000 characters say
