"""The on-disk cache of the interval map: ranks already computed.

Where: ``$IPSOEVAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/ipsoeval``, else
``~/.cache/ipsoeval``; under it ``interval-map/v{CACHE_VERSION}/``.

What: no value set (AP's at N = 30 would take 3.6 GB) but its answers: for a
measure and N, phi of every (value key, cap K) asked for so far, and |M(U)|
for every cap K counted so far.  A rerun on the same runs, ``--plot``'s
second pass or ``sigtest --scale interval`` after ``interval-map`` make no
pass over the value set; a new value costs one pass, whose answers are then
added.  A cache is one small ``.npz`` file per measure and N (18 bytes per
answer), replaced atomically; an unreadable one is ignored and rewritten.
Directories of older cache versions are removed when a new one is written.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import numpy as np

from ipsoeval.writing import mkstemp

CACHE_VERSION = 2
MAX_ENTRIES = 4_000_000      # answers kept per file (72 MB); beyond it, the last call's only


def cache_root() -> Path:
    env = os.environ.get("IPSOEVAL_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "ipsoeval"


def cache_path(key: str) -> Path:
    h = hashlib.sha256(f"v{CACHE_VERSION}|{key}".encode()).hexdigest()[:24]
    return cache_root() / "interval-map" / f"v{CACHE_VERSION}" / f"{h}.npz"


_MEMORY: dict[str, "RankMemo"] = {}     # this process's answers, with or without disk


class RankMemo:
    """phi by (key, K) and |M(U)| by K for one measure and N."""

    def __init__(self, key: str):
        self.key = key
        self.keys = np.zeros(0, np.int64)      # sorted by (key, cap)
        self.caps = np.zeros(0, np.int64)
        self.phi = np.zeros(0, np.int64)
        self.n_values: dict[int, int] = {}

    @classmethod
    def open(cls, key: str, use_disk: bool) -> "RankMemo":
        memo = _MEMORY.get(key)
        if memo is None:
            memo = _MEMORY[key] = cls(key)
        if use_disk:
            memo._merge_disk()
        return memo

    def _merge_disk(self) -> None:
        path = cache_path(self.key)
        try:
            with np.load(path) as z:
                if str(z["key"]) != self.key:
                    return
                keys, caps, phi = z["keys"], z["caps"], z["phi"]
                nv = dict(zip(z["nv_caps"].tolist(), z["nv"].tolist()))
        except Exception:   # noqa: BLE001 -- any unreadable entry is a miss
            # an entry cut short (a full disk leaves 0 bytes) raises EOFError,
            # random bytes BadZipFile or ValueError: recomputed and rewritten
            return
        self._add(keys.astype(np.int64), caps.astype(np.int64), phi.astype(np.int64), nv)

    def _add(self, keys, caps, phi, n_values: dict) -> None:
        k = np.concatenate([self.keys, keys])
        c = np.concatenate([self.caps, caps])
        p = np.concatenate([self.phi, phi])
        o = np.lexsort((c, k))
        k, c, p = k[o], c[o], p[o]
        keep = np.ones(len(k), bool)
        keep[1:] = (k[1:] != k[:-1]) | (c[1:] != c[:-1])
        self.keys, self.caps, self.phi = k[keep], c[keep], p[keep]
        self.n_values.update(n_values)

    def lookup(self, keys: np.ndarray, caps: np.ndarray) -> np.ndarray:
        """phi of each (key, cap), -1 where not known."""
        out = np.full(len(keys), -1, np.int64)
        if not len(self.keys) or not len(keys):
            return out
        pos = _find(self.keys, self.caps, np.asarray(keys, np.int64), np.asarray(caps, np.int64))
        hit = pos >= 0
        out[hit] = self.phi[pos[hit]]
        return out

    def add(self, keys, caps, phi, n_values: dict, use_disk: bool, warnings: list) -> None:
        new = (np.asarray(keys, np.int64), np.asarray(caps, np.int64), np.asarray(phi, np.int64))
        self._add(*new, n_values)
        if use_disk:
            self._merge_disk()               # another process may have added answers
        if len(self.keys) > MAX_ENTRIES:     # keep this call's answers only
            self.keys = self.caps = self.phi = np.zeros(0, np.int64)
            self._add(*new, {})
        if use_disk:
            self._save(warnings)

    def _save(self, warnings: list) -> None:
        path = cache_path(self.key)
        tmp = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = mkstemp(".write-", str(path.parent), ".npz")
            with os.fdopen(fd, "wb") as f:
                np.savez(f, key=np.array(self.key), keys=self.keys, caps=self.caps,
                         phi=self.phi, nv_caps=np.array(sorted(self.n_values), np.int64),
                         nv=np.array([self.n_values[k] for k in sorted(self.n_values)], np.int64))
                f.flush()
                os.fsync(f.fileno())        # whole on disk before it takes the name
            os.replace(tmp, path)
        except OSError as e:
            if tmp is not None and os.path.exists(tmp):
                os.unlink(tmp)
            msg = f"cannot write the interval-map cache ({e}); continuing without it"
            if msg not in warnings:
                warnings.append(msg)
            return
        _remove_old_versions(path.parent.parent)


def _find(keys: np.ndarray, caps: np.ndarray, qk: np.ndarray, qc: np.ndarray) -> np.ndarray:
    """Index of each (qk, qc) in the (keys, caps) table sorted by key then cap; -1 if absent."""
    lo = np.searchsorted(keys, qk, "left")
    hi = np.searchsorted(keys, qk, "right")
    out = np.full(len(qk), -1, np.int64)
    for i in np.flatnonzero(hi > lo).tolist():
        j = lo[i] + int(np.searchsorted(caps[lo[i]:hi[i]], qc[i]))
        if j < hi[i] and caps[j] == qc[i]:
            out[i] = j
    return out


def _remove_old_versions(root: Path) -> None:
    """Older cache formats (v1 held AP's whole value set: 3.6 GB at N = 30)."""
    try:
        for d in root.iterdir():
            if d.is_dir() and re.fullmatch(r"v\d+", d.name) and d.name != f"v{CACHE_VERSION}":
                shutil.rmtree(d, ignore_errors=True)
    except OSError:
        pass
