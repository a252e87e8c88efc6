"""What fogdip's renderer (src/fogdip/maps/svg.py) draws round a label, a unit and a centre, in pixels of the
1,500 px wide map: the layout pass places everything with these, and the checker holds the file to them.

A pixel is ``PX`` board units (the map is 21,600 units wide, so a pixel is 14.4 units, 3.6 km).
"""

from __future__ import annotations

MAP_PX = 1500.0

# A region's name: 12 px bold, centred on the label point, baseline 4 px below it, 3 px halo. Its box is
# [x - w/2 - 2, x + w/2 + 2] x [y - 7, y + 6] with w = 7.8 px per character.
LABEL_CHAR_PX = 7.8
LABEL_PAD_PX = 2.0
LABEL_TOP_PX = -7.0
LABEL_BOTTOM_PX = 6.0
# Regions of these kinds have no name drawn (their label points are left as they are).
UNLABELLED = frozenset({"neutral", "lake"})
# At least this share of a name's box lies in its own region.
LABEL_INSIDE = 0.85

# A unit (army r=12, fleet 32 x 26 with its sail, hold ring r=17) keeps out of this circle round its anchor.
UNIT_PX = 18.0
# A supply-centre marker (r=6.5 plus its stroke).
CENTRE_PX = 8.0
# An anchor lies this far inside its region at least.
ANCHOR_DEPTH_PX = 8.0
# A coast's anchor lies on its province's land at most this far from the sea(s) of that coast.
COAST_REACH_PX = 25.0

# Soft keep-outs, relative to the anchor (x, y) or the label point.
DISLODGED = (17.0, 13.0, 16.0)  # a dislodged unit is drawn at (x+17, y+13) with a ring r=16
GHOST_CAPTION = (-42.0, 42.0, 16.0, 29.0)  # "last seen F1902", centred at (x, y+25): x0, x1, y0, y1
BADGE = (13.0, -13.0, 7.5)  # a build/disband badge at (x+13, y-13), r=7.5
NOTICE = (-16.0, -16.0, 9.0)  # a notice mark at (label x-16, label y-16), r=9


def label_half_width(code: str) -> float:
    """Half the width of a name's box, halo included."""
    return LABEL_CHAR_PX * len(code) / 2 + LABEL_PAD_PX
