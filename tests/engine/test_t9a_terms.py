"""The t9a engine's English uses the glossary's English terms (fixtures/glossary/t9a.toml), as the English text
of the rules does: «стрелковое оружие» is a Shooting Weapon there, not a "missile weapon"."""
from __future__ import annotations

import tomllib
from pathlib import Path

from rulesref.engine import ask

ROOT = Path(__file__).resolve().parents[2]


def test_stand_and_shoot_findings_say_shooting_weapon_in_english():
    glossary = tomllib.loads((ROOT / "fixtures" / "glossary" / "t9a.toml").read_text(encoding="utf-8"))
    english = next(t["en"] for t in glossary["term"] if t["ru"] == "стрелковое оружие")
    base = {"book": "t9a", "board": {"width": 48, "depth": 48}, "units": [
        {"id": "knights", "side": "red", "centre": [24, 10], "facing": 0, "width": 5, "depth": 2, "advance_rate": 5},
        {"id": "archers", "side": "blue", "centre": [24, 24], "facing": 180, "width": 5, "depth": 2,
         "advance_rate": 4}]}
    for has in (True, False, None):
        data = {**base, "units": [base["units"][0], {**base["units"][1], "missile_weapons": has}]}
        ruling = ask("t9a", "charge-reactions", data, {"charger": "knights", "target": "archers"})
        messages = [f.message.render("en") for f in ruling.findings if f.citation.clause == "stand-and-shoot"]
        weapon = [m for m in messages if english in m]
        assert weapon, messages
        assert not any("missile weapon" in m for m in messages), messages
        assert any("стрелков" in f.message.render("ru") for f in ruling.findings
                   if f.citation.clause == "stand-and-shoot")
