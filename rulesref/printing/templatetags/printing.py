"""Filters of the print templates: a section's title and a glossary term's words in a given language."""
from django import template

register = template.Library()


@register.filter
def get_title(titles: dict, lang: str) -> str:
    return titles.get(lang) or next((t for t in titles.values() if t), "")


@register.filter
def term_in(term, lang: str) -> str:
    return term.term(lang)


@register.filter
def definition_in(term, lang: str) -> str:
    return term.definition(lang)
