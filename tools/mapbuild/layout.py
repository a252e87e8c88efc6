"""The layout pass: places every region's name and every unit anchor so nothing collides as drawn.

Everything is measured in pixels of the 1,500 px map with the renderer's sizes (``sizes.py``). Each name and
each anchor has a grid of candidate points (every 3 px) inside its region: anchors at least 8 px from the
region's edge (a coast's within reach of its seas, near the place named in ``board.COAST_ANCHORS``), names
with 85% of their box inside. A cost adds, per item, how far it is from where it looks best (an anchor at
its region's pole of inaccessibility, a name just above its anchor) and, per pair of items, how deep their
shapes overlap: hard overlaps (names, unit circles, centre markers) weigh a thousand times the soft ones
(dislodged rings, ghost captions, badges, notice marks). Coordinate descent moves one item at a time to its
best candidate given all the others until nothing moves; a few rounds shake the items still in a hard
collision and descend again. Centres are real cities and never move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from fogdip.engine.map import standard_map

import check
import sizes

Array = NDArray[np.float64]

GRID_PX = 3.0
HARD = 1000.0
SOFT = 4.0
# A name sits best this far above its anchor (its box then clears the unit's circle and badge), or this far
# below it (its box then clears the unit's ghost caption).
LABEL_ABOVE_PX = 27.0
LABEL_BELOW_PX = 36.0
# Hard clearances are met with this much to spare where it costs little (weight per px, soft).
MARGIN_PX = 3.0
MARGIN_WEIGHT = 0.5
# A coast's anchor stays within this distance of the place chosen for it in board.py.
COAST_RADIUS_PX = 70.0
# Nothing drawn for one item reaches further than this from another's point (ghost captions: 42 + 27 px).
REACH_PX = 80.0
# In a collision, an item is moved together with each item this close (px) in turn.
CROWD_PX = 70.0
# Margins kept inside the hard limits so rounding to board units never breaks them.
SLACK_PX = 0.3


@dataclass
class Item:
    """A name or an anchor, with its candidate points (px) and what each costs on its own."""

    key: str
    region: str
    is_label: bool
    points: Array
    own: Array
    half: float = 0.0  # a name's box half-width
    at: int = 0
    anchor_key: str = ""  # a name's province anchor (its preferred neighbour)
    label_key: str = ""  # an anchor's own name, for a province's (not a coast's) anchor
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def xy(self) -> Array:
        point: Array = self.points[self.at]
        return point


def step_for(shape: BaseGeometry) -> float:
    """Candidates every 3 px; every 2 px in middling regions, every pixel in the small ones (where one decides)."""
    return 1.0 if shape.area < 8000 else 2.0 if shape.area < 25000 else GRID_PX


def grid(shape: BaseGeometry, step: float) -> Array:
    x0, y0, x1, y1 = shape.bounds
    xs = np.arange(np.floor(x0 / step) * step, x1 + step, step)
    ys = np.arange(np.floor(y0 / step) * step, y1 + step, step)
    gx, gy = np.meshgrid(xs, ys)
    points: Array = np.column_stack((gx.ravel(), gy.ravel()))
    inside: Array = points[shapely.contains_xy(shape, points[:, 0], points[:, 1])]
    return inside


def depth(shape: BaseGeometry, points: Array) -> Array:
    return np.asarray(shapely.distance(shape.boundary, shapely.points(points)), dtype=float)


def largest_part(shape: BaseGeometry) -> BaseGeometry:
    return max(getattr(shape, "geoms", [shape]), key=lambda p: p.area)


def nearest_part(shape: BaseGeometry, point: Point) -> BaseGeometry:
    parts = list(getattr(shape, "geoms", [shape]))
    return min(parts, key=lambda part: part.distance(point))


def snap(points: Array, scale: float) -> Array:
    """Candidates on the board's unit grid, so the file holds exactly the points scored."""
    return np.round(points / scale) * scale


def anchor_item(
    loc: str, shape: BaseGeometry, centres: Array, scale: float, focus: tuple[float, float] | None = None
) -> Item:
    points = snap(grid(shape, step_for(shape)), scale)
    d = depth(shape, points)
    keep = (d >= sizes.ANCHOR_DEPTH_PX + SLACK_PX) & shapely.contains_xy(shape, points[:, 0], points[:, 1])
    if len(centres):
        near = np.min(np.hypot(*(points[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)), axis=1)
        keep &= near >= sizes.UNIT_PX + sizes.CENTRE_PX + SLACK_PX
    points, d = points[keep], d[keep]
    # The part the unit stands on: the largest, or the one nearest the focus.
    part = largest_part(shape) if focus is None else nearest_part(shape, Point(focus))
    pole = polylabel(part, tolerance=0.5) if focus is None else Point(focus)
    room = part.boundary.distance(polylabel(part, tolerance=0.5))
    enough = min(room, 45.0)
    # Deep enough is what matters most; then the nearer the pole the better (the arrows meet the middle).
    own = 0.6 * (enough - np.minimum(d, enough)) + 0.12 * np.hypot(points[:, 0] - pole.x, points[:, 1] - pole.y)
    in_part = shapely.contains_xy(part, points[:, 0], points[:, 1])
    # Off the part: a little worse where it is merely the largest; out of the question where a
    # focus names it (Naples stands on the mainland, not on Sicily).
    own = own + np.where(in_part, 0.0, 40.0 if focus is None else 1000.0)
    return Item(loc, loc, False, points, own, extra={"pole": (pole.x, pole.y)})


def coast_item(
    loc: str, shapes: dict[str, BaseGeometry], seed: tuple[float, float], centres: Array, scale: float
) -> Item:
    province = loc.split("/")[0]
    shape = shapes[province]
    own_seas, other_seas = check.coast_seas(loc)
    points = snap(grid(shape.intersection(Point(seed).buffer(COAST_RADIUS_PX)), 1.0), scale)
    d = depth(shape, points)
    keep = (d >= sizes.ANCHOR_DEPTH_PX + SLACK_PX) & shapely.contains_xy(shape, points[:, 0], points[:, 1])
    reach = np.min([shapely.distance(shapes[s], shapely.points(points)) for s in own_seas], axis=0)
    keep &= reach <= sizes.COAST_REACH_PX - SLACK_PX
    if other_seas:
        wrong = np.min([shapely.distance(shapes[s], shapely.points(points)) for s in other_seas], axis=0)
        keep &= wrong >= sizes.COAST_REACH_PX + SLACK_PX
    near = np.min(np.hypot(*(points[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)), axis=1)
    keep &= near >= sizes.UNIT_PX + sizes.CENTRE_PX + SLACK_PX
    points, reach = points[keep], reach[keep]
    # Near the place chosen, and clearly by its sea rather than deep inland.
    own = 0.08 * np.hypot(points[:, 0] - seed[0], points[:, 1] - seed[1]) + 0.3 * np.maximum(reach - 14.0, 0)
    return Item(loc, province, False, points, own)


def label_item(region: str, shape: BaseGeometry, kind: str, scale: float) -> Item:
    half = sizes.label_half_width(region)
    points = snap(grid(shape, step_for(shape)), scale)
    points = points[shapely.contains_xy(shape, points[:, 0], points[:, 1])]
    d = depth(shape, points)
    share = np.ones(len(points))
    diagonal = np.hypot(half, max(-sizes.LABEL_TOP_PX, sizes.LABEL_BOTTOM_PX))
    edge = d < diagonal + 1
    if edge.any():
        boxes = shapely.box(
            points[edge, 0] - half,
            points[edge, 1] + sizes.LABEL_TOP_PX,
            points[edge, 0] + half,
            points[edge, 1] + sizes.LABEL_BOTTOM_PX,
        )
        share[edge] = shapely.area(shapely.intersection(boxes, shape)) / shapely.area(boxes)
    keep = share >= sizes.LABEL_INSIDE + 0.005
    points, d, share = points[keep], d[keep], share[keep]
    own = 30.0 * (1.0 - share)
    if kind == "sea":
        own = own + 0.5 * np.maximum(22.0 - d, 0)
    return Item(region, region, True, points, own, half=half)


# -- pair costs: candidates of one item (n, 2) against others' current points (m, 2) -> (n, m) ------------


def circle_circle(p: Array, q: Array, reach: float) -> Array:
    dist = np.hypot(p[:, None, 0] - q[None, :, 0], p[:, None, 1] - q[None, :, 1])
    return np.maximum(reach - dist, 0.0)


def box_circle(p: Array, half: Array | float, q: Array, radius: float, box_y: tuple[float, float]) -> Array:
    """Box centred (x) on p, from p.y + box_y[0] to p.y + box_y[1], against circles of ``radius`` at q."""
    half = np.asarray(half, dtype=float)
    dx = np.maximum(np.abs(q[None, :, 0] - p[:, None, 0]) - (half[:, None] if half.ndim else half), 0.0)
    top = p[:, None, 1] + box_y[0]
    bottom = p[:, None, 1] + box_y[1]
    dy = np.maximum(np.maximum(top - q[None, :, 1], q[None, :, 1] - bottom), 0.0)
    return np.maximum(radius - np.hypot(dx, dy), 0.0)


def box_box(
    p: Array, p_box: tuple[float, float, float, float], q: Array, q_half: Array, q_y: tuple[float, float]
) -> Array:
    """Overlap depth of boxes p + (x0, x1, y0, y1) against boxes centred on q (half-widths q_half)."""
    ox = np.minimum(p[:, None, 0] + p_box[1], q[None, :, 0] + q_half[None, :]) - np.maximum(
        p[:, None, 0] + p_box[0], q[None, :, 0] - q_half[None, :]
    )
    oy = np.minimum(p[:, None, 1] + p_box[3], q[None, :, 1] + q_y[1]) - np.maximum(
        p[:, None, 1] + p_box[2], q[None, :, 1] + q_y[0]
    )
    return np.where((ox > 0) & (oy > 0), np.minimum(ox, oy), 0.0)


LABEL_Y = (sizes.LABEL_TOP_PX, sizes.LABEL_BOTTOM_PX)
DIS_DX, DIS_DY, DIS_R = sizes.DISLODGED
BADGE_DX, BADGE_DY, BADGE_R = sizes.BADGE
NOTE_DX, NOTE_DY, NOTE_R = sizes.NOTICE
DIS = np.array([DIS_DX, DIS_DY])
BADGE = np.array([BADGE_DX, BADGE_DY])
NOTE = np.array([NOTE_DX, NOTE_DY])


# Each returns (hard, soft) penetration matrices, (n, m), between n points of one kind and m of another.


def anchor_anchor(p: Array, q: Array) -> tuple[Array, Array]:
    hard = circle_circle(p, q, 2 * sizes.UNIT_PX)
    soft = MARGIN_WEIGHT * circle_circle(p, q, 2 * sizes.UNIT_PX + MARGIN_PX)
    dis_r = DIS_R + sizes.UNIT_PX
    soft += 0.5 * circle_circle(p + DIS, q, dis_r) + 0.5 * circle_circle(p, q + DIS, dis_r)
    g = sizes.GHOST_CAPTION
    soft += 0.3 * box_circle_box(p, g, q, sizes.UNIT_PX) + 0.3 * box_circle_box(q, g, p, sizes.UNIT_PX).T
    return hard, soft


def anchor_label(p: Array, q: Array, halves: Array) -> tuple[Array, Array]:
    """Anchors p against names at q."""
    hard = box_circle(q, halves, p, sizes.UNIT_PX, LABEL_Y).T
    soft = MARGIN_WEIGHT * box_circle(q, halves, p, sizes.UNIT_PX + MARGIN_PX, LABEL_Y).T
    soft += box_circle(q, halves, p + DIS, DIS_R, LABEL_Y).T
    soft += box_box(p, sizes.GHOST_CAPTION, q, halves, LABEL_Y)
    soft += box_circle(q, halves, p + BADGE, BADGE_R, LABEL_Y).T
    soft += 0.5 * circle_circle(p, q + NOTE, NOTE_R + sizes.UNIT_PX)
    return hard, soft


def label_label(p: Array, half: float, q: Array, halves: Array) -> tuple[Array, Array]:
    hard = box_box(p, (-half, half, *LABEL_Y), q, halves, LABEL_Y)
    m = MARGIN_PX
    wide = (-half - m, half + m, LABEL_Y[0] - m, LABEL_Y[1] + m)
    soft = MARGIN_WEIGHT * box_box(p, wide, q, halves, LABEL_Y)
    soft += 0.5 * box_circle(p, half, q + NOTE, NOTE_R, LABEL_Y)
    soft += 0.5 * box_circle(q, halves, p + NOTE, NOTE_R, LABEL_Y).T
    return hard, soft


def anchor_centre(p: Array, c: Array) -> tuple[Array, Array]:
    hard = circle_circle(p, c, sizes.UNIT_PX + sizes.CENTRE_PX)
    soft = MARGIN_WEIGHT * circle_circle(p, c, sizes.UNIT_PX + sizes.CENTRE_PX + MARGIN_PX)
    soft += circle_circle(p + DIS, c, DIS_R + sizes.CENTRE_PX)
    soft += box_circle_box(p, sizes.GHOST_CAPTION, c, sizes.CENTRE_PX)
    soft += 0.5 * circle_circle(p + BADGE, c, BADGE_R + sizes.CENTRE_PX)
    return hard, soft


def label_centre(p: Array, half: float, c: Array) -> tuple[Array, Array]:
    hard = box_circle(p, half, c, sizes.CENTRE_PX, LABEL_Y)
    soft = MARGIN_WEIGHT * box_circle(p, half, c, sizes.CENTRE_PX + MARGIN_PX, LABEL_Y)
    soft += 0.5 * circle_circle(p + NOTE, c, NOTE_R + sizes.CENTRE_PX)
    return hard, soft


def pairing(anchor: Array, label: Array) -> Array:
    """A name is best straight above its anchor; below will do; beside it, or far off, costs. (n, m)"""
    dx = label[None, :, 0] - anchor[:, None, 0]
    dy = label[None, :, 1] - anchor[:, None, 1]
    above = np.hypot(dx, dy + LABEL_ABOVE_PX)
    below = np.hypot(dx, dy - LABEL_BELOW_PX) + 4.0
    dist = np.hypot(dx, dy)
    result: Array = 0.6 * np.minimum(above, below) + 0.8 * np.abs(dx) + 3.0 * np.maximum(dist - 50.0, 0)
    return result


def interaction(a: Item, p: Array, b: Item, q: Array) -> tuple[Array, Array]:
    """Hard penetration and total cost, (n, m), of item a at points p with item b at points q."""
    if a.is_label and b.is_label:
        hard, soft = label_label(p, a.half, q, np.full(len(q), b.half))
    elif a.is_label:
        hard, soft = (m.T for m in anchor_label(q, p, np.full(len(p), a.half)))
    elif b.is_label:
        hard, soft = anchor_label(p, q, np.full(len(q), b.half))
    else:
        hard, soft = anchor_anchor(p, q)
    total = HARD * hard + SOFT * soft
    if not a.is_label and a.label_key and b.is_label and b.key == a.label_key:
        total = total + pairing(p, q)
    elif a.is_label and not b.is_label and a.anchor_key == b.key:
        total = total + pairing(q, p).T
    return hard, total


class Layout:
    def __init__(self, items: list[Item], centres: Array) -> None:
        self.items = items
        self.index = {item.key + ("#label" if item.is_label else ""): i for i, item in enumerate(items)}
        self.centres = centres

    def label_of(self, region: str) -> Item | None:
        i = self.index.get(region + "#label")
        return self.items[i] if i is not None else None

    def anchor_of(self, loc: str) -> Item | None:
        i = self.index.get(loc)
        return self.items[i] if i is not None else None

    def near(self, item: Item) -> list[Item]:
        """The items whose candidates come within reach of this item's (the others never interact with it)."""
        if "near" not in item.extra:
            x0, y0 = item.points.min(axis=0) - REACH_PX
            x1, y1 = item.points.max(axis=0) + REACH_PX
            near = [
                it
                for it in self.items
                if it is not item
                and it.points[:, 0].max() >= x0
                and it.points[:, 0].min() <= x1
                and it.points[:, 1].max() >= y0
                and it.points[:, 1].min() <= y1
            ]
            partner = self.anchor_of(item.anchor_key) if item.is_label else self.label_of(item.label_key)
            if partner is not None and partner not in near:
                near.append(partner)
            item.extra["near"] = near
        result: list[Item] = item.extra["near"]
        return result

    def costs(self, item: Item, points: Array | None = None, without: tuple[Item, ...] = ()) -> tuple[Array, Array]:
        """The cost of ``item`` at each of its candidates (or ``points``) given the others where they are:
        total, hard part."""
        p = item.points if points is None else points
        own = item.own if points is None else np.zeros(len(p))
        others = [it for it in self.near(item) if it not in without]
        if item.is_label:
            hard, soft = label_centre(p, item.half, self.centres)
        else:
            hard, soft = anchor_centre(p, self.centres)
        hard_sum = hard.sum(axis=1)
        total = own + HARD * hard_sum + SOFT * soft.sum(axis=1)
        for kind in (False, True):
            group = [it for it in others if it.is_label == kind]
            if not group:
                continue
            q = np.array([it.xy for it in group])
            halves = np.array([it.half for it in group])
            if item.is_label and kind:
                h, sft = label_label(p, item.half, q, halves)
            elif item.is_label:
                h, sft = (m.T for m in anchor_label(q, p, np.full(len(p), item.half)))
            elif kind:
                h, sft = anchor_label(p, q, halves)
            else:
                h, sft = anchor_anchor(p, q)
            hard_sum = hard_sum + h.sum(axis=1)
            total = total + HARD * h.sum(axis=1) + SOFT * sft.sum(axis=1)
            for j, it in enumerate(group):
                if not item.is_label and it.is_label and it.key == item.label_key:
                    total = total + pairing(p, q[j : j + 1])[:, 0]
                elif item.is_label and not it.is_label and it.key == item.anchor_key:
                    total = total + pairing(q[j : j + 1], p)[0]
        return total, hard_sum

    def descend(self, order: list[Item], rounds: int = 40) -> None:
        for _ in range(rounds):
            moved = 0
            for item in order:
                total, _ = self.costs(item)
                best = int(np.argmin(total))
                if total[best] < total[item.at] - 1e-9:
                    item.at = best
                    moved += 1
            if not moved:
                return

    def joint(self, a: Item, b: Item, limit: int = 400, ignoring: tuple[Item, ...] = ()) -> bool:
        """Moves two items together to their best pair of candidates (the most promising ``limit`` of each)."""
        cost_a, _ = self.costs(a, without=(b, *ignoring))
        cost_b, _ = self.costs(b, without=(a, *ignoring))
        pick_a = np.argsort(cost_a)[:limit]
        pick_b = np.argsort(cost_b)[:limit]
        if a.at not in pick_a:
            pick_a = np.append(pick_a, a.at)
        if b.at not in pick_b:
            pick_b = np.append(pick_b, b.at)
        _, inter = interaction(a, a.points[pick_a], b, b.points[pick_b])
        total = cost_a[pick_a][:, None] + cost_b[pick_b][None, :] + inter
        i, j = np.unravel_index(int(np.argmin(total)), total.shape)
        now = total[list(pick_a).index(a.at), list(pick_b).index(b.at)]
        if total[i, j] < now - 1e-9:
            a.at, b.at = int(pick_a[i]), int(pick_b[j])
            return True
        return False

    def energy(self) -> float:
        """The whole layout's cost: each item's own, each pair's once."""
        total = 0.0
        for item in self.items:
            cost, _ = self.costs(item, item.xy[None, :])
            total += float(item.own[item.at]) + 0.5 * float(cost[0])
        return total

    def partner(self, item: Item) -> Item | None:
        return self.anchor_of(item.anchor_key) if item.is_label else self.label_of(item.label_key)

    def kick(self, a: Item, b: Item, blocker: Item) -> bool:
        """Places a and b as if ``blocker`` (and its partner) were not there, lets those find new places, and
        keeps the result if the whole costs less."""
        saved = [it.at for it in self.items]
        before = self.energy()
        moved = tuple(it for it in (blocker, self.partner(blocker)) if it is not None and it not in (a, b))
        self.joint(a, b, ignoring=moved)
        self.descend([*moved, *moved], rounds=5)
        for it in moved:
            partner = self.partner(it)
            if partner is not None:
                self.joint(it, partner)
        if self.energy() < before - 1e-6:
            return True
        for it, at in zip(self.items, saved, strict=True):
            it.at = at
        return False

    def collisions(self) -> list[tuple[Item, Item | None]]:
        """Every hard collision: the pair of items (None for a centre)."""
        found: list[tuple[Item, Item | None]] = []
        for item in self.items:
            p = item.xy[None, :]
            if item.is_label:
                centre_hard, _ = label_centre(p, item.half, self.centres)
            else:
                centre_hard, _ = anchor_centre(p, self.centres)
            if centre_hard.sum() > 0:
                found.append((item, None))
            for other in self.near(item):
                if id(other) < id(item):
                    continue
                hard, _ = interaction(item, p, other, other.xy[None, :])
                if hard.sum() > 0:
                    found.append((item, other))
        return found

    def hard_items(self) -> list[Item]:
        return [item for pair in self.collisions() for item in pair if item is not None]


def box_circle_box(p: Array, p_box: tuple[float, float, float, float], q: Array, radius: float) -> Array:
    """Boxes p + (x0, x1, y0, y1) against circles of ``radius`` at q."""
    cx = p[:, 0] + (p_box[0] + p_box[1]) / 2
    cy = p[:, 1] + (p_box[2] + p_box[3]) / 2
    half_x, half_y = (p_box[1] - p_box[0]) / 2, (p_box[3] - p_box[2]) / 2
    dx = np.maximum(np.abs(q[None, :, 0] - cx[:, None]) - half_x, 0.0)
    dy = np.maximum(np.abs(q[None, :, 1] - cy[:, None]) - half_y, 0.0)
    return np.maximum(radius - np.hypot(dx, dy), 0.0)


def lay_out(
    doc: dict[str, Any],
    coast_places: dict[str, tuple[float, float]],
    focus_places: dict[str, tuple[float, float]] | None = None,
    seed: int = 7,
) -> list[str]:
    """Places the labels and anchors of ``doc`` (written in place, board units); returns what is still hard.
    ``focus_places`` (board units) stand in for the pole of regions much larger than their part of the board."""
    scale = check.px_scale(doc)
    shapes = check.region_shapes(doc)
    engine = standard_map()
    centres = np.array([(x * scale, y * scale) for x, y in doc["centres"].values()])
    items: list[Item] = []
    for region in sorted(doc["regions"]):
        if region in engine.provinces and region != "SWI":
            focus = (focus_places or {}).get(region)
            it = anchor_item(
                region, shapes[region], centres, scale, None if focus is None else (focus[0] * scale, focus[1] * scale)
            )
            it.label_key = region
            items.append(it)
    for coast, (x, y) in sorted(coast_places.items()):
        items.append(coast_item(coast, shapes, (x * scale, y * scale), centres, scale))
    for region, value in sorted(doc["regions"].items()):
        if value["kind"] not in sizes.UNLABELLED:
            it = label_item(region, shapes[region], value["kind"], scale)
            if region in engine.provinces and region != "SWI":
                it.anchor_key = region
            items.append(it)
    for it in items:
        if not len(it.points):
            raise RuntimeError(f"no room for the {'name' if it.is_label else 'anchor'} of {it.key}")
        it.at = int(np.argmin(it.own))
    layout = Layout(items, centres)
    for it in items:
        # A name starts where it is best for its anchor at the pole (for the others, at the pole itself).
        anchor = layout.anchor_of(it.anchor_key) if it.is_label else None
        if anchor is not None:
            it.at = int(np.argmin(it.own + pairing(anchor.xy[None, :], it.points)[0]))
        elif it.is_label:
            pole = polylabel(largest_part(shapes[it.key]), tolerance=0.5)
            it.at = int(np.argmin(it.own + 0.1 * np.hypot(it.points[:, 0] - pole.x, it.points[:, 1] - pole.y)))
    rng = random.Random(seed)
    # Anchors first (names follow them), the most constrained first.
    anchors = sorted((it for it in items if not it.is_label), key=lambda it: len(it.points))
    labels = sorted((it for it in items if it.is_label), key=lambda it: len(it.points))
    layout.descend(anchors)
    layout.descend(labels)
    layout.descend(anchors + labels)
    for _ in range(20):
        pairs = layout.collisions()
        if not pairs:
            break
        for one, two in pairs:
            # Move the two colliding items together, then each with its partner (name with anchor).
            group = [one] + ([two] if two is not None else [])
            tries = [(one, two)] if two is not None else []
            for item in group:
                partner = layout.label_of(item.label_key) if not item.is_label else layout.anchor_of(item.anchor_key)
                if partner is not None:
                    tries.append((item, partner))
                # and with each item close by, which may have to make room.
                tries += [(item, n) for n in layout.near(item) if np.hypot(*(n.xy - item.xy)) < CROWD_PX]
            for a, b in tries:
                if b is not None:
                    layout.joint(a, b)
        for one, _other in layout.collisions():
            # Still stuck: make room, moving a crowding item out of the way of the item and its partner.
            partner = layout.partner(one)
            if partner is None:
                continue
            crowd = [n for n in layout.near(one) if n is not partner and np.hypot(*(n.xy - one.xy)) < CROWD_PX]
            for blocker in sorted(crowd, key=lambda n: float(np.hypot(*(n.xy - one.xy)))):
                if layout.kick(one, partner, blocker):
                    break
        order = anchors + labels
        rng.shuffle(order)
        layout.descend(order)
    for it in items:
        x, y = (round(v / scale) for v in it.xy)
        if it.is_label:
            doc["regions"][it.key]["label"] = [x, y]
        else:
            doc["anchors"][it.key] = [x, y]
    return sorted({it.key for it in layout.hard_items()})
