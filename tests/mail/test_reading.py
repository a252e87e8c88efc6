"""Reading incoming mail (fogdip.mail.reading): the lines a letter says, from plain text or
HTML, without quoted replies or signatures; every fault said in words, never raised."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogdip.mail.commands import Press, Ready, parse
from fogdip.mail.reading import MAX_TEXT, Letter, html_text, read_letter, said_lines

SEAT = "g1-france-9fk3ab@judge.example"


def mail(body: str | None = None, *, html: str | None = None, subject: str = "orders", **headers: str) -> bytes:
    """A mail as a client sends it: a text part, an HTML part, or both (alternative)."""
    message = EmailMessage()
    message["From"] = headers.pop("sender", "Anne <anne@example.org>")
    message["To"] = headers.pop("to", SEAT)
    message["Subject"] = subject
    message["Message-ID"] = headers.pop("message_id", "<m1@example.org>")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    if body is not None:
        message.set_content(body)
        if html is not None:
            message.add_alternative(html, subtype="html")
    elif html is not None:
        message.set_content(html, subtype="html")
    return message.as_bytes(policy=SMTP)


def test_headers_are_read() -> None:
    letter = read_letter(mail("A PAR H\n", to=f"Anne's seat <{SEAT.upper()}>", Cc="other@Example.org"))
    assert letter.message_id == "m1@example.org"
    assert letter.sender == "anne@example.org"
    assert letter.recipients == (SEAT, "other@example.org")
    assert letter.subject == "orders"
    assert letter.lines == ("A PAR H",)
    assert letter.problems == ()


def test_the_envelope_is_taken_over_the_headers() -> None:
    letter = read_letter(
        mail("HELP", sender="spoofed@example.com"),
        envelope_sender="bounce@example.org",
        envelope_recipients=["G1-France-9FK3AB@Judge.Example", "g1-france-9fk3ab@judge.example"],
    )
    assert letter.sender == "bounce@example.org"
    assert letter.recipients == (SEAT,)


def test_a_mailbox_that_gathers_addresses_gives_the_delivered_one() -> None:
    letter = read_letter(mail("HELP", to="undisclosed-recipients:;", Delivered_To=SEAT))
    assert letter.recipients == (SEAT,)


def test_no_message_id_and_an_encoded_subject() -> None:
    raw = (
        b"From: a@example.org\r\nTo: "
        + SEAT.encode()
        + b"\r\nSubject: =?utf-8?q?Ordres_d=C3=A9j=C3=A0?=\r\n\r\nA PAR H\r\n"
    )
    letter = read_letter(raw)
    assert letter.message_id is None
    assert letter.subject == "Ordres déjà"
    assert letter.lines == ("A PAR H",)


def test_quoted_lines_and_signature_are_left_out() -> None:
    body = "ORDERS  \nA PAR - BUR\t\n> A MAR H\n>> old\nREADY\n\n-- \nAnne\nParis\n"
    assert read_letter(mail(body)).lines == ("ORDERS", "A PAR - BUR", "READY")


def test_a_signature_line_whose_space_was_stripped() -> None:
    assert said_lines("READY\n--\nAnne") == ("READY",)


def test_a_top_posted_reply() -> None:
    body = (
        "A PAR - BUR\nF BRE - MAO\n\n"
        "On Mon, Jan 5, 2026 at 10:00 AM fogdip judge <judge@judge.example> wrote:\n"
        "> fogdip g1: S1901M played — FRANCE\n> A PAR - BUR (ok)\n"
    )
    assert read_letter(mail(body)).lines == ("A PAR - BUR", "F BRE - MAO")


def test_a_wrapped_attribution() -> None:
    body = "READY\n\nOn 2026-01-05 10:00, fogdip judge\n<judge@judge.example> wrote:\nS1901M played\nA PAR H"
    assert said_lines(body) == ("READY",)


def test_attributions_in_other_languages() -> None:
    french = "READY\n\nLe lun. 5 janv. 2026 à 10:00, fogdip judge <judge@judge.example> a\nécrit :\n> HELP\n"
    assert said_lines(french) == ("READY",)
    german = "READY\nAm 05.01.2026 um 10:00 schrieb fogdip judge <judge@judge.example>:\n> HELP"
    assert said_lines(german) == ("READY",)


def test_answers_written_below_the_quotes_are_kept() -> None:
    body = (
        "On Mon, 5 Jan 2026 10:00, judge@judge.example wrote:\n"
        "> Next: Fall 1901.\n> What are your orders?\n"
        "A BUR - MUN\n"
        "> Deadline 2026-01-07\n"
        "READY\n"
    )
    assert said_lines(body) == ("A BUR - MUN", "READY")


def test_an_outlook_reply() -> None:
    assert said_lines("DRAW\n\n-----Original Message-----\nFrom: judge\nSent: today\nA PAR H") == ("DRAW",)
    rule = "NODRAW\n________________________________\nFrom: fogdip judge <judge@judge.example>\nA PAR H"
    assert said_lines(rule) == ("NODRAW",)


def test_press_that_reads_like_a_quote_heading_is_kept() -> None:
    body = "PRESS TO GERMANY\nOn Monday you wrote:\nlet us be friends\nENDPRESS\nA PAR H"
    assert said_lines(body) == ("PRESS TO GERMANY", "On Monday you wrote:", "let us be friends", "ENDPRESS", "A PAR H")


def test_sent_from_my_phone_is_dropped_at_the_end() -> None:
    assert said_lines("READY\n\nSent from my iPhone\n") == ("READY",)


def test_old_and_odd_line_endings() -> None:
    assert said_lines("A PAR H\rA MAR H\r\nF BRE H\u00a0\n\ufeffREADY") == ("A PAR H", "A MAR H", "F BRE H", "READY")


def test_html_only_mail_is_read_as_text() -> None:
    html = (
        "<html><head><title>t</title><style>div { color: red }</style></head><body>"
        "<script>alert('A MUN H')</script>"
        "<div>A PAR&nbsp;-&nbsp;BUR</div><div>F BRE &#45; MAO<br>READY</div>"
        '<div class="gmail_quote"><div>On Mon, 5 Jan 2026 judge@judge.example wrote:</div>'
        "<blockquote><p>A MUN - RUH</p></blockquote></div></body></html>"
    )
    letter = read_letter(mail(html=html))
    assert letter.lines == ("A PAR - BUR", "F BRE - MAO", "READY")
    assert letter.problems == ()


def test_an_outlook_html_reply() -> None:
    html = (
        '<div>A PAR - BUR</div><div>READY</div><hr style="display:inline-block;width:98%">'
        '<div id="divRplyFwdMsg"><b>From:</b> fogdip judge &lt;judge@judge.example&gt;<br>'
        "<b>Sent:</b> Monday<br></div><div>Next: Fall 1901</div>"
    )
    assert read_letter(mail(html=html)).lines == ("A PAR - BUR", "READY")


def test_a_blockquote_alone_is_quoted() -> None:
    assert said_lines(html_text("<p>READY</p><blockquote>A MUN H<blockquote>A KIE H</blockquote></blockquote>")) == (
        "READY",
    )


def test_html_preformatted_text_keeps_its_lines() -> None:
    assert html_text("<pre>A PAR H\nA MAR H</pre>").splitlines() == ["A PAR H", "A MAR H"]


def test_the_plain_part_is_read_before_the_html_one() -> None:
    letter = read_letter(mail("A PAR H", html="<p>A MAR H</p>"))
    assert letter.lines == ("A PAR H",)


def test_no_text_part() -> None:
    message = EmailMessage()
    message["From"] = "anne@example.org"
    message["To"] = SEAT
    message.set_content(b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", filename="map.png")
    letter = read_letter(message.as_bytes())
    assert letter.lines == ()
    assert any("no text to read" in problem for problem in letter.problems)


def attached(size: int, *, name: str = "big.bin", kind: tuple[str, str] = ("application", "octet-stream")) -> bytes:
    message = EmailMessage()
    message["From"] = "anne@example.org"
    message["To"] = SEAT
    message["Subject"] = "with a file"
    message.set_content("A PAR - BUR\nREADY\n")
    message.add_attachment(b"\0" * size, maintype=kind[0], subtype=kind[1], filename=name)
    return message.as_bytes()


def test_a_ten_megabyte_attachment_is_ignored() -> None:
    letter = read_letter(attached(10 * 1024 * 1024))
    assert letter.lines == ("A PAR - BUR", "READY")
    assert len(letter.problems) == 1
    assert "'big.bin'" in letter.problems[0] and "10.0 MB" in letter.problems[0] and "ignored" in letter.problems[0]


def test_a_text_attachment_is_not_read_for_orders() -> None:
    message = EmailMessage()
    message["To"] = SEAT
    message.set_content("READY")
    message.add_attachment("A MAR - SPA\n", filename="orders.txt")
    letter = read_letter(message.as_bytes())
    assert letter.lines == ("READY",)
    assert any("'orders.txt'" in problem for problem in letter.problems)


def test_broken_mime_is_said_not_raised() -> None:
    no_boundary = b"From: a@example.org\r\nTo: x@judge.example\r\nContent-Type: multipart/mixed\r\n\r\nA PAR H\r\n"
    letter = read_letter(no_boundary)
    assert any("broken" in problem for problem in letter.problems)
    unclosed = (
        b"From: a@example.org\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n"
        b"--XX\r\nContent-Type: text/plain\r\n\r\nA PAR H\r\nREADY\r\n"
    )
    letter = read_letter(unclosed)
    assert letter.lines == ("A PAR H", "READY")
    assert any("never closed" in problem for problem in letter.problems)
    damaged = (
        b"From: a@example.org\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\nQSBQQVIgSA=\r\n"
    )
    assert read_letter(damaged).problems  # still read, as far as it goes


def test_non_ascii_without_a_charset() -> None:
    raw = b"From: a@example.org\r\nSubject: caf\xc3\xa9\r\n\r\nPRESS TO GERMANY\r\nd\xc3\xa9j\xc3\xa0\r\nENDPRESS\r\n"
    letter = read_letter(raw)
    assert letter.subject == "café"
    assert letter.lines == ("PRESS TO GERMANY", "déjà", "ENDPRESS")
    assert any("does not say its charset" in problem for problem in letter.problems)


def test_latin_1_declared_is_read_without_a_problem() -> None:
    raw = b"Content-Type: text/plain; charset=iso-8859-1\r\n\r\nd\xe9j\xe0\r\n"
    letter = read_letter(raw)
    assert letter.lines == ("déjà",) and letter.problems == ()


def test_bytes_the_charset_cannot_read_are_replaced() -> None:
    raw = b"Content-Type: text/plain; charset=utf-8\r\n\r\nA PAR H\r\nd\xe9j\xe0\r\n"
    letter = read_letter(raw)
    assert letter.lines == ("A PAR H", "d\ufffdj\ufffd")
    assert any("could not be read as utf-8" in problem for problem in letter.problems)


def test_an_unknown_charset() -> None:
    letter = read_letter(b"Content-Type: text/plain; charset=klingon-8\r\n\r\nA PAR H\r\n")
    assert letter.lines == ("A PAR H",)
    assert any("'klingon-8' is not known" in problem for problem in letter.problems)


def test_too_long_a_text_is_cut() -> None:
    letter = read_letter(mail("A PAR H\n" * (MAX_TEXT // 4)))
    assert len("\n".join(letter.lines)) <= MAX_TEXT
    assert any("too long" in problem for problem in letter.problems)


def test_nothing_at_all() -> None:
    letter = read_letter(b"")
    assert letter == Letter(None, "", (), "", (), ())


# --- never raises ---------------------------------------------------------------------------

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Pieces of mail, for bytes that look like mail more often than random bytes do.
PIECES = [
    b"From: a@example.org\r\n",
    b"To: <x@judge.example>, =?utf-8?b?w6k=?= <y@z>\r\n",
    b"Subject: =?unknown?q?=FF?=\r\n",
    b"Subject: caf\xe9\r\n",
    b"Message-ID: <<>>\r\n",
    b"Content-Type: multipart/mixed; boundary=B\r\n",
    b'Content-Type: multipart/alternative; boundary=""\r\n',
    b'Content-Type: text/plain; charset="utf-7"\r\n',
    b"Content-Type: text/html; charset=bogus\r\n",
    b"Content-Type: message/rfc822\r\n",
    b"Content-Transfer-Encoding: base64\r\n",
    b"Content-Transfer-Encoding: quoted-printable\r\n",
    b"Content-Disposition: attachment; filename*=utf-8''%FF%FE\r\n",
    b"\r\n",
    b"--B\r\n",
    b"--B--\r\n",
    b"A PAR - BUR\r\n",
    b"> quoted\r\n",
    b"-- \r\n",
    b"On 1 Jan 2026 a@b wrote:\r\n",
    b"<div><blockquote><script>x</script>&#xffffff;&bogus;<br/></div>\r\n",
    b"=C3=A9=\r\n",
    b"QSBQQVIgSA==\r\n",
    b"\xff\xfe\x00\x80",
]


@FUZZ
@given(st.binary(max_size=2000))
def test_any_bytes_are_read_without_raising(raw: bytes) -> None:
    _check(read_letter(raw))


@FUZZ
@given(st.lists(st.sampled_from(PIECES) | st.binary(max_size=20), max_size=40))
def test_any_mail_like_bytes_are_read_without_raising(pieces: list[bytes]) -> None:
    _check(read_letter(b"".join(pieces), envelope_recipients=["A@B"]))


def _check(letter: Letter) -> None:
    assert isinstance(letter, Letter)
    assert letter.message_id is None or isinstance(letter.message_id, str)
    assert isinstance(letter.sender, str) and isinstance(letter.subject, str)
    assert all(isinstance(line, str) and line == line.rstrip() for line in letter.lines)
    assert all(address == address.lower() for address in letter.recipients)
    assert all(isinstance(problem, str) and problem for problem in letter.problems)
    "\n".join(letter.lines).encode("utf-8")  # nothing unencodable (lone surrogates) is handed on
    letter.subject.encode("utf-8")


def test_mail_from_a_machine_is_marked() -> None:
    assert not read_letter(mail("READY")).automatic
    assert not read_letter(mail("READY", Auto_Submitted="no")).automatic
    assert read_letter(mail("I am away until Monday.", Auto_Submitted="auto-replied")).automatic
    assert read_letter(mail("away", Precedence="bulk")).automatic
    assert read_letter(mail("away", X_Autoreply="yes")).automatic
    assert read_letter(mail("Undeliverable"), envelope_sender="").automatic
    assert not read_letter(mail("READY"), envelope_sender="anne@example.org").automatic
    report = b"From: MAILER-DAEMON@example.org\r\nContent-Type: multipart/report; boundary=R\r\n\r\n--R\r\n\r\nfailed\r\n--R--\r\n"
    assert read_letter(report).automatic


@FUZZ
@given(
    st.lists(
        st.sampled_from(["A PAR H", "> old", "", "-- ", "On 1 Jan 2026 a@b wrote:", "READY", " x "])
        | st.text(max_size=30),
        max_size=30,
    )
)
def test_said_lines_are_the_writers_own(lines: list[str]) -> None:
    """Whatever the text, the lines read are some of its own lines, in order, none quoted."""
    said = said_lines("\n".join(lines))
    own = [line.translate({0xA0: " ", 0x200B: None, 0xFEFF: None}).rstrip() for line in "\n".join(lines).splitlines()]
    assert not any(line.lstrip().startswith(">") for line in said)
    remaining = iter(own)
    assert all(any(line == other for other in remaining) for line in said)


def test_a_press_block_keeps_its_quote_marks_and_its_signature_line() -> None:
    # (Review R4: a press line beginning with ">" was lost, and a "-- " line in press cut the rest.)
    body = (
        "READY\nPRESS TO ITALY\n> you said Tyrolia, not Trieste\n-- \nyour friend in Paris\nENDPRESS\n"
        "A PAR H\n\n-- \nAnne, Paris\n"
    )
    letter = read_letter(mail(body))
    assert letter.lines == (
        "READY",
        "PRESS TO ITALY",
        "> you said Tyrolia, not Trieste",
        "--",
        "your friend in Paris",
        "ENDPRESS",
        "A PAR H",
    )
    steps = parse(letter.lines)
    (press,) = [step.command for step in steps if isinstance(step.command, Press)]
    assert press.body == "> you said Tyrolia, not Trieste\n--\nyour friend in Paris" and press.closed
    assert [step.command for step in steps if isinstance(step.command, Ready)] != []


def test_an_unclosed_press_block_keeps_the_quote_stripping() -> None:
    # A forgotten ENDPRESS never sends the quoted mail below it (the judge's, another's) as press.
    body = (
        "PRESS TO ITALY\nsee you in Venice\n\nOn Tue, 6 Jan 2026 at 10:00, judge@j.example wrote:\n> FRANCE, S1901M\n"
    )
    assert read_letter(mail(body)).lines == ("PRESS TO ITALY", "see you in Venice")
    quoted = "> PRESS TO ITALY\n> old words\nENDPRESS\nREADY\n"  # a quoted block is no block
    assert read_letter(mail(quoted)).lines == ("ENDPRESS", "READY")


def test_html_styled_hidden_is_not_read_at_all() -> None:
    html = (
        '<div style="display:none;max-height:0">DRAW<div>READY</div></div>'
        "<p>A PAR - BUR</p>"
        '<span style="visibility: hidden">NODRAW</span><p hidden>STATUS</p>'
        "<div><div>F BRE H</div></div><br>"
    )
    letter = read_letter(mail(html=html))  # (review F4: what hides text is refused whole)
    assert letter.lines == ()
    assert any("plain text" in problem for problem in letter.problems)
