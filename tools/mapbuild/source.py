"""Fetching the pinned Natural Earth source and decoding its TopoJSON.

The geometry comes only from Natural Earth 1:50m (public domain) as packaged by the npm package
world-atlas@2.0.2 (ISC). We fetch it with ``npm pack`` and check the tarball's sha256 so that a
rebuild always starts from the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

PACKAGE = "world-atlas@2.0.2"
TARBALL = "world-atlas-2.0.2.tgz"
TARBALL_SHA256 = "032e7765f2ce00edaeafec23ff22bc3b77e42987c257da944cc585b452c05b97"
MEMBER = "package/countries-50m.json"


@dataclass(frozen=True)
class Country:
    """One feature of ``objects.countries``: ISO numeric id (may be empty), name and lon/lat geometry."""

    id: str
    name: str
    geometry: BaseGeometry


def fetch_tarball(cache: Path) -> Path:
    """The pinned tarball in ``cache``, packed by npm if it is not there yet; its sha256 is checked."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / TARBALL
    if not tarball.exists():
        subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=cache, check=True, stdout=subprocess.DEVNULL)
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != TARBALL_SHA256:
        raise SystemExit(f"{tarball}: sha256 {digest} is not the pinned {TARBALL_SHA256}")
    return tarball


def read_topology(tarball: Path) -> dict[str, Any]:
    """The TopoJSON document ``countries-50m.json`` inside the tarball."""
    with tarfile.open(tarball, "r:gz") as tar:
        member = tar.extractfile(MEMBER)
        if member is None:
            raise SystemExit(f"{tarball}: no {MEMBER}")
        data: dict[str, Any] = json.load(member)
    return data


def decode_arcs(topology: dict[str, Any]) -> list[list[tuple[float, float]]]:
    """Every arc as absolute lon/lat points: arcs are quantized and delta-encoded, then scaled by the transform."""
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs: list[list[tuple[float, float]]] = []
    for encoded in topology["arcs"]:
        x = y = 0
        points: list[tuple[float, float]] = []
        for dx, dy in encoded:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def _ring(arcs: list[list[tuple[float, float]]], refs: list[int]) -> list[tuple[float, float]]:
    """A closed ring from arc references; ~i means arc i reversed. Consecutive arcs share their joining point."""
    points: list[tuple[float, float]] = []
    for ref in refs:
        arc = arcs[ref] if ref >= 0 else arcs[~ref][::-1]
        points.extend(arc if not points else arc[1:])
    return points


def _polygon(arcs: list[list[tuple[float, float]]], rings: list[list[int]]) -> Polygon:
    shell, *holes = (_ring(arcs, refs) for refs in rings)
    return Polygon(shell, holes)


def decode_geometry(arcs: list[list[tuple[float, float]]], obj: dict[str, Any]) -> BaseGeometry:
    """A Polygon or MultiPolygon object (the only kinds countries-50m holds) as a shapely geometry."""
    kind = obj.get("type")
    if kind == "Polygon":
        return _polygon(arcs, obj["arcs"])
    if kind == "MultiPolygon":
        return MultiPolygon([_polygon(arcs, rings) for rings in obj["arcs"]])
    if kind is None:
        return MultiPolygon()
    raise ValueError(f"unexpected TopoJSON geometry type {kind}")


def load_countries(cache: Path) -> tuple[list[Country], str]:
    """The countries of the pinned source and a one-line description of it for the output file."""
    topology = read_topology(fetch_tarball(cache))
    arcs = decode_arcs(topology)
    countries = [
        Country(str(obj.get("id", "")), obj["properties"]["name"], decode_geometry(arcs, obj))
        for obj in topology["objects"]["countries"]["geometries"]
    ]
    source = f"Natural Earth 1:50m (public domain) via npm {PACKAGE} countries-50m.json sha256 {TARBALL_SHA256}"
    return countries, source
