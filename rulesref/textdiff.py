"""Word diffs of texts, and their HTML built on escaped text (the texts are untrusted).

Shared by the reference, the translator's workspace and the checker, so it imports nothing from their apps.

A diff costs a bounded amount whatever the texts (two of 200 KB: well under 0.5 s of CPU). The words are aligned by
a longest common subsequence (RapidFuzz's bit-parallel Indel), whose work is one *cell* per token of one side
against a token of the other once the common start and end are set aside; the result is then made to read as
difflib's did (see MAX_SLIDE). One diff spends at most MAX_CELLS cells and MAX_PIECES pieces of Python work (a
text handed to the aligner, a run of its result). Texts too long for that are aligned paragraph by paragraph first
and only the changed paragraphs word by word; what is still over the budget shows as whole deleted and inserted
paragraphs. ``html_diff`` keeps what it renders for long texts in the cache, keyed on the two texts.
"""
from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe
from rapidfuzz.distance import Indel

TOKEN_RE = re.compile(r"\n\n|\s+|[^\W_]+|\S")  # a paragraph break, spaces, a word, any other character
EQUAL, INSERT, DELETE = "equal", "insert", "delete"
PARAGRAPH_BREAK = "\n\n"

# 16,000 tokens a side (two ~55 KB Russian texts) in one alignment: about 0.04 s, and a 32 MB bit matrix, the
# most one request should hold. Two unrelated 200 KB texts (55,000 tokens a side) would take 0.9 s and 400 MB.
MAX_CELLS = 16_000 * 16_000
# Each piece costs some microseconds of Python (tokens, runs, escaping): this many stay well under 0.5 s. A 200 KB
# text edited in one word of twenty needs about 3,000.
MAX_PIECES = 10_000
CALL_PIECES = 5  # a text handed to the word diff costs as much as five runs of its result

# Below this many characters (both texts together) a diff costs under a millisecond, no more than a cache round
# trip (a get, and a set on a miss); above it the cache keeps rendered HTML for a day (a pair of texts always has
# the same diff), up to CACHE_MAX_CHARS: the HTML of two 200 KB texts is at most about 2.8 MB (every character
# escaped to six), so only larger texts are diffed again each time.
CACHE_MIN_CHARS = 4_000
CACHE_MAX_CHARS = 3_000_000
CACHE_SECONDS = 24 * 3600
CACHE_PREFIX = "textdiff:1:"

# The diffs used to come from difflib's matcher (longest match first), and read the same now: an insertion or
# deletion that could sit in several places slides (up to MAX_SLIDE tokens) to where difflib put it, and the short
# stretches between long unchanged runs (ANCHOR tokens or more) are aligned by difflib itself, where that costs
# little: 0.06-0.2 µs a cell, so REGION_CELLS at most for one stretch (a replaced paragraph) and MAX_REGION_CELLS
# for one diff (0.1 s at worst).
MAX_SLIDE = 256
ANCHOR = 8
REGION_CELLS = 300 * 300
MAX_REGION_CELLS = 500_000

Block = tuple[int, int, int]  # a run that stays: its start in the old sequence, in the new one, its length


@dataclass(frozen=True)
class Op:
    kind: str  # equal | insert | delete
    text: str


class Budget:
    """The work one diff may still do: cells to align, and pieces (a text handed to the word diff, a run of its
    result) whose handling in Python costs far more than a cell."""

    def __init__(self, cells: int = MAX_CELLS, pieces: int = MAX_PIECES, region_cells: int = MAX_REGION_CELLS):
        self.cells = cells
        self.pieces = pieces
        self.region_cells = region_cells

    def spend(self, pieces: int) -> bool:
        """Count ``pieces`` as done; whether any are left."""
        self.pieces -= pieces
        return self.pieces > 0

    def take(self, n: int, m: int) -> bool:
        """Whether aligning ``n`` items against ``m`` fits what is left; if it does, it is spent."""
        if n * m > self.cells or self.pieces <= 0:
            return False
        self.cells -= n * m
        return True

    def take_region(self, n: int, m: int) -> bool:
        """Whether difflib may align a stretch of ``n`` tokens against ``m``; if it may, that is spent."""
        if n * m > min(REGION_CELLS, self.region_cells):
            return False
        self.region_cells -= n * m
        return True


def tokens(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


def _lcs(a: list[int], b: list[int]) -> list[Block]:
    """The runs of a longest common subsequence of ``a`` and ``b``: the one call whose work is len(a) × len(b)."""
    runs: list[Block] = []
    for tag, i1, i2, j1, _j2 in Indel.opcodes(a, b):
        if tag != EQUAL:
            continue
        if runs and runs[-1][0] + runs[-1][2] == i1 and runs[-1][1] + runs[-1][2] == j1:
            runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + i2 - i1)
        else:
            runs.append((i1, j1, i2 - i1))
    return runs


def _interned(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[list[int], list[int]]:
    """Both sequences as small integers, equal where the items are equal (RapidFuzz hashes anything else)."""
    ids: dict[Hashable, int] = {}
    return [ids.setdefault(x, len(ids)) for x in a], [ids.setdefault(x, len(ids)) for x in b]


def _common_ends(a: Sequence, b: Sequence) -> tuple[int, int]:
    """The lengths of the common start and, in what is left, the common end."""
    n, m = len(a), len(b)
    start = 0
    while start < n and start < m and a[start] == b[start]:
        start += 1
    end = 0
    while end < n - start and end < m - start and a[n - 1 - end] == b[m - 1 - end]:
        end += 1
    return start, end


def _one_sided(p: Block, q: Block) -> str | None:
    """What the change between two runs does: DELETE or INSERT only, EQUAL when there is none, None for both."""
    deleted, inserted = q[0] - p[0] - p[2], q[1] - p[1] - p[2]
    if deleted and inserted:
        return None
    return DELETE if deleted else INSERT if inserted else EQUAL


def _extent(same: Callable[[int], bool], limit: int) -> int:
    """The largest ``k <= limit`` for which ``same(k)`` holds, where it holds for every smaller k if for k; found
    by doubling and halving, so the comparisons run over slices (in C), not token by token."""
    good, step = 0, 1
    while good < limit:
        bad = min(good + step, limit)
        if not same(bad):
            break
        good, step = bad, step * 2
    else:
        return good
    while bad - good > 1:
        middle = (good + bad) // 2
        good, bad = (middle, bad) if same(middle) else (good, middle)
    return good


def _slid(a: Sequence, b: Sequence, p: Block, q: Block) -> tuple[Block, Block]:
    """The runs ``p`` and ``q`` with the insertion or deletion between them moved to where the run it touches is
    longest (by at most MAX_SLIDE tokens); either run may shrink to nothing."""
    kind = _one_sided(p, q)
    if kind not in (DELETE, INSERT):
        return p, q
    (i1, j1, n1), (i2, j2, n2) = p, q
    seq, g0, g1 = (a, i1 + n1, i2) if kind == DELETE else (b, j1 + n1, j2)
    left = _extent(lambda k: seq[g0 - k:g0] == seq[g1 - k:g1], min(n1, MAX_SLIDE))
    right = _extent(lambda k: seq[g0:g0 + k] == seq[g1:g1 + k], min(n2, MAX_SLIDE))
    shift = -left if n2 + left > n1 + right else right  # on a tie the earlier run grows, as in difflib
    return (i1, j1, n1 + shift), (i2 + shift, j2 + shift, n2 - shift)


def _slide(a: Sequence, b: Sequence, blocks: list[Block]) -> list[Block]:
    """An insertion or deletion that could sit in several places (``a b`` → ``a x b``: ``x `` or `` x``) is put
    where the run it touches is longest, as difflib's longest-match-first did, so the diffs read as they always
    have. A run that shrinks to nothing joins the changes on its two sides, and the joined change may move on."""
    out: list[Block] = []
    for q in blocks:
        while out:
            p, q = _slid(a, b, out[-1], q)
            if p[2]:
                out[-1] = p
                break
            out.pop()
        if q[2]:
            out.append(q)
    return out


def _refined(a: Sequence, b: Sequence, blocks: list[Block], budget: Budget) -> list[Block]:
    """The runs, with each stretch between two long ones aligned again by difflib where the budget allows."""
    out: list[Block] = []
    inner: list[Block] = []
    i = j = 0
    for block in [*blocks, (len(a), len(b), 0)]:
        if 0 < block[2] < ANCHOR:
            inner.append(block)
            continue
        bi, bj, size = block
        if i < bi and j < bj and budget.take_region(bi - i, bj - j):
            matcher = SequenceMatcher(None, a[i:bi], b[j:bj], autojunk=False)
            inner = [(i + x, j + y, n) for x, y, n in matcher.get_matching_blocks() if n]
        out += inner
        if size:
            out.append(block)
        inner = []
        i, j = bi + size, bj + size
    return out


def _matching(a: Sequence[Hashable], b: Sequence[Hashable], budget: Budget) -> tuple[list[Block], bool]:
    """The runs of ``a`` that stay in ``b``, and whether the changed middle was aligned at all: when that does not
    fit the budget, only the common start and end are runs and the middle is one change."""
    n, m = len(a), len(b)
    start, end = _common_ends(a, b)
    runs: list[Block] = []
    aligned = True
    if start + end < n and start + end < m:
        aligned = budget.take(n - start - end, m - start - end)
        if aligned:
            runs = [(i + start, j + start, size)
                    for i, j, size in _lcs(*_interned(a[start:n - end], b[start:m - end]))]
            aligned = budget.spend(len(runs))
    return [*([(0, 0, start)] if start else []), *(runs if aligned else []),
            *([(n - end, m - end, end)] if end else [])], aligned


def _opcodes(blocks: list[Block], n: int, m: int) -> Iterator[tuple[str, int, int, int, int]]:
    """difflib's opcodes from the runs that stay: ``equal`` runs and one change between each two."""
    i = j = 0
    for bi, bj, size in [*blocks, (n, m, 0)]:
        if i < bi or j < bj:
            yield ("replace" if i < bi and j < bj else DELETE if i < bi else INSERT), i, bi, j, bj
        if size:
            yield EQUAL, bi, bi + size, bj, bj + size
        i, j = bi + size, bj + size


def _canonical(ops: list[Op]) -> list[Op]:
    """The same edit with no empty runs, neighbours of one kind joined, and a change's deleted text before its
    inserted text."""
    out: list[Op] = []
    changes: dict[str, list[str]] = {DELETE: [], INSERT: []}
    for op in [*ops, Op(EQUAL, "")]:
        if op.kind != EQUAL:
            changes[op.kind].append(op.text)
            continue
        out += [Op(kind, "".join(texts)) for kind, texts in changes.items() if any(texts)]
        changes = {DELETE: [], INSERT: []}
        if op.text and out and out[-1].kind == EQUAL:
            out[-1] = Op(EQUAL, out[-1].text + op.text)
        elif op.text:
            out.append(op)
    return out


def _token_ops(a: list[str], b: list[str], budget: Budget) -> list[Op] | None:
    """The edit from tokens ``a`` to tokens ``b``, or None when aligning them does not fit what is left of the
    budget."""
    if not budget.spend(CALL_PIECES):
        return None
    blocks, aligned = _matching(a, b, budget)
    if not aligned:
        return None
    ops = []
    for tag, i1, i2, j1, j2 in _opcodes(_refined(a, b, _slide(a, b, blocks), budget), len(a), len(b)):
        if tag == EQUAL:
            ops.append(Op(EQUAL, "".join(a[i1:i2])))
        else:
            ops += [Op(DELETE, "".join(a[i1:i2])), Op(INSERT, "".join(b[j1:j2]))]
    return ops


def _paragraphs(text: str) -> list[str]:
    """The text's paragraphs, each with the break that follows it (so that they join back into the text)."""
    parts = text.split(PARAGRAPH_BREAK)
    return [p + PARAGRAPH_BREAK for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _whole(old: str, new: str) -> list[Op]:
    return [Op(DELETE, old), Op(INSERT, new)]


def _changed_paragraphs(old: list[str], new: list[str], budget: Budget, *, tried: bool) -> list[Op]:
    """One change of whole paragraphs: word by word as one text if that fits (``tried``: it did not), else the
    first with the first and so on while the budget lasts (a pair that does not fit shows whole), then the rest
    whole."""
    if not tried:
        ops = _token_ops(tokens("".join(old)), tokens("".join(new)), budget)
        if ops is not None:
            return ops
    ops = []
    paired = 0
    if len(old) > 1 or len(new) > 1:  # else the one pair is what was tried
        while paired < min(len(old), len(new)) and budget.pieces > 0:
            before, after = old[paired], new[paired]
            ops += _token_ops(tokens(before), tokens(after), budget) or _whole(before, after)
            paired += 1
    return ops + _whole("".join(old[paired:]), "".join(new[paired:]))


def _paragraph_ops(old: str, new: str, budget: Budget) -> list[Op]:
    """The edit found paragraph by paragraph (the word diff of the whole texts did not fit): paragraphs that stay
    are equal, changed ones are word-diffed."""
    pa, pb = _paragraphs(old), _paragraphs(new)
    blocks, _aligned = _matching(pa, pb, budget)
    blocks = _refined(pa, pb, _slide(pa, pb, blocks), budget)
    ops = []
    for tag, i1, i2, j1, j2 in _opcodes(blocks, len(pa), len(pb)):
        if tag == EQUAL:
            ops.append(Op(EQUAL, "".join(pa[i1:i2])))
        else:
            everything = (i1, i2, j1, j2) == (0, len(pa), 0, len(pb))  # its word diff is what did not fit
            ops += _changed_paragraphs(pa[i1:i2], pb[j1:j2], budget, tried=everything)
    return ops


def _diff(old: str, new: str, budget: Budget) -> list[Op]:
    """The edit, word by word if that fits the budget, else paragraph by paragraph, else whole."""
    if budget.pieces <= 0:
        return [op for op in _whole(old, new) if op.text]
    ops = _token_ops(tokens(old), tokens(new), budget)
    if ops is None:
        ops = _paragraph_ops(old, new, budget)
    return _canonical(ops)


def word_diff(old: str, new: str) -> list[Op]:
    """The edit from ``old`` to ``new`` as runs of equal, deleted and inserted text, word by word where the work
    fits ``MAX_CELLS``, else by paragraphs (see the module's docstring)."""
    return _diff(old, new, Budget())


def changed(ops: list[Op]) -> bool:
    return any(op.kind != EQUAL for op in ops)


def _escaped(text: str) -> str:
    """Escaped text with paragraph and line breaks shown (html.escape: what django.utils.html.escape calls)."""
    return html.escape(text).replace("\n\n", "¶<br><br>").replace("\n", "<br>")


_MARKS = {EQUAL: "{}", DELETE: "<del>{}</del>", INSERT: "<ins>{}</ins>"}


def _marked(kind: str, text: str) -> str:
    return _MARKS[kind].format(_escaped(text))


def render_diff(ops: list[Op]) -> SafeString:
    return SafeString("".join(_marked(op.kind, op.text) for op in ops))


def _cache_key(old: str, new: str) -> str:
    digest = hashlib.sha256(f"{len(old)}:".encode())
    digest.update(old.encode("utf-8", "surrogatepass"))
    digest.update(new.encode("utf-8", "surrogatepass"))
    return CACHE_PREFIX + digest.hexdigest()


def html_diff(old: str, new: str) -> SafeString:
    """The word diff as HTML; for long texts, from the cache when this pair of texts was diffed before."""
    if len(old) + len(new) < CACHE_MIN_CHARS:
        return render_diff(word_diff(old, new))
    key = _cache_key(old, new)
    rendered = cache.get(key)
    if rendered is None:
        rendered = render_diff(word_diff(old, new))
        if len(rendered) <= CACHE_MAX_CHARS:
            cache.set(key, str(rendered), CACHE_SECONDS)
    return mark_safe(rendered)


def _pair_html(old: str, new: str, budget: Budget) -> str:
    """The word diff of a paragraph from the one it replaces; once the budget is spent, both whole."""
    if budget.pieces <= 0:
        return "".join(_marked(kind, text) for kind, text in ((DELETE, old), (INSERT, new)) if text)
    return render_diff(_diff(old, new, budget))


def _replaced_html(old_part: list[str], new_part: list[str], budget: Budget) -> list[str]:
    """For each new paragraph of one change, its diff from the old paragraph in its place (or all inserted, when
    there is none); old paragraphs left over show as deleted after the last."""
    out = [_pair_html(old_part[k], block, budget) if k < len(old_part) else _marked(INSERT, block)
           for k, block in enumerate(new_part)]
    if len(old_part) > len(new_part):
        out[-1] += _marked(DELETE, "\n\n" + "\n\n".join(old_part[len(new_part):]))
    return out


def block_diffs(old_blocks: list[str], new_blocks: list[str]) -> list[SafeString | None]:
    """For each new paragraph, the word diff from the old paragraph it replaces (None when unchanged); a wholly new
    paragraph shows as inserted, removed paragraphs show as deleted text before the paragraph that follows them.
    The paragraphs and their words share one budget: past it, changed paragraphs show whole."""
    budget = Budget()
    result: list[SafeString | None] = [None] * len(new_blocks)
    deleted: list[str] = []  # removed paragraphs not yet shown: a change is always followed by equal ones or the end
    blocks, _aligned = _matching(old_blocks, new_blocks, budget)
    blocks = _refined(old_blocks, new_blocks, _slide(old_blocks, new_blocks, blocks), budget)
    for tag, i1, i2, j1, j2 in _opcodes(blocks, len(old_blocks), len(new_blocks)):
        if tag == EQUAL:
            if deleted:
                result[j1] = SafeString(_marked(DELETE, "\n\n".join(deleted) + "\n\n")
                                        + _marked(EQUAL, new_blocks[j1]))
                deleted = []
        elif j1 == j2:
            deleted = old_blocks[i1:i2]
        else:
            result[j1:j2] = map(SafeString, _replaced_html(old_blocks[i1:i2], new_blocks[j1:j2], budget))
    if deleted and new_blocks:
        last = len(new_blocks) - 1
        result[last] = SafeString((result[last] or _marked(EQUAL, new_blocks[last]))
                                  + _marked(DELETE, "\n\n" + "\n\n".join(deleted)))
    return result
