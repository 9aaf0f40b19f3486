"""Geometry of Unit Boundaries and arcs (t9a)."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from rulesref.engine.t9a.geometry import (
    Arc,
    Motion,
    UnitBoundary,
    bearing_of,
    bearing_vector,
    gap,
    located_in,
    polygons_of,
    shrunk,
    shrunk_each,
    turn_between,
    work_out_shapes,
)

coords = st.floats(min_value=-50, max_value=50, allow_nan=False)
sizes = st.floats(min_value=0.5, max_value=12, allow_nan=False)
bearings = st.floats(min_value=0, max_value=359.999, allow_nan=False)
units = st.builds(UnitBoundary, centre=st.tuples(coords, coords), width=sizes, depth=sizes, facing=bearings)


def test_bearing_convention():
    assert bearing_vector(0) == pytest.approx((0, 1))
    assert bearing_vector(90) == pytest.approx((1, 0))
    assert bearing_of((-1, 0)) == pytest.approx(270)
    assert turn_between(350, 10) == pytest.approx(20)
    assert turn_between(10, 350) == pytest.approx(-20)
    assert turn_between(0, 180) == pytest.approx(180)


def test_corners_and_facings():
    unit = UnitBoundary((10, 10), width=4, depth=2, facing=0)
    assert [c for corner in unit.corners for c in corner] == pytest.approx([8, 11, 12, 11, 12, 9, 8, 9])
    assert unit.front_centre == pytest.approx((10, 11))
    turned = unit.pivoted(90)
    assert turned.front_centre == pytest.approx((11, 10))


@pytest.mark.parametrize(
    "point, arc",
    [
        ((10, 15), Arc.FRONT),
        ((10, 11), Arc.FRONT),  # on the Front Facing
        ((10, 5), Arc.REAR),
        ((20, 10), Arc.RIGHT_FLANK),
        ((0, 10), Arc.LEFT_FLANK),
        ((13, 12), Arc.RIGHT_FLANK),  # exactly on the 135° line from the front-right corner: Flank
        ((7, 12), Arc.LEFT_FLANK),
        ((12, 11), Arc.RIGHT_FLANK),  # the corner itself
        ((13, 12.01), Arc.FRONT),
        ((13.01, 12), Arc.RIGHT_FLANK),
        ((10, 10), None),  # inside the boundary
    ],
)
def test_arc_of(point, arc):
    unit = UnitBoundary((10, 10), width=4, depth=2, facing=0)
    assert unit.arc_of(point) is arc


def test_located_in_uses_centre_of_front_facing():
    target = UnitBoundary((0, 0), width=4, depth=2, facing=0)
    # Charger's body mostly beside the target, but the centre of its front is ahead of it.
    charger = UnitBoundary((3, 4), width=4, depth=2, facing=180)
    assert charger.front_centre == pytest.approx((3, 3))
    assert located_in(charger, target) is Arc.FRONT
    flanker = UnitBoundary((6, 0), width=2, depth=2, facing=270)
    assert located_in(flanker, target) is Arc.RIGHT_FLANK


def test_gap_between_boundaries():
    a = UnitBoundary((0, 0), width=4, depth=2, facing=0)
    b = UnitBoundary((0, 7), width=4, depth=2, facing=180)
    assert gap(a, b) == pytest.approx(5)


@settings(max_examples=300, deadline=None)
@given(unit=units, x=coords, y=coords)
def test_arcs_partition_the_plane_around_a_unit(unit, x, y):
    """Each point outside the boundary is in exactly one arc, and the arc regions agree with arc_of."""
    point = (x, y)
    arc = unit.arc_of(point)
    u, v = unit.local(point)
    inside = abs(u) < unit.width / 2 - 1e-6 and abs(v) < unit.depth / 2 - 1e-6
    if inside:
        assert arc is None
        return
    assert arc is not None
    from shapely.geometry import Point

    reach = 200
    holders = [a for a in Arc if unit.arc_region(a, reach).buffer(1e-6).covers(Point(point))]
    assert arc in holders
    # Points strictly inside one region's interior belong to that region only.
    strict = [a for a in Arc if unit.arc_region(a, reach).buffer(-1e-6).contains(Point(point))]
    assert len(strict) <= 1
    if strict:
        assert strict == [arc]


@settings(max_examples=200, deadline=None)
@given(unit=units, other=units, angle=bearings, dx=coords, dy=coords)
def test_located_in_and_gap_survive_rigid_motion(unit, other, angle, dx, dy):
    motion = Motion(angle, dx, dy)
    moved, other_moved = unit.transformed(motion), other.transformed(motion)
    assert gap(moved, other_moved) == pytest.approx(gap(unit, other), abs=1e-6)
    before = located_in(unit, other)
    after = located_in(moved, other_moved)
    if before != after:
        # Only a point within measurement noise of an arc line may change sides.
        u, v = other.local(unit.front_centre)
        a, b = other.width / 2, other.depth / 2
        assert min(abs(abs(v) - b - (abs(u) - a)), abs(abs(u) - a), abs(abs(v) - b)) < 1e-6


@settings(max_examples=100, deadline=None)
@given(unit=units, angle=st.floats(-180, 180))
def test_pivot_keeps_the_centre(unit, angle):
    turned = unit.pivoted(angle)
    assert turned.centre == unit.centre
    assert turned.polygon.area == pytest.approx(unit.polygon.area)
    assert math.isclose(abs(turn_between(unit.facing, turned.facing)), abs(angle) % 360 if abs(angle) <= 180 else 360 - abs(angle), abs_tol=1e-6)


def test_shapes_worked_out_together_are_those_worked_out_one_by_one():
    """Loading works out every boundary's corners, polygon and core in arrays: the very same numbers."""
    rnd = random.Random(3)
    together = [UnitBoundary((rnd.uniform(-50, 150), rnd.uniform(-50, 100)), rnd.uniform(0.1, 24),
                             rnd.uniform(0.1, 24), rnd.uniform(0, 360)) for _ in range(2000)]
    alone = [UnitBoundary(b.centre, b.width, b.depth, b.facing) for b in together]
    work_out_shapes(together)
    for a, b in zip(together, alone):
        assert (a.forward, a.right, a.corners) == (b.forward, b.right, b.corners)
        assert list(a.polygon.exterior.coords) == list(b.polygon.exterior.coords)
        assert list(a.core.exterior.coords) == list(b.core.exterior.coords)
    outlines = [[[rnd.uniform(0, 48), rnd.uniform(0, 48)] for _ in range(rnd.randint(3, 9))] for _ in range(200)]
    made = polygons_of(outlines)
    for outline, polygon in zip(outlines, made):
        assert list(polygon.exterior.coords) == [tuple(p) for p in outline] + [tuple(outline[0])]
    for polygon, core in zip(made, shrunk_each(made)):
        assert core.equals_exact(shrunk(polygon), 0)
