"""Cases for columnar input: the eval-msmarco run (~7M rows) as Parquet with
string ids, as Parquet with integer ids and as an uncompressed Arrow IPC file
(Feather v2), each next to ipsoeval on the plain text file in the same run
(targets, on CPU time: <= 1.3x, <= 1.0x and <= 0.8x the text path;
Parquet with string ids also peaks under 300 MB)."""

from harness import Case, Context, Target, Tool, ipsoeval_cmd, need_module

MEASURES = ["-m", "RR@10", "-m", "nDCG@10", "-m", "AP"]
COLUMNS = ["qid", "docno", "rank", "score", "tag"]


def _table(ctx: Context, integer_ids: bool):
    """The text run as a pyarrow Table (qid, docno, rank, score, tag, as
    PyTerrier writes a result frame); ids as int64 or as strings."""
    import pyarrow as pa
    import pyarrow.csv as csv
    ids = pa.int64() if integer_ids else pa.string()
    names = ["qid", "Q0", "docno", "rank", "score", "tag"]
    types = {"qid": ids, "Q0": pa.string(), "docno": ids, "rank": pa.int64(),
             "score": pa.float64(), "tag": pa.string()}
    table = csv.read_csv(ctx.data / "run.txt",
                         read_options=csv.ReadOptions(column_names=names),
                         parse_options=csv.ParseOptions(delimiter=" "),
                         convert_options=csv.ConvertOptions(column_types=types))
    return table.select(COLUMNS)


def _written(ctx: Context, name: str, write) -> str:
    """ctx.data/name, written once by write(path) (through a temporary name)."""
    path = ctx.data / name
    if not path.exists():
        tmp = path.with_name(path.name + ".tmp")
        write(tmp)
        tmp.rename(path)
    return str(path)


def _parquet(ctx: Context, integer_ids: bool) -> list[str]:
    """The run as Parquet, pyarrow's defaults (dictionary pages, snappy)."""
    import pyarrow.parquet as pq
    name = "run-int.parquet" if integer_ids else "run.parquet"
    return [str(ctx.data / "qrels.txt"),
            _written(ctx, name, lambda p: pq.write_table(_table(ctx, integer_ids), p))]


def _arrow(ctx: Context) -> list[str]:
    """The run as an uncompressed Arrow IPC file (Feather v2), string ids."""
    import pyarrow.feather as feather
    return [str(ctx.data / "qrels.txt"),
            _written(ctx, "run.arrow", lambda p: feather.write_feather(
                _table(ctx, False), p, compression="uncompressed"))]


def _text(ctx: Context) -> list[str]:
    return [str(ctx.data / "qrels.txt"), str(ctx.data / "run.txt")]


def _case(name: str, what: str, files, ratio: float, peak: float | None = None) -> Case:
    targets = [Target(f"cpu <= {ratio:g} x ipsoeval on the text file", peer="ipsoeval-text",
                      max_ratio=ratio, cpu=True)]
    if peak is not None:
        targets.append(Target(f"peak <= {peak:g} MB", max_peak_mb=peak))
    return Case(
        name=name,
        description=(f"The eval-msmarco run (~7M rows; RR@10, nDCG@10, AP) as {what}, "
                     f"next to ipsoeval on the plain text file (CPU time, whole process)."),
        data="msmarco",
        tools={
            "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MEASURES, *files(ctx)],
                             need_module("pyarrow")),
            "ipsoeval-text": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MEASURES, *_text(ctx)]),
        },
        targets=targets,
    )


CASES = [
    _case("columnar-parquet-str", "Parquet with string ids (snappy, dictionary pages)",
          lambda ctx: _parquet(ctx, False), 1.3, peak=300),
    _case("columnar-parquet-int", "Parquet with int64 ids (snappy)",
          lambda ctx: _parquet(ctx, True), 1.0),
    _case("columnar-arrow", "an uncompressed Arrow IPC file (Feather v2), string ids",
          _arrow, 0.8),
]
