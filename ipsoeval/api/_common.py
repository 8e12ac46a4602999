"""The API's shared helpers live with the pipeline (:mod:`ipsoeval.pipeline.common`)."""

from ipsoeval.pipeline.common import *  # noqa: F401,F403
from ipsoeval.pipeline.common import (  # noqa: F401
    InputWarning,
    _baseline,
    _common,
    _gains_text,
    _is_path,
    _names,
    _report,
    _requested,
    _run_items,
    _score_set,
    _value,
    _warn,
    load_inputs,
)
