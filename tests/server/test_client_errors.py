"""What the Python client says when the server refuses something: enough for a script's user
to see what to fix without digging into the answer's body."""

from __future__ import annotations

from servers import ServerProcess, account, failure


def test_a_refused_filing_names_each_refused_line_and_why(server: ServerProcess) -> None:
    master, france = account(server, "master"), account(server, "francois")
    game = master.create_game("fog-of-war")
    france.join(game.id, "FRANCE", invite=game.invite)
    master.seat_bots(game.id)
    master.start(game.id)
    refused = failure(france.file_orders, game.id, ["A PAR - BUR", "A PAR - NTH", "F BRE - MAO", "F MAR - PIC"])
    assert refused.status == 422
    verdicts = {line["number"]: line for line in refused.body["lines"]}
    assert [n for n, line in verdicts.items() if not line["ok"]] == [2, 4]
    assert "North Sea" in verdicts[2]["error"]
    for number in (2, 4):
        assert f"line {number} '{verdicts[number]['text']}': {verdicts[number]['error']}" in refused.message
    assert "A PAR - BUR" not in refused.message and "F BRE - MAO" not in refused.message
    assert refused.message in str(refused)
