"""The server's garbage-collection policy (``fogdip.server.memory``) and its setting."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from fogdip.server.config import Settings
from fogdip.server.memory import NEVER, collect_garbage, take_over


@pytest.fixture
def collector_restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("collector_restored")
def test_take_over_freezes_the_start_and_leaves_full_passes_to_the_server() -> None:
    gc.unfreeze()
    young, middle, _ = gc.get_threshold()
    take_over()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (young, middle, NEVER)


def test_the_server_makes_full_passes_on_its_schedule() -> None:
    before = gc.get_stats()[2]["collections"]

    async def run_until_three_passes() -> int:
        task = asyncio.create_task(collect_garbage(0.01))
        for _ in range(500):  # at most ten seconds
            await asyncio.sleep(0.02)
            if gc.get_stats()[2]["collections"] - before >= 3:
                break
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return gc.get_stats()[2]["collections"] - before

    assert asyncio.run(run_until_three_passes()) >= 3


def test_gc_every_from_the_environment(tmp_path: Path) -> None:
    assert Settings(tmp_path).gc_every == 300.0
    assert Settings.from_env({"FOGDIP_DATA": str(tmp_path), "FOGDIP_GC_EVERY": "0"}).gc_every == 0.0
    assert Settings.from_env({"FOGDIP_DATA": str(tmp_path), "FOGDIP_GC_EVERY": "30"}).gc_every == 30.0
    with pytest.raises(ValueError, match="FOGDIP_GC_EVERY"):
        Settings.from_env({"FOGDIP_DATA": str(tmp_path), "FOGDIP_GC_EVERY": "-1"})
