"""The offline copy: an installable app whose rulebooks can be read and searched without a network.

- ``revision``: which revision of a rulebook a page or an offline copy holds, and the token that changes with it.
- ``index``: the compact search index of a rulebook (Snowball stems from the server's own stemmer), built at load
  time and whenever the content version moves.
- ``bundle``: a rulebook's offline copy in one response: every page in both languages, the glossary, the search
  index and the CSS/JS those pages use.
- ``views``: the service worker (served from the site root), the web app manifest, the one small version check,
  the copy's size and bundle, the strings the offline scripts show, and the pages shown when a page is not kept.
"""
