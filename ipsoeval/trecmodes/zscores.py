"""``-Z zscores_file``: trec_eval's z-score normalisation of per-topic values.

The file has lines ``qid measure mean stddev``.  Each per-topic value v of a
measure printed as NAME becomes (v - mean) / stddev with the (qid, NAME)
entry; the 'all' line then aggregates the z scores with the measure's usual
rule (mean; sum for counts such as num_ret; geometric mean, floored at
0.00001, for gm_map).  As in trec_eval 10.0:

* a (qid, NAME) absent from the file gives -1000000 (also every measure of a
  topic absent from the file);
* stddev 0 gives 0 when v equals the mean, else -1000000;
* names are printed with a ``Z`` prefix and every number with 4 decimals;
  runid, relstring and num_q (a count of topics) are not transformed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ipsoeval.ids import decode_id
from ipsoeval.trecmodes.common import MISSING_ZSCORE, Column, parse_table


@dataclass
class ZScores:
    path: str
    table: dict[tuple[str, str], tuple[float, float]]   # (qid, measure) -> (mean, sd)
    topics: set[str]

    def z(self, qid: str, name: str, v: float) -> float:
        if qid not in self.topics:
            return MISSING_ZSCORE
        ent = self.table.get((qid, name))
        if ent is None:
            return MISSING_ZSCORE
        mean, sd = ent
        if sd:
            return (v - mean) / sd
        return 0.0 if v == mean else MISSING_ZSCORE

    def transform(self, col: Column, topics: list[str]) -> Column:
        if col.kind == "text" or col.agg == "count":
            return col
        key = col.zkey or col.label
        vals = np.array([self.z(q, key, float(v)) for q, v in zip(topics, col.values)],
                        dtype=np.float64)
        return replace(col, values=vals)


def read_zscores(path: str) -> ZScores:
    spec = {0: "words", 1: "words", 2: "float", 3: "float"}
    fields, line = parse_table(path, spec, 4, "4 fields (qid measure mean stddev)",
                               "zscores", "mean/stddev")
    from ipsoeval.reading import display_name
    from ipsoeval.trecmodes.common import as_bytes
    q = [decode_id(b) for b in as_bytes(fields[0])]
    m = [decode_id(b) for b in as_bytes(fields[1])]
    table = {}
    for qid, meas, mean, sd in zip(q, m, fields[2].tolist(), fields[3].tolist()):
        table.setdefault((qid, meas), (mean, sd))
    return ZScores(display_name(path), table, set(q))
