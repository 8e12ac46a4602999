"""ipsoeval.pipeline.measures: the catalogue as a Report, declared once."""

from ipsoeval.pipeline import measures as pipeline
from tests.conftest import invoke


def test_the_catalogue_is_the_commands_output():
    rep = pipeline.from_values({"dataset": None})
    code, out, _ = invoke(["measures", "--format", "tsv"])
    assert code == 0
    assert len(out.splitlines()) == len(rep.table("measures").records) + 1
    assert [o.dest for o in pipeline.COMMAND.opts()] == ["dataset", "fmt", "output", "table",
                                                         "warnings_mode"]
