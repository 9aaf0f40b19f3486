"""Hex maths: Red Blob Games' published test vectors, then the game's facings, sectors and labels."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesref.engine.hexgrid import (
    EVEN,
    LAYOUT_FLAT,
    LAYOUT_POINTY,
    ODD,
    FractionalHex,
    Hex,
    HexMap,
    Layout,
    MapEdge,
    OffsetCoord,
    Point,
    Sector,
    adjacent_by_sector,
    canonical_two_hex,
    direction_to,
    facing_steps,
    footprint,
    hex_add,
    hex_diagonal_neighbor,
    hex_direction,
    hex_distance,
    hex_lerp,
    hex_linedraw,
    hex_lines,
    hex_neighbor,
    hex_ring,
    hex_rotate_left,
    hex_rotate_right,
    hex_round,
    hex_spiral,
    hex_subtract,
    hex_to_pixel,
    is_valid_two_hex_facing,
    pixel_to_hex,
    qoffset_from_cube,
    qoffset_to_cube,
    roffset_from_cube,
    roffset_to_cube,
    sector_of,
)

# --- Red Blob Games' test vectors (implementation.html, "Tests") ---------------------------------------------------


def test_hex_refuses_non_zero_sum():
    with pytest.raises(ValueError):
        Hex(1, 1, 1)
    assert Hex(1, -3) == Hex(1, -3, 2)


def test_hex_arithmetic():
    assert hex_add(Hex(1, -3, 2), Hex(3, -7, 4)) == Hex(4, -10, 6)
    assert hex_subtract(Hex(1, -3, 2), Hex(3, -7, 4)) == Hex(-2, 4, -2)


def test_hex_direction():
    assert hex_direction(2) == Hex(0, -1, 1)


def test_hex_neighbor():
    assert hex_neighbor(Hex(1, -2, 1), 2) == Hex(1, -3, 2)


def test_hex_diagonal():
    assert hex_diagonal_neighbor(Hex(1, -2, 1), 3) == Hex(-1, -1, 2)


def test_hex_distance():
    assert hex_distance(Hex(3, -7, 4), Hex(0, 0, 0)) == 7


def test_hex_rotate_right():
    assert hex_rotate_right(Hex(1, -3, 2)) == Hex(3, -2, -1)


def test_hex_rotate_left():
    assert hex_rotate_left(Hex(1, -3, 2)) == Hex(-2, -1, 3)


def test_hex_round():
    a = FractionalHex(0.0, 0.0, 0.0)
    b = FractionalHex(1.0, -1.0, 0.0)
    c = FractionalHex(0.0, -1.0, 1.0)
    assert hex_round(hex_lerp(FractionalHex(0.0, 0.0, 0.0), FractionalHex(10.0, -20.0, 10.0), 0.5)) == Hex(5, -10, 5)
    assert hex_round(hex_lerp(a, b, 0.499)) == hex_round(a)
    assert hex_round(hex_lerp(a, b, 0.501)) == hex_round(b)
    mix = lambda w: FractionalHex(*(w[0] * x + w[1] * y + w[2] * z for x, y, z in zip(a, b, c)))  # noqa: E731
    assert hex_round(mix((0.4, 0.3, 0.3))) == hex_round(a)
    assert hex_round(mix((0.3, 0.3, 0.4))) == hex_round(c)


def test_hex_linedraw():
    assert hex_linedraw(Hex(0, 0, 0), Hex(1, -5, 4)) == [
        Hex(0, 0, 0), Hex(0, -1, 1), Hex(0, -2, 2), Hex(1, -3, 2), Hex(1, -4, 3), Hex(1, -5, 4),
    ]


def test_layout_roundtrip():
    h = Hex(3, 4, -7)
    flat = Layout(LAYOUT_FLAT, Point(10.0, 15.0), Point(35.0, 71.0))
    assert hex_round(pixel_to_hex(flat, hex_to_pixel(flat, h))) == h
    pointy = Layout(LAYOUT_POINTY, Point(10.0, 15.0), Point(35.0, 71.0))
    assert hex_round(pixel_to_hex(pointy, hex_to_pixel(pointy, h))) == h


def test_offset_roundtrip():
    a = Hex(3, 4, -7)
    b = OffsetCoord(1, -3)
    for offset in (EVEN, ODD):
        assert qoffset_to_cube(offset, qoffset_from_cube(offset, a)) == a
        assert qoffset_from_cube(offset, qoffset_to_cube(offset, b)) == b
        assert roffset_to_cube(offset, roffset_from_cube(offset, a)) == a
        assert roffset_from_cube(offset, roffset_to_cube(offset, b)) == b


def test_offset_from_cube():
    assert qoffset_from_cube(EVEN, Hex(1, 2, -3)) == OffsetCoord(1, 3)
    assert qoffset_from_cube(ODD, Hex(1, 2, -3)) == OffsetCoord(1, 2)


def test_offset_to_cube():
    assert qoffset_to_cube(EVEN, OffsetCoord(1, 3)) == Hex(1, 2, -3)
    assert qoffset_to_cube(ODD, OffsetCoord(1, 2)) == Hex(1, 2, -3)


# --- rings and lines -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("radius", [0, 1, 2, 5])
def test_ring_has_six_times_radius_hexes_at_that_distance(radius):
    ring = hex_ring(Hex(2, -1), radius)
    assert len(ring) == max(1, 6 * radius) == len(set(ring))
    assert all(hex_distance(h, Hex(2, -1)) == radius for h in ring)


def test_spiral_counts():
    assert len(hex_spiral(Hex(0, 0), 3)) == 1 + 6 + 12 + 18


def test_line_along_hexsides_has_two_variants():
    # From (0,0) to a diagonal neighbour the line runs exactly along a hexside: the two nudges disagree.
    lines = hex_lines(Hex(0, 0), hex_diagonal_neighbor(Hex(0, 0), 0))
    assert len(lines) == 2
    assert {lines[0][1], lines[1][1]} == {Hex(1, 0), Hex(1, -1)}
    assert len(hex_lines(Hex(0, 0), Hex(1, -5, 4))) == 1


hexes = st.builds(lambda q, r: Hex(q, r), st.integers(-20, 20), st.integers(-20, 20))


@given(hexes, hexes)
def test_line_is_contiguous_and_as_long_as_the_distance(a, b):
    for line in hex_lines(a, b):
        assert line[0] == a and line[-1] == b and len(line) == hex_distance(a, b) + 1
        assert all(hex_distance(x, y) == 1 for x, y in zip(line, line[1:]))


# --- facings and sectors (6.1, 9.3.1b) -----------------------------------------------------------------------------


@pytest.mark.parametrize("facing", range(6))
def test_one_hex_unit_has_two_front_two_flank_two_rear_hexes(facing):
    sectors = adjacent_by_sector((Hex(0, 0),), facing)
    assert [len(sectors[s]) for s in Sector] == [2, 2, 2]
    assert set(sectors[Sector.FRONT]) == {hex_neighbor(Hex(0, 0), facing), hex_neighbor(Hex(0, 0), facing + 1)}
    assert set(sectors[Sector.REAR]) == {hex_neighbor(Hex(0, 0), facing + 3), hex_neighbor(Hex(0, 0), facing + 4)}


@pytest.mark.parametrize("facing", range(6))
def test_two_hex_unit_has_three_front_two_flank_three_rear_hexes(facing):
    hexes = footprint(Hex(0, 0), facing, 2)
    assert is_valid_two_hex_facing(*hexes, facing)
    sectors = adjacent_by_sector(hexes, facing)
    assert [len(sectors[s]) for s in Sector] == [3, 2, 3]
    # The flank hexes continue the unit's own row.
    for h in sectors[Sector.FLANK]:
        assert direction_to(hexes[0], h) is not None or direction_to(hexes[1], h) is not None
        assert {direction_to(hexes[0], hexes[1]) % 3} == {
            (direction_to(hexes[0], h) if direction_to(hexes[0], h) is not None else direction_to(hexes[1], h)) % 3
        }


def test_two_hex_facing_must_be_perpendicular_to_its_row():
    a, b = Hex(0, 0), hex_neighbor(Hex(0, 0), 2)
    assert is_valid_two_hex_facing(a, b, 0) and is_valid_two_hex_facing(a, b, 3)
    assert not any(is_valid_two_hex_facing(a, b, f) for f in (1, 2, 4, 5))
    assert canonical_two_hex((b, a), 3) == (b, a)


def test_sectors_beyond_adjacency_follow_the_flank_row():
    unit = (Hex(0, 0),)
    # Facing vertex 0: flank row is the q = 0 row (directions 2 and 5).
    assert sector_of(unit, 0, Hex(0, -4)) is Sector.FLANK
    assert sector_of(unit, 0, Hex(0, 3)) is Sector.FLANK
    assert sector_of(unit, 0, Hex(1, -4)) is Sector.FRONT
    assert sector_of(unit, 0, Hex(4, 0)) is Sector.FRONT
    assert sector_of(unit, 0, Hex(-1, 4)) is Sector.REAR
    assert sector_of(unit, 0, Hex(0, 0)) is None


@given(hexes, st.integers(0, 5))
def test_sector_of_a_facing_and_its_counter_march_swap_front_and_rear(h, facing):
    unit = (Hex(0, 0),)
    a, b = sector_of(unit, facing, h), sector_of(unit, (facing + 3) % 6, h)
    swap = {Sector.FRONT: Sector.REAR, Sector.REAR: Sector.FRONT, Sector.FLANK: Sector.FLANK, None: None}
    assert b is swap[a]


def test_facing_steps():
    assert facing_steps(0, 3) == 3 and facing_steps(5, 1) == 2 and facing_steps(2, 2) == 0


# --- map labels and edges ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["flat", "pointy"])
@pytest.mark.parametrize("offset", ["odd", "even"])
def test_labels_round_trip(layout, offset):
    m = HexMap(12, 9, layout, offset)
    labels = {m.label(h) for h in m.hexes()}
    assert len(labels) == 12 * 9
    assert all(m.parse(m.label(h)) == h for h in m.hexes())
    assert m.label(m.hex_at(4, 3)) == "0504"


def test_parse_rejects_off_map_and_malformed():
    m = HexMap(10, 10)
    with pytest.raises(ValueError, match="off the map"):
        m.parse("1101")
    with pytest.raises(ValueError, match="digits"):
        m.parse("5-4")


def test_wide_maps_use_three_digit_labels():
    m = HexMap(200, 200)
    assert m.label(m.hex_at(0, 0)) == "001001"


@pytest.mark.parametrize("layout", ["flat", "pointy"])
def test_edge_steps_is_the_distance_to_leave_the_map(layout):
    m = HexMap(7, 6, layout)
    for h in m.hexes():
        for edge in MapEdge:
            steps = m.edge_steps(h, edge)
            # One step fewer from some neighbour, never two fewer.
            ns = [m.edge_steps(hex_neighbor(h, d), edge) for d in range(6)]
            assert min(ns) == steps - 1


@pytest.mark.parametrize("layout", ["flat", "pointy"])
def test_compass_names_round_trip(layout):
    m = HexMap(3, 3, layout)
    assert [m.parse_vertex(m.vertex_name(v)) for v in range(6)] == list(range(6))
    assert [m.parse_direction(m.direction_name(d)) for d in range(6)] == list(range(6))
