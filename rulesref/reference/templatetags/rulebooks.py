"""Template helpers for texts kept in both languages on one object (a rulebook's title and description);
``{% capture %}``, which renders its contents once into a variable so the page title and description can serve
the <title>, the meta description and the link-preview tags alike; and ``{% memo %}``, which renders a part of
the page once per value of what it depends on (the header, the same on every page for a reader of one language)."""
import threading
from html import escape as escape_html
from collections import OrderedDict

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from rulesref.languages import current_language
from rulesref.reference.render import esc_text

register = template.Library()


def short_title(title: str) -> str:
    """A rulebook's name for the menu: its title up to a colon ("Musket & Pike", "The 9th Age")."""
    return title.split(":", 1)[0].strip() or title


@register.simple_tag
def book_title(book) -> str:
    """The rulebook's title in the reader's language."""
    return book.title(current_language())


@register.simple_tag
def book_name(book) -> str:
    """The rulebook's short name in the reader's language."""
    return short_title(book.title(current_language()))


@register.simple_tag
def book_description(book) -> str:
    return book.description(current_language())


@register.filter
def written_in(text: str, lang: str) -> str:
    """Plain text in ``lang``, escaped, its words in the other script marked with their language."""
    return mark_safe(esc_text(text or "", lang))


@register.simple_tag
def section_label(entry, lang: str = "") -> str:
    """A section's number and title as HTML, in the reader's language (or ``lang``); an untitled section's first
    words are marked as such."""
    lang = lang or current_language()
    number = format_html('<span class="num">{}</span>', entry.number) if entry.number else ""
    title = entry.display_title(lang)
    written_in = entry.title_language(lang)
    html = esc_text(title, written_in)
    if written_in != lang:
        html = f'<span lang="{written_in}">{html}</span>'
    if title and entry.untitled(lang):
        html = format_html('<span class="first-words" title="{}">{}</span>',
                           _("The rulebook gives this section no title: these are its first words"), mark_safe(html))
    return mark_safe(f"{number} {html}".strip()) if number or title else entry.sid


@register.simple_tag
def search_hits(hits) -> str:
    """A rulebook's search hits as a list: each its highlighted title as a link, a badge when the text shown is in
    the other language, and its snippet. One tag rather than a template loop: the live search renders up to 30 hits
    on every keystroke, and a loop's variable lookups were most of its rendering. ``title_html`` and
    ``snippet_html`` are built on escaped text (search.highlight); the rest is escaped here."""
    lang = current_language()
    items = []
    for hit in hits:
        language = escape_html(hit.language)
        other = f' lang="{language}"' if hit.language != lang else ""
        badge = f' <span class="badge muted" lang="{language}">{language}</span>' if other else ""
        items.append(f'<li><a href="{escape_html(hit.url)}"{other}>{hit.title_html}</a>{badge}\n'
                     f'        <p class="snippet" lang="{language}">{hit.snippet_html}</p></li>')
    return mark_safe(f'<ul class="hits">{"".join(items)}</ul>')


class CaptureNode(template.Node):
    child_nodelists = ("nodelist",)  # so {% extends %} finds the blocks inside

    def __init__(self, nodelist, name):
        self.nodelist, self.name = nodelist, name

    def render(self, context):
        # The output is rendered template text, escaped as it was rendered: safe to print as it is.
        context[self.name] = mark_safe(" ".join(self.nodelist.render(context).split()))
        return ""


@register.tag
def capture(parser, token):
    """``{% capture name %}…{% endcapture %}``: render the contents into ``name`` (whitespace collapsed) and
    print nothing. Blocks inside are overridden by child templates as usual."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("usage: {% capture name %}…{% endcapture %}")
    nodelist = parser.parse(("endcapture",))
    parser.delete_first_token()
    return CaptureNode(nodelist, bits[1])


MEMO_SIZE = 512
_memo: OrderedDict = OrderedDict()
_memo_lock = threading.Lock()


class MemoNode(template.Node):
    child_nodelists = ("nodelist",)

    def __init__(self, nodelist, name: str, keys: list):
        self.nodelist, self.name, self.keys = nodelist, name, keys

    def render(self, context):
        key = (self.name, *(_hashable(k.resolve(context)) for k in self.keys))
        hit = _memo.get(key)
        if hit is None:
            hit = self.nodelist.render(context)
            with _memo_lock:
                _memo[key] = hit
                if len(_memo) > MEMO_SIZE:
                    _memo.popitem(last=False)
        return hit


def _hashable(value):
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


@register.tag
def memo(parser, token):
    """``{% memo name value… %}…{% endmemo %}``: the contents rendered once per tuple of values and reused.
    The values must be everything the contents depend on (lists of plain values are fine); never use it around
    anything that differs per user or per request (a CSRF token, a user's name)."""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("usage: {% memo name value… %}…{% endmemo %}")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, bits[1], [parser.compile_filter(b) for b in bits[2:]])


def clear_memo() -> None:
    with _memo_lock:
        _memo.clear()
