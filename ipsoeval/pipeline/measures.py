"""``ipsoeval measures``: its declaration and the catalogue (or a data set's
relevance levels) as a Report (:func:`from_values`)."""

from __future__ import annotations

from ipsoeval.declare import Command, option, options
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP


@options
class Catalogue:
    """measures' own option."""

    dataset: str | None = option(
        "--dataset", metavar="ID", api=False,
        help="Instead: the relevance levels of the ir_datasets data set ID (its qrels are the "
             "QRELS argument irds:ID; needs ipsoeval[irds]).")


COMMAND = Command("measures", HELP["measures"],
                  groups=(Catalogue, output_group("tsv", digits=False)))   # no numbers to round


def from_values(v: dict):
    """The Report of a command line's parsed values ``v``: every measure
    family, or with --dataset the data set's relevance levels."""
    from ipsoeval.results import Report, ResultSet

    dataset = v["dataset"]
    if dataset is not None:
        from ipsoeval.reading import relevance_levels
        rs = ResultSet(command="measures", columns=["dataset", "label", "definition"],
                       records=relevance_levels(dataset),
                       title=f"relevance levels of {dataset}", id="relevance_levels",
                       description="the ir_datasets data set's documentation of its "
                                   "relevance labels, highest first")
        return Report("measures", [rs])
    from ipsoeval.measures.registry import CATALOGUE_COLUMNS, catalogue
    rs = ResultSet(command="measures", columns=list(CATALOGUE_COLUMNS), records=catalogue(),
                   title="ipsoeval measures", id="measures",
                   description="every measure family: canonical name, an example, scale, "
                               "parameters, trec_eval names and definition")
    return Report("measures", [rs])
