"""The commands of a mail's lines, read without a judge."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fogdip.mail import commands as c


def kinds(lines: list[str]) -> list[str]:
    return [type(step.command).__name__ for step in c.parse(lines)]


def test_bare_order_lines_and_commands() -> None:
    assert kinds(["A PAR - BUR", "f bre - mao", "", "READY", "DRAW", "NODRAW", "STATUS", "HELP"]) == [
        "OrderLine",
        "OrderLine",
        "Ready",
        "Draw",
        "Draw",
        "Status",
        "Help",
    ]


def test_a_bulleted_line_reads_as_the_line_itself() -> None:
    """Outlook writes an HTML list's items out as "· READY": the bullet is not the command."""
    steps = c.parse(["· READY", "\u2022 A PAR - BUR", "· PRESS TO ITALY", "· hello", "ENDPRESS"])
    assert [step.command for step in steps[:2]] == [c.Ready(True), c.OrderLine("A PAR - BUR")]
    press = steps[2].command
    assert isinstance(press, c.Press) and press.body == "· hello" and press.closed


def test_press_text_is_never_read_for_commands() -> None:
    steps = c.parse(["BROADCAST", "READY", "ADJUDICATE", "A PAR - BUR", "ENDPRESS", "STATUS"])
    assert kinds(["BROADCAST", "READY", "ADJUDICATE", "A PAR - BUR", "ENDPRESS", "STATUS"]) == ["Press", "Status"]
    assert steps[0].command == c.Press(None, None, "READY\nADJUDICATE\nA PAR - BUR", True)


def test_press_without_its_end_is_not_closed_and_swallows_the_rest() -> None:
    steps = c.parse(["PRESS TO FRANCE", "hello", "READY"])
    assert steps[0].command == c.Press(("FRANCE",), None, "hello\nREADY", False)
    assert len(steps) == 1


def test_black_press_claims_a_sender() -> None:
    (step,) = c.parse(["PRESS TO France, Germany FROM england", "hi", "ENDPRESS"])
    assert step.command == c.Press(("France", "Germany"), "england", "hi", True)
    (step,) = c.parse(["BROADCAST FROM ITALY", "x", "ENDPRESS"])
    assert step.command == c.Press(None, "ITALY", "x", True)


def test_signon_only_on_the_first_line() -> None:
    assert c.parse(["SIGNON FRANCE ab12 0123"])[0].command == c.SignOn("FRANCE", "ab12", "0123")
    assert isinstance(c.parse(["STATUS", "SIGNON FRANCE ab12 0123"])[1].command, c.Unknown)


def test_numbers_and_phases() -> None:
    assert c.parse(["SET REMIND 6"])[0].command == c.SetRemind(6.0)
    assert c.parse(["set remind off"])[0].command == c.SetRemind(None)
    assert c.parse(["EXTEND 12"])[0].command == c.Extend(12.0)
    assert c.parse(["HISTORY f1901m"])[0].command == c.History("F1901M")
    assert c.parse(["MAP"])[0].command == c.MapAsk(None)
    for wrong in (["SET REMIND soon"], ["EXTEND"], ["EXTEND -3"], ["SET COLOUR red"], ["HELP ME"]):
        assert isinstance(c.parse(wrong)[0].command, c.Unknown), wrong


def test_unknown_words_are_not_orders_and_signoff_ends_reading() -> None:
    steps = c.parse(["Hello judge,", "A PAR H", "SIGNOFF", "READY"])
    assert kinds(["Hello judge,", "A PAR H", "SIGNOFF", "READY"]) == ["Unknown", "OrderLine", "SignOff"]
    assert "HELP" in steps[0].command.why  # type: ignore[union-attr]


@given(st.lists(st.text(max_size=40), max_size=12), st.lists(st.text(max_size=40), max_size=6))
def test_parse_never_raises_and_press_text_stays_text(before: list[str], inside: list[str]) -> None:
    body = [line for line in inside if line.strip().upper() != "ENDPRESS"]
    steps = c.parse([*before, "BROADCAST", *body, "ENDPRESS"])
    presses = [step.command for step in steps if isinstance(step.command, c.Press)]
    if not any(isinstance(step.command, c.SignOff) for step in steps) and all(
        line.split()[:1] not in (["PRESS"], ["BROADCAST"]) for line in (text.upper() for text in before)
    ):
        assert presses[-1] == c.Press(None, None, "\n".join(line.rstrip() for line in body).strip("\n"), True)


def test_ready_and_draw_take_the_bare_word_or_yes_or_no_only() -> None:
    assert c.parse(["READY"])[0].command == c.Ready(True)
    assert c.parse(["ready yes"])[0].command == c.Ready(True)
    assert c.parse(["READY NO"])[0].command == c.Ready(False)
    assert c.parse(["DRAW NO"])[0].command == c.Draw(False)
    for wrong in ("draw is not what I want", "DRAW NOT", "DRAW / NODRAW", "READY now please", "READY NO WAY"):
        (step,) = c.parse([wrong])
        assert isinstance(step.command, c.Unknown), wrong
        assert "alone" in step.command.why


def test_a_short_line_is_an_order_only_if_it_reads_as_one() -> None:
    assert kinds(["A PAR - BUR", "Jo", "Ok", "No", "No thanks", "Bye!"]) == ["OrderLine", *["Unknown"] * 5]
    assert kinds(["PAR H", "mar s par", "BRE - MAO", "NTH C LON - NWY"]) == ["OrderLine"] * 4


def test_extend_is_bounded() -> None:
    assert c.parse(["EXTEND 336"])[0].command == c.Extend(336.0)
    for wrong in ("EXTEND 99999999999999", "EXTEND 337", "EXTEND 1e400"):
        assert isinstance(c.parse([wrong])[0].command, c.Unknown), wrong
