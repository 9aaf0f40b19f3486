"""The corpus English and the glossaries after the terminology review of issue #15 (points 4 and 5): the official
t9a 2nd edition terms, the wording fixes, the complete errata and the page of the charge reactions. The oracles
are the issue's own lists."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"


def english(book: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((CORPUS / book / "en").glob("*.md")))


def glossary(book: str) -> dict:
    data = tomllib.loads((ROOT / "fixtures" / "glossary" / f"{book}.toml").read_text(encoding="utf-8"))
    return {t["id"]: t for t in data["term"]}


def section(book: str, lang: str, sid: str) -> str:
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((CORPUS / book / lang).glob("*.md")))
    start = re.search(rf"^#+ [^\n]*\{{#{re.escape(sid)}[ }}][^\n]*$", text, re.M)
    end = re.search(r"^#", text[start.end():], re.M)
    return text[start.start():start.end() + (end.start() if end else len(text))]


def test_t9a_uses_the_2nd_edition_terms():
    text = english("t9a")
    assert "Melee" not in text.replace("Melee Phase", "")  # a single fight is a combat
    assert "Engaged in Combat" in text and "Round of Combat" in text and "fled from this combat" in text
    assert "Reactive Player" in text and "Reacting Player" not in text
    assert "missile weapon" not in text and "Shooting Weapon" in text and "can perform Shooting Attacks" in text
    assert "Front Facing" in text and "Pursuit Move" in text and "pursuit move" not in text


def test_stand_and_shoot_says_charging_unit_and_notes_the_published_limit():
    text = section("t9a", "en", "stand-and-shoot")
    assert "If the charging unit has several Advance Rates" in text
    assert "only once per round" in text  # what the source says («лишь один раз в раунд»)
    assert re.search(r"Translator's note: [^)]*once per Player Turn", text)


def test_mpbs_wording_fixes():
    text = english("mpbs")
    assert "moves into one of the reacting unit's flank or rear hexes" in section("mpbs", "en", "9.2.2")
    for calque in ("right up to", "intercept an Interception", "a Withdraw.", "already in effect in this activation",
                   "“Charge” order", "“Rally” order"):
        assert calque not in text, calque
    assert "Charge orders" in text and "Rally orders" in text
    t9a = english("t9a")
    assert "theoretical possibility" not in t9a and "pieces of Impassable Terrain" not in t9a


def test_glossary_fixes_and_their_sources():
    t9a, mpbs = glossary("t9a"), glossary("mpbs")
    assert t9a["reactive-player"]["en_variants"] == [] and t9a["reactive-player"]["confidence"] == "sure"
    assert t9a["missile-weapon"]["en"] == "Shooting Weapon"
    assert t9a["melee"]["en"] == "combat" and t9a["melee-phase"]["en"] == "Melee Phase"
    assert t9a["pursuit-move"]["en"] == "Pursuit Move"
    assert "колеблющийся" not in mpbs["morale-shaken"]["ru_variants"]
    assert "вплотную" not in mpbs["adjacent"]["ru_variants"]
    assert "поворот кругом" not in mpbs["counter-march"]["ru_forbidden"]
    assert mpbs["orders-change-phase"]["en"] == "orders change step"
    raw = (ROOT / "fixtures" / "glossary" / "t9a.toml").read_text(encoding="utf-8")
    assert raw.count("terminology review of issue #15") >= 5  # each decision says where it comes from


TYPOS = [("9.2.2", "в которые движущееся половина", "в которые входит движущаяся половина"),
         ("6.2.3", "фишка которого не повернут", "фишка которого не повернута"),
         ("11.4.5", "оно должна", "оно должно"), ("11.4.5", "мораль подразделение", "мораль подразделения"),
         ("11.4.3", "к ней применяется", "к нему применяется"),
         ("9.3.5", "также может перехватывать", "также могут перехватывать")]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_errata_pages_list_the_typos_in_both_languages(client, lang):
    rows = client.get(f"/{lang}/rules/mpbs/errata/").content.decode().split("<tr>")
    for sid, wrong, right in TYPOS:
        assert any(f'href="/{lang}/rules/mpbs/{sid}/"' in row and f"<del>{wrong}</del>" in row
                   and f"<ins>{right}</ins>" in row for row in rows), (sid, wrong)


def test_the_russian_corpus_has_the_corrections():
    assert "в которые входит движущаяся половина" in section("mpbs", "ru", "9.2.2")
    assert "также могут перехватывать" in section("mpbs", "ru", "9.3.5")
    assert "оно должно использовать" in section("mpbs", "ru", "11.4.5")


def test_the_charge_reactions_are_on_page_26():
    for lang in ("ru", "en"):
        pages = dict(re.findall(r"\{#([\w-]+)[^}]* page=(\d+)", (CORPUS / "t9a" / lang / "charge-phase.md").read_text()))
        assert pages == {"declaring-charges": "25", "charge-reactions": "26", "hold": "26", "stand-and-shoot": "26",
                         "flee": "26"}


@pytest.mark.django_db
@pytest.mark.parametrize("book", ["t9a", "mpbs"])
def test_translation_qa_passes_on_the_corrected_english(book, capsys):
    call_command("translation_qa", book)  # exits 1 on errors
    assert "0 errors" in capsys.readouterr().err
