"""A finding's words are for players; the scenario field that would decide it is data beside them (#30 item 5):
the API and the command line give it, the checker shows it only under "For developers", and the words never
carry it."""
from __future__ import annotations

import json
import re

import pytest

from rulesref.checker import books

pytestmark = pytest.mark.django_db

EXAMPLE = "reactions-missile-weapons-unknown"
FIELD = "units[].missile_weapons"


def test_the_api_gives_the_field_beside_the_words(client):
    ex = books.example("t9a", EXAMPLE)
    params = ex.data["questions"][0]["params"]
    for lang in ("en", "ru"):
        r = client.post(f"/api/v1/t9a/rulings/charge-reactions?lang={lang}",
                        json.dumps({"scenario": ex.data, "params": params}), content_type="application/json")
        assert r.status_code == 200, r.content
        findings = r.json()["findings"]
        open_ones = [f for f in findings if f.get("field")]
        assert [f["field"] for f in open_ones] == [FIELD] and open_ones[0]["status"] == "unknown"
        assert all("missile_weapons" not in f["message"] for f in findings)
        assert "TERMS.md" not in json.dumps([f["message"] for f in findings])


def test_the_checker_shows_the_field_to_developers_only(client):
    html = client.get(f"/ru/checker/t9a/examples/{EXAMPLE}/?q=charge-reactions&p-charger=knights&p-target=archers"
                      ).content.decode()
    answer = html[html.index('class="findings"'):]
    answer = answer[:answer.index("</ol>")]
    disclosed = re.findall(r'<details class="finding-dev" data-developers><summary>Для разработчиков</summary>'
                           r'Поле сценария, которое это решило бы: <code>([^<]*)</code></details>', answer)
    assert disclosed == [FIELD]
    words = re.sub(r"<details.*?</details>", "", answer, flags=re.S)
    assert "missile_weapons" not in words
