"""The garbage collector, run when the server chooses.

Python's collector stops every thread while it walks every object it tracks. Left to itself,
under load it makes a full pass every few seconds, and with hundreds of streams open and the
games of the moment kept read (:class:`fogdip.server.store.ReadCache`) a pass takes a fifth of
a second or more: every request waiting then is late by that much. So the server freezes what
it made to start (it lives as long as the process), leaves the collector its quick passes over
young objects, and makes the full pass itself every ``every`` seconds (``FOGDIP_GC_EVERY``,
five minutes by default): as long a pause, far less often. The garbage a full pass finds is
what outlived the quick passes, some ten thousand objects a minute under the load benchmark's
500 players: a few MB kept a while longer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("fogdip.server")

#: Never a full pass on its own: :func:`collect_garbage` makes them. The quick passes keep
#: Python's schedule (young objects after 700 allocations, the middle generation after ten
#: young passes): larger ones would walk more at once, and a middle pass over a hundred
#: thousand objects stops the server as a full one does.
NEVER = 1_000_000_000


def take_over() -> None:
    """Freeze what the process has made so far and leave full passes to :func:`collect_garbage`."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)


async def collect_garbage(every: float) -> None:
    """A full pass every ``every`` seconds, until cancelled."""
    while True:
        await asyncio.sleep(every)
        start = time.perf_counter()
        found = gc.collect()
        log.debug("garbage collected: %d objects in %.0f ms", found, 1000 * (time.perf_counter() - start))
