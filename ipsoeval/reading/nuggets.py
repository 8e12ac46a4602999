"""Nugget assignment files of generated answers: the one reader, into
a :class:`~ipsoeval.model.NuggetJudgments`.

Formats (detected per file from its first non-blank character):

``jsonl``
    nuggetizer's records, one JSON object per line: ``qid``, an optional run
    id (``run_id`` or ``run``; without one the run is the file's name) and
    ``nuggets``, a non-empty list of objects with ``text``, ``importance``
    and ``assignment`` (a ``nugget_id`` or ``id``, if given, identifies the
    nugget instead of its text).
``tsv``
    One nugget of one answer per line: ``run qid nugget_id importance
    assignment`` (tab- or blank-separated; an optional header line starting
    ``run``); the lines of an answer are its nuggets in order.

The vocabulary: importance ``vital``, ``okay`` (``failed``: nuggetizer could
not grade it; scored as okay, with a warning); assignment ``support``,
``partial_support``, ``not_support`` (``failed``: the judge gave no label;
scored as not_support, with a warning).  Reading is strict: an unknown
value, a record without nuggets, a nugget given twice in an answer, an
answer (run, qid) given twice and an answer for a topic another run does not
answer are input errors naming the file and line.
"""

from __future__ import annotations

import json

import numpy as np

from ipsoeval.errors import InputError
from ipsoeval.ids import id_sort_key
from ipsoeval.model import IMPORTANCE_LEVELS, NUGGET_PAD, SUPPORT_LEVELS, NuggetJudgments
from ipsoeval.reading.grammar import check_stdin_once, display_name, file_stem
from ipsoeval.reading.opening import read_bytes

FORMATS = ("jsonl", "tsv")
SUPPORT_CODE = {s: i for i, s in enumerate(SUPPORT_LEVELS)}
IMPORTANCE_CODE = {s: i for i, s in enumerate(IMPORTANCE_LEVELS)}
FAILED = "failed"
TSV_COLUMNS = ("run", "qid", "nugget_id", "importance", "assignment")


class _Answer:
    """One answer's nuggets as codes, in order.  ``seen`` makes the duplicate
    check O(1) a nugget (an answer may hold tens of thousands)."""

    __slots__ = ("run", "qid", "keys", "seen", "importance", "support", "failed",
                 "failed_imp", "path", "line")

    def __init__(self, run, qid, path, line):
        self.run, self.qid, self.path, self.line = run, qid, path, line
        self.keys, self.importance, self.support = [], [], []
        self.failed, self.failed_imp = [], []
        self.seen = set()

    def add(self, key: str, importance: str, assignment: str, path: str, line: int):
        imp = IMPORTANCE_CODE.get(importance)
        sup = SUPPORT_CODE.get(assignment)
        seen = self.seen
        n = len(seen)
        seen.add(key)
        if len(seen) == n or imp is None or sup is None:
            self._refuse(key, importance, assignment, path, line, n)
            if imp is None:          # failed: okay, said by a warning
                imp, self_fi = 0, True
            else:
                self_fi = False
            failed = sup is None     # failed: not_support, said by a warning
            sup = 0 if failed else sup
        else:
            self_fi = failed = False
        self.keys.append(key)
        self.importance.append(imp)
        self.support.append(sup)
        self.failed_imp.append(self_fi)
        self.failed.append(failed)

    def _refuse(self, key, importance, assignment, path, line, n):
        if len(self.seen) == n:
            raise InputError(f"nugget {key!r} given twice in the answer of run {self.run!r} "
                             f"to topic {self.qid!r}", path=path, line=line)
        if importance not in IMPORTANCE_CODE and importance != FAILED:
            raise InputError(f"unknown importance {importance!r} (expected vital, okay or "
                             f"failed)", path=path, line=line)
        if assignment not in SUPPORT_CODE and assignment != FAILED:
            raise InputError(f"unknown assignment {assignment!r} (expected support, "
                             f"partial_support, not_support or failed)", path=path, line=line)


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", path=name, line=line) from None


def sniff(text: str) -> str:
    """'jsonl' when the first non-blank character is '{', else 'tsv'."""
    s = text.lstrip()
    return "jsonl" if s.startswith("{") else "tsv"


def _str_field(rec: dict, key: str, what: str, name: str, line: int) -> str:
    v = rec.get(key)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        v = str(v)
    if not isinstance(v, str) or not v.strip():
        raise InputError(f"{what} without a {key!r} string", path=name, line=line)
    return v


def _field_types(n, imp, asg, what: str, name: str, line: int) -> None:
    if not isinstance(imp, str):
        raise InputError(f"{what} without an 'importance' string", path=name, line=line)
    if not isinstance(asg, str):
        raise InputError(f"{what} without an 'assignment' string", path=name, line=line)


_IMP = {**IMPORTANCE_CODE, FAILED: IMPORTANCE_CODE["okay"]}       # failed: okay
_SUP = {**SUPPORT_CODE, FAILED: SUPPORT_CODE["not_support"]}       # failed: not_support


def _whole(ans: _Answer, nuggets: list) -> bool:
    """Fill ``ans`` from a record's nuggets a column at a time (list
    comprehensions: a few microseconds a nugget) when every nugget is valid;
    False, ``ans`` untouched, when one is not (the caller's loop, nugget by
    nugget, then raises the error that names it).  The same values as the
    loop's :meth:`_Answer.add`."""
    if not all(type(n) is dict for n in nuggets):
        return False
    texts = [n.get("text") for n in nuggets]
    if not all(type(t) is str and t and not t.isspace() for t in texts):
        return False
    ids = [n["nugget_id"] if "nugget_id" in n else n.get("id") for n in nuggets]
    keys = [k if type(k) is str else t if k is None else str(k) for k, t in zip(ids, texts)]
    imps = [n.get("importance") for n in nuggets]
    asgs = [n.get("assignment") for n in nuggets]
    if not (all(type(x) is str and x in _IMP for x in imps)
            and all(type(x) is str and x in _SUP for x in asgs)):
        return False
    seen = set(keys)
    if len(seen) != len(keys):
        return False
    ans.keys, ans.seen = keys, seen
    ans.importance = [_IMP[x] for x in imps]
    ans.support = [_SUP[x] for x in asgs]
    ans.failed_imp = [x == FAILED for x in imps]
    ans.failed = [x == FAILED for x in asgs]
    return True


def _jsonl(text: str, name: str, run_default: str):
    for i, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except ValueError as e:
            raise InputError(f"not a JSON record ({e.msg})", path=name, line=i) from None
        if not isinstance(rec, dict):
            raise InputError("not a JSON object", path=name, line=i)
        qid = _str_field(rec, "qid", "record", name, i)
        run = rec.get("run_id", rec.get("run"))
        run = run_default if run is None else str(run)
        nuggets = rec.get("nuggets")
        if not isinstance(nuggets, list) or not nuggets:
            raise InputError(f"record of topic {qid!r} without nuggets (a non-empty "
                             f"'nuggets' list)", path=name, line=i)
        ans = _Answer(run, qid, name, i)
        if _whole(ans, nuggets):
            yield ans
            continue
        add = ans.add               # a nugget is refused: the one by one loop says which
        for k, n in enumerate(nuggets, 1):
            # the common record takes the first branch of each test; the
            # messages are built only for a record that is refused
            if type(n) is not dict:
                if not isinstance(n, dict):
                    raise InputError(f"nugget {k} of topic {qid!r} is not a JSON object",
                                     path=name, line=i)
            text_ = n.get("text")
            if type(text_) is not str or not text_ or text_.isspace():
                text_ = _str_field(n, "text", f"nugget {k} of topic {qid!r}", name, i)
            key = n["nugget_id"] if "nugget_id" in n else n.get("id")
            if type(key) is not str:
                key = text_ if key is None else str(key)
            imp = n.get("importance")
            asg = n.get("assignment")
            if type(imp) is not str or type(asg) is not str:
                _field_types(n, imp, asg, f"nugget {k} of topic {qid!r}", name, i)
            add(key, imp, asg, name, i)
        yield ans


def _tsv(text: str, name: str):
    current = None
    seen_data = False
    for i, raw in enumerate(text.split("\n"), 1):
        raw = raw.rstrip("\r")
        if not raw.strip() or raw.startswith("#"):
            continue
        f = raw.split("\t") if "\t" in raw else raw.split()
        f = [x.strip() for x in f]
        if not seen_data and f and f[0].lower() == "run" and len(f) >= 2 and \
                f[1].lower() in ("qid", "query_id"):
            seen_data = True
            continue                                    # the header line
        seen_data = True
        if len(f) != 5 or not all(f):
            raise InputError(f"expected 5 fields ({' '.join(TSV_COLUMNS)}), found "
                             f"{len([x for x in f if x])}", path=name, line=i)
        run, qid, key, imp, asg = f
        if current is None or (current.run, current.qid) != (run, qid):
            if current is not None:
                yield current
            current = _Answer(run, qid, name, i)
        current.add(key, imp, asg, name, i)
    if current is not None:
        yield current


def read_nuggets(paths, fmt: str = "auto") -> NuggetJudgments:
    """The nugget assignments of ``paths`` (files or '-'), every run answering
    every topic; ``fmt`` ('auto', 'jsonl' or 'tsv') forces a format."""
    paths = list(paths)
    check_stdin_once(paths)
    answers: dict[tuple[str, str], _Answer] = {}
    formats = {}
    for p in paths:
        name = display_name(p)
        try:
            data = read_bytes(p)
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror or e}", path=name) from None
        text = _text(data, name)
        f = sniff(text) if fmt == "auto" else fmt
        formats[name] = f
        gen = _jsonl(text, name, file_stem(p)) if f == "jsonl" else _tsv(text, name)
        n = 0
        for ans in gen:
            n += 1
            key = (ans.run, ans.qid)
            first = answers.get(key)
            if first is not None:
                raise InputError(f"the answer of run {ans.run!r} to topic {ans.qid!r} is "
                                 f"given twice (first at {first.path}:{first.line})",
                                 path=name, line=ans.line)
            answers[key] = ans
        if n == 0:
            raise InputError("no nugget assignments", path=name)
    runs = list(dict.fromkeys(a.run for a in answers.values()))
    topics = sorted({a.qid for a in answers.values()}, key=id_sort_key)
    for r in runs:          # every run answers every topic
        for t in topics:
            if (r, t) not in answers:
                other = next(a for (rr, tt), a in answers.items() if tt == t)
                raise InputError(f"topic {other.qid!r} is answered by run {other.run!r} "
                                 f"but not by run {r!r} (every run must answer the same "
                                 f"topics)", path=other.path, line=other.line)
    R, T = len(runs), len(topics)
    K = max(len(a.keys) for a in answers.values())
    support = np.full((R, T, K), NUGGET_PAD, dtype=np.int8)
    importance = np.full((R, T, K), NUGGET_PAD, dtype=np.int8)
    failed = np.zeros((R, T, K), dtype=bool)
    failed_imp = np.zeros((R, T, K), dtype=bool)
    keys = [[()] * T for _ in range(R)]
    lines = [[("", 0)] * T for _ in range(R)]
    for ri, r in enumerate(runs):
        for ti, t in enumerate(topics):
            a = answers[(r, t)]
            k = len(a.keys)
            support[ri, ti, :k] = a.support
            importance[ri, ti, :k] = a.importance
            failed[ri, ti, :k] = a.failed
            failed_imp[ri, ti, :k] = a.failed_imp
            keys[ri][ti] = tuple(a.keys)
            lines[ri][ti] = (a.path, a.line)
    return NuggetJudgments(runs=runs, topics=topics, support=support, importance=importance,
                           failed=failed, failed_importance=failed_imp, keys=keys,
                           lines=lines, paths=[display_name(p) for p in paths],
                           formats=formats)


def failed_warnings(j: NuggetJudgments) -> list[str]:
    """The warnings the ``failed`` rule gives (none without failed values)."""
    out = []
    nf = int(j.failed.sum())
    if nf:
        out.append(f"{nf} nugget assignment(s) 'failed' (the judge gave no label) scored as "
                   f"not_support, as nuggetizer does")
    ni = int(j.failed_importance.sum())
    if ni:
        out.append(f"{ni} nugget(s) with importance 'failed' scored as okay (not vital), as "
                   f"nuggetizer does")
    return out
