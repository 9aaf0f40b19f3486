"""The translator's workspace and the readers' reports, by concern (as Weblate's trans/views/):

- ``dashboard``: the rulebooks and a rulebook's dashboard;
- ``editor``: the side-by-side editor, its live QA and QA dismissals;
- ``review``: a section's revisions, diffs, restores and the conflict page;
- ``exchange``: PO/XLIFF/TMX export and import, through the format registry (exchange/formats.py);
- ``reports``: readers' reports on a paragraph, the follow page and the translators' queue;
- ``base``: what they share.

Every workspace page needs a signed-in translator or reviewer; every write is a POST with a CSRF token. Every page
works without JavaScript; with htmx the editor checks the text while it is typed.
"""
