"""fogdip: Diplomacy with hidden information (fog of war).

>>> import fogdip
>>> from fogdip.version import __version__
>>> fogdip.__version__ == __version__
True
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # The version is read from the package's metadata when first asked for: importing
    # importlib.metadata costs a process ~30 ms, which the engine alone need not pay.
    if name == "__version__":
        from fogdip.version import __version__

        return __version__
    raise AttributeError(f"module 'fogdip' has no attribute {name!r}")
