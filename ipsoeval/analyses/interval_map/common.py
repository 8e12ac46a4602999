"""What every value-set module shares: the measure to map (:class:`MapSpec`),
the result (:class:`PhiResult`), the tie rules, the universe's size and the
memory budget (``--max-memory``).

Terms (Ferrante, Ferro & Fuhr 2021, §5): the universe U is every judged run
of length N (binary vectors, or G^N with G gain levels); a per-query cap K
keeps the runs with at most K relevant documents (the paper's S_{N,R}).
M(U) is the set of distinct values of the measure on U and
phi(m) = |{x in M(U) : x <= m}| ("unq").  The other tie rules rank m among
the |U| runs: ``min`` = 1 + #{runs < m}, ``max`` = #{runs <= m}, ``mid`` their
mean (the paper's Table 3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from ipsoeval.errors import UsageError

TIES = ("unq", "mid", "min", "max")
ENUM_LIMIT = 1 << 24          # largest universe enumerated run by run
DEFAULT_MAX_MEMORY = 2 << 30  # bytes a value-set computation may take (--max-memory)

Progress = Callable[[str, int, int], None] | None


def format_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} PiB"  # pragma: no cover


def parse_size(text: str) -> int:
    """``--max-memory`` text: bytes, or a number with K, M, G or T (powers of 1024)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.IGNORECASE)
    if not m:
        raise UsageError(f"--max-memory takes a size such as 4G, 512M or 1000000 (found {text!r})")
    n = float(m.group(1)) * 1024 ** " KMGT".index((m.group(2) or " ").upper())
    if not 1 <= n <= 1 << 60:
        raise UsageError(f"--max-memory must be between 1 byte and 1 EiB (found {text!r})")
    return int(n)


def check_budget(what: str, need: float, max_bytes: int | None) -> None:
    """UsageError when ``need`` bytes exceed the --max-memory budget."""
    limit = DEFAULT_MAX_MEMORY if max_bytes is None else max_bytes
    if need > limit:
        big = need >= 1 << 50
        raise UsageError(
            f"{what}: needs about {format_bytes(need)} of memory, more than the limit of "
            f"{format_bytes(limit)}; " + (
                "no machine can hold this: use a smaller cutoff or -N"
                if big else "raise the limit with --max-memory or use a smaller cutoff or -N"))


@dataclass(frozen=True)
class MapSpec:
    """What to map.  ``family`` is one of P, R, RR, Success, AP, DCG (JK form,
    base ``b``), nDCG (JK form, base ``b``), DCGtrec / nDCGtrec (1/log2(i+1)), RBP
    (persistence ``p``), or generic (``values_fn`` computes float values)."""

    family: str
    N: int
    b: int | None = None
    p: Fraction | None = None
    gains: tuple[Fraction, ...] = (Fraction(0), Fraction(1))  # gains[0] == 0
    name: str = ""
    values_fn: Callable | None = field(default=None, compare=False, hash=False)
    generic_depends_on_R: bool = True

    @property
    def binary(self) -> bool:
        return len(self.gains) == 2

    @property
    def depends_on_R(self) -> bool:
        if self.family == "generic":
            return self.generic_depends_on_R
        return self.family in ("R", "AP", "nDCG", "nDCGtrec")

    @property
    def gain_based(self) -> bool:
        return self.family in ("DCG", "nDCG", "DCGtrec", "nDCGtrec", "RBP")

    def key(self) -> str:
        g = ",".join(str(x) for x in self.gains)
        return f"{self.family}|N={self.N}|b={self.b}|p={self.p}|g={g}|{self.name if self.family == 'generic' else ''}"


@dataclass
class PhiResult:
    """Per query: ``phi`` (Python int, or Fraction for ``mid``), ``n_values``
    = |M(U)| for that query's universe, ``n_universe`` = |U|."""

    phi: list
    n_values: list[int]
    n_universe: list[int]


# --------------------------------------------------------------------------
# counting runs
# --------------------------------------------------------------------------

class BinomPrefix:
    """``cum[k] = sum_{j<k} C(N, j)`` computed on demand (only the entries
    asked for, incrementally), so closed forms stay fast at large N."""

    def __init__(self, N: int):
        self.N = N
        self._terms = [1]            # C(N, 0), C(N, 1), ...
        self._cum = [0, 1]           # cum[0], cum[1], ...

    def __getitem__(self, k: int) -> int:
        N = self.N
        if k >= N + 1:
            return 1 << N             # every subset
        while len(self._cum) <= k:
            j = len(self._terms)
            self._terms.append(self._terms[-1] * (N - j + 1) // j)
            self._cum.append(self._cum[-1] + self._terms[-1])
        return self._cum[k]


def universe_size(spec: MapSpec, K: int) -> int:
    """|U|: runs of length N, binary ones with at most K relevant documents."""
    if not spec.binary:
        return len(spec.gains) ** spec.N
    return BinomPrefix(spec.N)[min(K, spec.N) + 1]


def ties_rank(ties: str, less: int, eq: int):
    """Rank of a value with ``less`` runs below it and ``eq`` runs at it."""
    if ties == "min":
        return less + 1
    if ties == "max":
        return less + eq
    return Fraction(2 * less + eq + 1, 2)      # mid: mean of less+1 .. less+eq

