"""Rulings and the FAQ: answers to readers' rules questions, attached to the clauses they answer (rulesref/rulings).

A ruling is content with the life of a translation: written in one language (its source), translated into the
other through the translator's workspace (statuses, revisions, QA, memory, PO/XLIFF), published by a reviewer or a
rules editor, and marked "may be outdated" when a clause it cites changes, until someone confirms it.
"""
