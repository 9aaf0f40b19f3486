"""The written interpretations the engines follow where the text leaves room (docs/geometry*.md), by id.

Each book package maps its questions to the interpretations every answer to them follows (``INTERPRETATIONS``);
a question adds those it follows only in some positions to ``result["interpretations"]`` itself (the shorter
pivot turn of a t9a pursuit). :func:`rulesref.engine.ask` puts both in the result, so every answer names the
interpretations it rests on; docs/geometry.md lists them all.
"""
from __future__ import annotations

from dataclasses import dataclass

from .i18n import Message, msg


@dataclass(frozen=True)
class Interpretation:
    id: str
    doc: str  # where it is written, with a picture
    summary: Message


INTERPRETATIONS: dict[str, Interpretation] = {i.id: i for i in (
    Interpretation("hex-sectors", "docs/geometry-hex.md", msg(
        "front, flank and rear hexes and sectors are traced from the facing vertex along hex rows (6.1, 9.3.1b)")),
    Interpretation("hex-line-of-sight", "docs/geometry-hex.md", msg(
        "line of sight runs between hex centres; along a hexside it is clear if either side is clear; only the "
        "hexes between the two ends block it (9.3.1d)")),
    Interpretation("hex-closer", "docs/geometry-hex.md", msg(
        "\"closer\" and \"farther\" are counted in hexes between the nearest hexes of the two units")),
    Interpretation("retreat-edge-tie", "docs/scenario-format-mpbs.md", msg(
        "a Morale Broken unit equally near two friendly map edges is offered the retreats toward each (11.4.1)")),
    Interpretation("interception-full-allowance", "docs/scenario-format-mpbs.md", msg(
        "9.3.1e's \"enough MP\" is the interceptor's movement allowance, as for every reaction (9.2.1, 9.3.5), not "
        "what its own activation left of it; the other reading would count only the MP left")),
    Interpretation("retreat-no-way-to-the-edge", "docs/geometry-hex.md", msg(
        "when no path leads on to the friendly map edge, priority 3 of 11.4.2 (the path to that edge costing the "
        "fewest MP) ranks nothing, and the retreats of priority 2 are the owning player's; the other reading would "
        "take the cheapest retreat hexes")),
    Interpretation("t9a-arcs", "docs/geometry-tabletop.md", msg(
        "arcs are bounded by lines from the Unit Boundary's corners at 135° to its facings; a unit is Located in "
        "the arc holding the centre of its Front Facing, and on a boundary line in the Flank Arc")),
    Interpretation("t9a-sight-lines", "docs/geometry-tabletop.md", msg(
        "Line of Sight is traced from sampled points of the Front Facing to the part of the target in the Front "
        "Arc")),
    Interpretation("t9a-straight-approach", "docs/geometry-tabletop.md", msg(
        "a charge is physically possible when the straight way is clear, impossible when not even a disc as wide "
        "as the charger's narrower side can get round, undetermined between")),
    Interpretation("t9a-flee-line", "docs/geometry-tabletop.md", msg(
        "a unit that Flees moves straight along the line through both centres, keeping its facing")),
    Interpretation("t9a-pivot-about-centre", "docs/geometry-tabletop.md", msg(
        "a pursuer pivots about its centre, both ways round being tried")),
    Interpretation("pursuit-pivot-shorter-turn", "docs/geometry-tabletop.md", msg(
        "a pursuer whose two ways round end in the same case at different places takes the shorter turn")),
)}


def interpretation(interpretation_id: str) -> Interpretation:
    return INTERPRETATIONS[interpretation_id]
