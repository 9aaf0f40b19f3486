"""Every clause either engine can cite exists in the corpus: the section, and for a lettered clause (9.3.1c) the
paragraph that carries its letter. The reader always lands on the rule text the engine applied."""
from pathlib import Path

import pytest

from rulesref.engine import BOOKS, book_engine
from rulesref.engine.ruling import Citation
from rulesref.reference.corpus import clause_label, read_book

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


@pytest.mark.parametrize("book", BOOKS)
def test_every_citable_clause_exists_in_the_corpus(book):
    doc = read_book(CORPUS / book)
    for lang in ("ru", "en"):
        sections = doc.by_id(lang)
        missing = []
        for clause in sorted(book_engine(book).CITABLE_CLAUSES):
            citation = Citation(book, clause)
            section = sections.get(citation.section)
            if section is None:
                missing.append(clause)
            elif citation.section != clause:
                letter = clause[len(citation.section):]
                if letter not in {clause_label(b) for b in section.blocks}:
                    missing.append(clause)
        assert not missing, f"{book} [{lang}]: cited but not in the corpus: {missing}"


@pytest.mark.parametrize("book", BOOKS)
def test_the_engine_cites_something(book):
    assert len(book_engine(book).CITABLE_CLAUSES) >= 10
