"""The bots' registry: every bot by its name, each with the longest it may think (a server
files a bot's orders that long after a turn begins, never sooner; a bot without one could not
be seated)."""

from __future__ import annotations

import pytest

from fogdip.bots.base import THINKING_SECONDS, bot_named, bot_names, thinking_time


def test_every_bot_has_the_longest_it_may_think_and_only_the_bots_do() -> None:
    assert set(THINKING_SECONDS) == set(bot_names())
    assert all(0 < seconds <= 2 for seconds in THINKING_SECONDS.values())


@pytest.mark.parametrize("name", bot_names())
def test_a_bot_is_found_by_its_name_written_any_way(name: str) -> None:
    assert bot_named(f" {name.upper()} ").name == name
    assert thinking_time(f" {name.upper()} ") == THINKING_SECONDS[name]


def test_an_unknown_bot_is_refused_with_the_names_to_use() -> None:
    with pytest.raises(ValueError, match="there is no bot named 'dumbbot': the bots are heuristic"):
        bot_named("dumbbot")
