"""Typed measure parameters: each one's rule, default and spelling, declared once.

A family lists the :class:`Param` objects it takes; the name parser
(:mod:`ipsoeval.measures.names`) checks every value written in
``Name(key=value)`` against the parameter's rule, and a kernel reads the
typed value (or the default) with :meth:`Measure.get`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:                 # (typing and re cost the quick paths ~15 ms of imports)
    from typing import Callable

MAX_CUTOFF = 2**31 - 1        # largest cutoff (and rel level) accepted
MAX_REL = 2**31 - 1


class Value:
    """A parameter value as written: kind is 'number', 'str', 'bool' or 'word'."""

    __slots__ = ("kind", "value", "text")

    def __init__(self, kind, value, text):
        self.kind, self.value, self.text = kind, value, text

    @classmethod
    def of(cls, v) -> Value:
        """A typed value given in code (not text)."""
        kind = "bool" if isinstance(v, bool) else "str" if isinstance(v, str) else "number"
        return cls(kind, v, fmt_value(v))


def fmt_value(x) -> str:
    """A value as written in a canonical name: 10, 0.8, True, 'exp-log2'."""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, str):
        return repr(x) if "'" not in x else '"' + x + '"'
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


class Bad(Exception):
    """A value breaks its parameter's rule (the message is the rule)."""


class Param:
    """One parameter: ``check`` turns a :class:`Value` into the typed value or
    raises :class:`Bad` with the rule in words.  ``default`` is the value a
    kernel sees when it is not given; ``in_name``: not given, the default is
    written into the name (RBP's p); ``drop_default``: given at its default,
    it is left out of the name (ir_measures' dcg, judged_only, relative)."""

    __slots__ = ("name", "check", "default", "in_name", "drop_default", "help")

    def __init__(self, name: str, check: Callable[[Value], object], default=None, *,
                 in_name: bool = False, drop_default: bool = False, help: str = ""):
        self.name, self.check, self.default = name, check, default
        self.in_name, self.drop_default, self.help = in_name, drop_default, help

    def __repr__(self):
        return f"Param({self.name!r})"


def _whole(lo: int, hi: int, rule: str):
    def check(v: Value):
        if v.kind != "number" or not isinstance(v.value, int) or not lo <= v.value <= hi:
            raise Bad(rule)
        return v.value
    return check


def _persistence(v: Value):
    if v.kind != "number" or not 0 < v.value < 1:
        raise Bad("a number strictly between 0 and 1")
    return float(v.value)


def _jk_base(v: Value):
    if v.kind != "number" or not v.value > 1:
        raise Bad("a number greater than 1")
    return v.value


def _beta(v: Value):
    if v.kind != "number" or v.value < 0:
        raise Bad("a number >= 0")
    return float(v.value)


DCG_CHOICES = ("log2", "exp-log2")


def _dcg(v: Value):
    if v.kind == "word" and v.value in DCG_CHOICES:
        raise Bad("a quoted string, 'log2' or 'exp-log2'")
    if v.kind != "str" or v.value not in DCG_CHOICES:
        raise Bad("'log2' or 'exp-log2'")
    return v.value


def _flag(v: Value):
    if v.kind != "bool":
        raise Bad("True or False")
    return v.value


REL = Param("rel", _whole(0, MAX_REL, f"a whole number from 0 to {MAX_REL}"),
            help="relevance level (default: -l)")
PERSISTENCE = Param("p", _persistence, default=0.8, in_name=True, help="persistence")
JK_BASE = Param("b", _jk_base, help="log base of the Jarvelin-Kekalainen discount")
BETA = Param("beta", _beta, default=1.0, help="weight of recall")
GMAX = Param("gmax", _whole(1, 60, "a whole number from 1 to 60"), default=4,
             help="largest grade")
DCG = Param("dcg", _dcg, default="log2", drop_default=True, help="gain form (ir_measures)")
JUDGED_ONLY = Param("judged_only", _flag, default=False, drop_default=True,
                    help="unjudged documents removed (ir_measures)")
RELATIVE = Param("relative", _flag, default=False, drop_default=True,
                 help="SetP(relative=True) is SetRelP (ir_measures)")
