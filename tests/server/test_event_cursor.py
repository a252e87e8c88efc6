"""The hub's cursor over events (``fogdip.server.events.EventCursor``): transactions commit in
any order, so an event may come to light after one with a higher id was read; each must still
be handed on, once. (Found by the load benchmark with two PostgreSQL processes: 15 of 2,000
phase events never reached their streams while the hub kept only the highest id read.)"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fogdip.server.events import EventCursor


def reads(committed: set[int], floor: int) -> list[dict[str, int]]:
    """What the hub's query returns: every committed event above ``floor``, by id."""
    return [{"id": i} for i in sorted(committed) if i > floor]


@given(st.permutations(range(1, 41)), st.lists(st.integers(min_value=1, max_value=6), min_size=40, max_size=40))
def test_every_event_is_handed_on_once_whatever_order_they_commit_in(
    order: list[int], reads_between: list[int]
) -> None:
    cursor = EventCursor(0)
    committed: set[int] = set()
    handed: list[int] = []
    clock = 0.0
    for event_id, between in zip(order, reads_between, strict=True):
        committed.add(event_id)
        for _ in range(between % 3):  # the hub may read several times, or not at all, between commits
            handed += [e["id"] for e in cursor.take(reads(committed, cursor.floor), clock)]
            clock += 0.1
    handed += [e["id"] for e in cursor.take(reads(committed, cursor.floor), clock)]
    assert sorted(handed) == list(range(1, 41))
    assert cursor.floor == 40


def test_an_id_never_committed_is_passed_after_the_grace() -> None:
    cursor = EventCursor(0, grace=30.0)
    assert [e["id"] for e in cursor.take([{"id": 2}, {"id": 3}], now=0.0)] == [2, 3]
    assert cursor.floor == 0  # 1 may yet commit
    assert cursor.take([{"id": 2}, {"id": 3}], now=10.0) == []
    assert cursor.take([{"id": 2}, {"id": 3}], now=31.0) == []
    assert cursor.floor == 3  # 1 rolled back: passed
    assert [e["id"] for e in cursor.take([{"id": 4}], now=32.0)] == [4]
    assert cursor.floor == 4
