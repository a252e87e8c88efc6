"""Fixtures: a judge with its SMTP server and a relay, on loopback, on a fresh database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from judges import World


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    running = World.start(tmp_path)
    yield running
    running.stop()
