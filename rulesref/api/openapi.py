"""The read API in the site's OpenAPI document (/api/v1/openapi.json, built by rulesref/checker/openapi.py, which
calls :func:`extend` through ``settings.OPENAPI_EXTENSIONS``). Schemathesis fuzzes it from this description
(tests/test_api_fuzz.py): every answer must match it, every request it forbids must be refused with a 4xx."""
from __future__ import annotations

from typing import Any

STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
URL = {"type": "string", "format": "uri"}
NULLABLE_STR = {"type": ["string", "null"]}
NULLABLE_INT = {"type": ["integer", "null"]}
LANG = {"type": "string", "enum": ["ru", "en"]}


def _obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "required": list(props) if required is None else required, "properties": props}


BOTH = _obj({"ru": STR, "en": STR})
BOTH_URLS = _obj({"ru": URL, "en": URL})


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SCHEMAS: dict[str, Any] = {
    "Book": _obj({
        "slug": STR, "title": BOTH, "description": BOTH, "source_language": LANG,
        "kind": {"type": "string", "description": "hex, tabletop or none: the board of its scenarios"},
        "revision": {"type": "integer", "minimum": 0, "description": "its latest revision (0: never loaded)"},
        "sections": {"type": "integer", "minimum": 0, "description": "sections with a text"},
        "texts": _obj({"ru": INT, "en": INT}), "pages": BOTH_URLS, "faq": BOTH_URLS,
        "api": _obj({"book": URL, "contents": URL, "glossary": URL, "rulings": URL}),
    }),
    "ContentsEntry": _obj({
        "id": STR, "number": {"type": "string", "description": "the rule number, empty for a section known by a "
                                                               "slug"},
        "parent": NULLABLE_STR, "depth": INT, "absent": BOOL, "changed": BOOL,
        "title": {**BOTH, "description": "as printed; empty for a section printed without one"},
        "label": {**BOTH, "description": "as the pages name it (an untitled section by its first words)"},
        "languages": {"type": "array", "items": LANG}, "pages": BOTH_URLS, "api": URL,
    }),
    "Reference": _obj({
        "paragraph": {"type": "integer", "minimum": 1}, "anchor": STR,
        "target": {"type": "string", "description": "the number referred to, normalised (a page number for kind "
                                                    "page)"},
        "kind": {"type": "string", "enum": ["section", "page"]},
        "section": {**NULLABLE_STR, "description": "the section it leads to; null when the corpus lacks it"},
        "url": {"type": ["string", "null"], "format": "uri"},
    }),
    "Section": _obj({
        "book": STR, "id": STR, "number": STR,
        "language": {**LANG, "description": "the language of the text given (the source's when the one asked for "
                                            "has none yet)"},
        "requested": LANG, "translated": BOOL, "absent": BOOL, "changed": BOOL, "page": NULLABLE_INT,
        "title": STR, "label": STR,
        "text": {"type": "string", "description": "the text as written in the corpus: paragraphs separated by a "
                                                  "blank line, lettered clauses as \"a) …\", tables in Markdown"},
        "paragraphs": INT,
        "html": {"type": "string", "description": "the text as the section's page shows it: escaped, references "
                                                  "linked (absolute addresses), glossary terms marked"},
        "terms": {"type": "array", "items": STR, "description": "the glossary terms it uses, in order of first use"},
        "references": {"type": "array", "items": ref("Reference")},
        "parent": NULLABLE_STR, "children": {"type": "array", "items": STR},
        "previous": NULLABLE_STR, "next": NULLABLE_STR,
        "revision": INT, "last_changed": {**NULLABLE_INT, "description": "the revision that last changed it"},
        "rulings": {"type": "array", "items": _obj({"number": INT, "api": URL})},
        "pages": BOTH_URLS, "api": _obj({"revisions": URL, "diff": URL}),
    }),
    "Revisions": _obj({
        "book": STR, "id": STR, "latest": INT,
        "revisions": {"type": "array", "items": _obj({
            "number": INT, "created": {"type": "string", "format": "date-time"},
            "origin": {"type": "string", "enum": ["existing", "load", "approval", "admin"]},
            "languages": {"type": "array", "items": LANG}, "added": {"type": "array", "items": LANG},
            "removed": {"type": "array", "items": LANG}, "api": URL})},
    }),
    "RevisionText": _obj({"book": STR, "id": STR, "revision": INT, "language": LANG, "title": STR, "text": STR,
                          "html": STR, "page": URL}),
    "Diff": _obj({
        "book": STR, "id": STR, "language": LANG, "from": INT, "to": INT, "same": BOOL,
        "title": ref("DiffPart"), "text": ref("DiffPart"),
    }),
    "DiffPart": _obj({
        "ops": {"type": "array", "items": _obj({"op": {"type": "string", "enum": ["equal", "insert", "delete"]},
                                                 "text": STR})},
        "html": {"type": "string", "description": "escaped text with <ins> and <del> marks"},
    }),
    "Glossary": _obj({"book": STR, "terms": {"type": "array", "items": _obj({
        "id": STR, "term": BOTH, "variants": _obj({"ru": {"type": "array", "items": STR},
                                                   "en": {"type": "array", "items": STR}}),
        "abbreviation": BOTH, "definition": BOTH, "confidence": STR, "category": STR,
        "sections": {"type": "array", "items": STR}, "pages": BOTH_URLS})}}),
    "SearchResult": _obj({
        "query": STR, "language": LANG, "page": INT,
        "jump": {"oneOf": [{"type": "null"}, _obj({"url": URL, "label": STR})],
                 "description": "a rule number goes straight to its section"},
        "count": INT, "more": BOOL, "next_page": NULLABLE_INT, "suggestion": NULLABLE_STR,
        "shown_for": NULLABLE_STR, "partial": BOOL, "missing_section": NULLABLE_STR,
        "groups": {"type": "array", "items": _obj({
            "book": STR, "total": INT, "more": BOOL, "hits": {"type": "array", "items": _obj({
                "id": STR, "language": LANG, "label": STR, "url": URL, "title_hit": BOOL,
                "tier": {"type": "integer", "minimum": 0, "maximum": 4,
                         "description": "0 title names the words typed, 1 a defining section using them, 2 a title "
                                        "naming them in another form, 3 another defining section, 4 the text"},
                "title_html": STR, "snippet_html": STR, "api": URL})}})},
    }),
    "PublishedRuling": _obj({
        "book": STR, "number": INT, "state": {"type": "string", "enum": ["published", "withdrawn"]},
        "language": LANG, "source_language": LANG, "translated": BOOL, "lagging": BOOL,
        "question": STR, "answer": STR, "question_html": STR, "answer_html": STR,
        "citations": {"type": "array", "items": _obj({
            "clause": STR, "section": STR, "letter": STR, "title": STR, "url": {"type": ["string", "null"]},
            "outdated": BOOL, "changed_in": NULLABLE_INT})},
        "outdated": {"type": "boolean", "description": "a clause it cites changed since it was confirmed"},
        "outdated_in": NULLABLE_INT,
        "published": {"type": ["string", "null"], "format": "date-time"},
        "changed": {"type": "string", "format": "date-time"}, "page": URL, "history": URL, "api": URL,
    }),
}

HEADERS = {
    "ETag": {"description": "Changes whenever the answer may change: send it back in If-None-Match.",
             "required": True, "schema": STR},
    "Last-Modified": {"description": "The last change of the rulebooks' texts or rulings the answer reads.",
                      "schema": STR},
    "Cache-Control": {"required": True, "schema": STR},
    "Access-Control-Allow-Origin": {"description": "*: any web page may read the API.", "required": True,
                                    "schema": {"type": "string", "enum": ["*"]}},
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ref("Error")}}}


def _responses(schema: str, *errors: int) -> dict[str, Any]:
    texts = {404: "No such rulebook, section, revision or ruling.",
             422: "A parameter is invalid: each problem at its path (query.lang).",
             429: "Too many requests from this client address: try again after Retry-After seconds."}
    out: dict[str, Any] = {
        "200": {"description": "OK", "headers": HEADERS,
                "content": {"application/json": {"schema": ref(schema)}}},
        "304": {"description": "Not modified since the ETag or date the request names."},
    }
    for code in (*errors, 429):
        out[str(code)] = _error(texts[code])
        if code == 429:
            out["429"]["headers"] = {"Retry-After": {"required": True, "schema": {"type": "integer", "minimum": 1}}}
    return out


def _query(name: str, schema: dict[str, Any], description: str, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


def _path(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


BOOK = _path("book", {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}, "The rulebook's slug: mpbs, t9a.")
SECTION = _path("section", {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/]+$"},
                "A section's id or its number in any printed form (9.3.1, 11. 4. 5, xiii.7.c).")
TEXT_LANG = _query("lang", LANG, "The language of the text (the rulebook's source language by default).")
NUMBER = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
OFFSET = _query("offset", {"type": "integer", "minimum": 0}, "How many to skip.")


def _get(operation: str, summary: str, schema: str, parameters: list, *errors: int,
         description: str = "") -> dict[str, Any]:
    return {"get": {"operationId": operation, "summary": summary, "description": description, "tags": ["read"],
                    "parameters": parameters, "responses": _responses(schema, *errors)}}


def paths() -> dict[str, Any]:
    prefix = "/api/v1/books/{book}"
    return {
        "/api/v1/books": _get("read.books", "The rulebooks", "BookList", []),
        prefix: _get("read.book", "A rulebook and its chapters", "BookDetail", [BOOK], 404),
        f"{prefix}/contents": _get(
            "read.contents", "The rulebook's sections in book order", "Contents",
            [BOOK, OFFSET, _query("limit", {"type": "integer", "minimum": 1, "maximum": 5000},
                                  "How many to give (1000 by default).")], 404, 422),
        f"{prefix}/sections/{{section}}": _get(
            "read.section", "A section as text and as HTML with its references resolved", "Section",
            [BOOK, SECTION, TEXT_LANG], 404, 422,
            description="What the section's page shows, in one language: the text as written, the HTML the page "
                        "shows (escaped, references linked, glossary terms marked), its references, its place in "
                        "the book, its last change and the rulings on it."),
        f"{prefix}/sections/{{section}}/revisions": _get(
            "read.revisions", "The revisions that changed a section", "Revisions", [BOOK, SECTION], 404),
        f"{prefix}/sections/{{section}}/revisions/{{revision}}": _get(
            "read.revision", "A section's text at a revision", "RevisionText",
            [BOOK, SECTION, _path("revision", NUMBER, "The book revision."), TEXT_LANG], 404, 422),
        f"{prefix}/sections/{{section}}/diff": _get(
            "read.diff", "The word diff of a section between two revisions", "Diff",
            [BOOK, SECTION, TEXT_LANG, _query("from", NUMBER, "The older revision (by default the one before the "
                                                              "section's last change)."),
             _query("to", NUMBER, "The newer revision (by default the section's last change).")], 404, 422),
        f"{prefix}/glossary": _get("read.glossary", "The rulebook's glossary", "Glossary", [BOOK], 404),
        f"{prefix}/rulings": _get(
            "read.rulings", "The rulebook's published rulings", "PublishedRulingList",
            [BOOK, TEXT_LANG, _query("section", SECTION["schema"], "Only those citing this section."), OFFSET,
             _query("limit", {"type": "integer", "minimum": 1, "maximum": 500}, "How many (100 by default).")],
            404, 422),
        f"{prefix}/rulings/{{number}}": _get(
            "read.ruling", "A ruling", "PublishedRuling", [BOOK, _path("number", NUMBER, "The ruling's number."),
                                                  TEXT_LANG], 404, 422),
        "/api/v1/search": _get(
            "read.search", "Search the rules as the site does", "SearchResult",
            [_query("q", {"type": "string", "minLength": 1, "maxLength": 500, "pattern": r"\S"},
                    "Words in either language, in any form, or a rule number in any printed form.", required=True),
             _query("book", {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}, "Only this rulebook."),
             _query("in", LANG, "Only texts in this language."),
             _query("lang", LANG, "The language of labels and addresses (English by default)."),
             _query("page", {"type": "integer", "minimum": 1, "maximum": 5}, "The page of results.")], 404, 422),
    }


def schemas() -> dict[str, Any]:
    out = dict(SCHEMAS)
    out["BookList"] = _obj({"books": {"type": "array", "items": ref("Book")}})
    out["BookDetail"] = {"allOf": [ref("Book"), _obj({"chapters": {"type": "array", "items": ref("ContentsEntry")}})]}
    out["Contents"] = _obj({"book": STR, "revision": INT, "total": INT, "offset": INT, "limit": INT,
                            "sections": {"type": "array", "items": ref("ContentsEntry")}})
    out["PublishedRulingList"] = _obj({"book": STR, "language": LANG, "total": INT, "offset": INT, "limit": INT,
                              "rulings": {"type": "array", "items": ref("PublishedRuling")}})
    return out


def extend(document: dict[str, Any]) -> None:
    """Add the read API to the OpenAPI document."""
    document["paths"].update(paths())
    document["components"]["schemas"].update(schemas())
    document["info"]["title"] = "rulesref API"
    document["info"]["description"] += (
        " The read API (tag `read`, docs/api.md) gives the rulebooks, their contents, sections as text and HTML, "
        "their revisions and word diffs, the glossaries, search and the rulings: GET only, cached (ETag, "
        "Last-Modified: a conditional GET answers 304), CORS for any origin, rate-limited per client address.")
    document.setdefault("tags", []).append({"name": "read", "description": "The rules as data (docs/api.md)."})
