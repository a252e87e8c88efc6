"""fogdip's version, for every layer that shows it (the ``fogdip version`` command, the
server's API description): it imports nothing of fogdip's, so anything may import it.

The version is the installed package's (its metadata, written from ``pyproject.toml``). A
source tree that was never installed has no metadata; it then says so instead of guessing.

>>> from fogdip import __version__
>>> __version__ == version_of("fogdip")
True
>>> version_of("no-such-distribution-installed")
'0+unknown (not installed)'
"""

from __future__ import annotations

from importlib import metadata

#: What a package without installed metadata reports: a valid PEP 440 local version that
#: sorts before every release, with a word on why.
NOT_INSTALLED = "0+unknown (not installed)"


def version_of(distribution: str) -> str:
    """The installed version of ``distribution``, or :data:`NOT_INSTALLED`."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return NOT_INSTALLED


__version__ = version_of("fogdip")
