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
    Interpretation("advance-morale-rating", "docs/geometry-hex.md", msg(
        "11.4.6's \"the highest morale\" among several attackers is the morale rating; the other reading would "
        "take the morale state (Normal over Shaken)")),
    Interpretation("advance-two-hex-both-halves", "docs/geometry-hex.md", msg(
        "a two-hex winner advancing into a two-hex loser's two hexes moves both halves (11.4.8 \"both halves must "
        "advance if possible\"); the other reading would let it take one hex only, by 11.4.6's choice of one or "
        "both")),
    Interpretation("rally-needs-horse-or-foot", "docs/scenario-format-mpbs.md", msg(
        "5.8 forces Rally on a wing whose cavalry and heavy infantry are all out of the fight, so not on a wing "
        "that has none; the other reading, taking the words literally, would force it on such a wing too")),
    Interpretation("shaken-is-the-morale-state", "docs/scenario-format-mpbs.md", msg(
        "\"shaken\" in 5.7.3 and 5.8 is the morale state Morale Shaken, not a shaken formation; the other reading "
        "would also count a unit whose formation is shaken (11.4.1 uses the formation's word for the morale "
        "state)")),
    Interpretation("rally-modifier-without-leaders", "docs/scenario-format-mpbs.md", msg(
        "the 5.7.3 modifier counts the wing's units without its leaders; the other reading would count the "
        "leaders among them")),
    Interpretation("reaction-into-flank-or-rear-hex", "docs/geometry-hex.md", msg(
        "9.2.2's \"moves adjacent to a flank or rear hex\" is read as moving into one of those hexes; the other "
        "reading would also count a move into a hex next to one")),
    Interpretation("hedgehog-two-hexes-of-the-unit", "docs/geometry-hex.md", msg(
        "9.2.3's \"within two hexes of the front or flank\" is within two hexes of the unit, in its front or flank "
        "sectors; the other reading would count two hexes from its front or flank hexes")),
    Interpretation("reaction-to-spending-in-place", "docs/scenario-format-mpbs.md", msg(
        "an enemy that spends movement points without leaving its hexes (a facing or formation change) sets off "
        "9.2.3 and 9.2.4, whose words (\"spends movement points\") name their own trigger; the other reading "
        "would wait for 9.1.3's list of triggering actions, which is not in the corpus")),
    Interpretation("unable-to-retreat-by-result", "docs/geometry-hex.md", msg(
        "11.4.5's morale \"at the start of the retreat\" is the one the combat result gives (Morale Shaken: "
        "casualty points; Morale Broken: the Unable to Retreat Table); the other reading would look at the morale "
        "the unit had before the result")),
    Interpretation("pursuit-touching-ignored", "docs/geometry-tabletop.md", msg(
        "what touches a part of the pursuer other than its front as the pursuit begins is ignored throughout steps "
        "1 to 3, even where the pivot brings the front over it; the other reading would ignore it only while the "
        "front does not meet it")),
    Interpretation("pursuit-highest-case", "docs/geometry-tabletop.md", msg(
        "the highest of the four cases that arises anywhere in the pivot is taken, a charge on an enemy over a "
        "friend or Impassable Terrain the front meets first; the other reading would stop the pivot at what it "
        "meets first")),
    Interpretation("t9a-arcs", "docs/geometry-tabletop.md", msg(
        "arcs are bounded by lines from the Unit Boundary's corners at 135° to its facings; a unit is Located in "
        "the arc holding the centre of its Front Facing, and on a boundary line in the Flank Arc")),
    Interpretation("t9a-sight-lines", "docs/geometry-tabletop.md", msg(
        "Line of Sight is traced from sampled points of the Front Facing to the part of the target in the Front "
        "Arc (a target that only touches the Front Arc's line has no part in it)")),
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


def name_in(result: dict, *ids: str) -> None:
    """Add to an answer's result the interpretations it follows in this position (``ask`` puts the question's own
    before them); an id not in the registry is an error."""
    listed = result.setdefault("interpretations", [])
    for interpretation_id in ids:
        INTERPRETATIONS[interpretation_id]
        if interpretation_id not in listed:
            listed.append(interpretation_id)
