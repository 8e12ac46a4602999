"""Reading inputs into the model: the one door for runs, qrels, in-memory inputs
and score files.

Entries
-------
Outside this package, code reads through

- ``ipsoeval.reading`` (this module; :mod:`~ipsoeval.reading.entry`) for runs
  and qrels, from files or from dicts/DataFrames: :func:`read_qrels`,
  :func:`read_run`, :func:`read_for_alignment`, :func:`qrels_from`,
  :func:`run_from`, :func:`relevance_levels` (an ir_datasets data set's
  label documentation), and the run-argument helpers (:func:`expand_run_paths`,
  :func:`file_stem`, :func:`check_stdin_once`);
- :mod:`ipsoeval.reading.scores` for per-topic score files:
  :func:`read_scores` (also re-exported here) into a ``TopicScores``;
- ``predictors`` (:mod:`ipsoeval.reading.predictors`) for query performance
  predictor files: :func:`~ipsoeval.reading.predictors.read_predictors` into
  ``Predictors``;
- ``nuggets`` (:mod:`ipsoeval.reading.nuggets`) for nugget assignment files of
  generated answers: :func:`~ipsoeval.reading.nuggets.read_nuggets` into a
  ``NuggetJudgments``;
- :mod:`ipsoeval.reading.quick` for the console script's quick paths only (eval's, and
  sigtest's through :func:`~ipsoeval.reading.quick.topic_scores`);
- :mod:`ipsoeval.reading.core` for the compiled extension itself (its
  version check and ``IPSOEVAL_CORE``), which the randomised Tukey HSD of
  :mod:`ipsoeval.stats.randhsd` uses too.

Two consumers share lower pieces besides: :mod:`ipsoeval.align` (the one
place after reading where ids exist) uses :mod:`~ipsoeval.reading.words` and
the alignment half of :mod:`~ipsoeval.reading.compiled`; trec_eval's other
input modes (``ipsoeval/trecmodes/``) parse their tables with
:mod:`~ipsoeval.reading.python` and :mod:`~ipsoeval.reading.opening`.
Readers produce the model (:mod:`ipsoeval.model`) and import nothing above
it: no alignment, engine, analyses or CLI.

Which path is taken when, and why
---------------------------------
1. ``ipsoeval eval [--format trec] QRELS RUN...`` from the console script
   (:mod:`ipsoeval._quick`, its arguments read with eval's declaration):
   :func:`ipsoeval.reading.quick.quick_eval` hands
   the paths to ``_core.eval_official``, which reads, aligns and scores in C
   and prints trec_eval's lines, with neither numpy nor click imported (the
   most common call then costs less than ``import numpy``), and the full
   program's tie warning (:mod:`ipsoeval.tiewarn_text`) when a tie group
   holds two different labels.  With ``-m`` (measures the core serves,
   :mod:`~ipsoeval.reading.provider`, named as
   :mod:`~ipsoeval.reading.quick_measures` reads them), ``-q``, ``-M`` or
   ``--format tsv``: ``_core.eval_measures`` reads, aligns and scores, and
   the quick path lays the values out.  Any other option or name, compressed
   or unusual input, another warning or an error: it declines, nothing
   printed, and the full program runs (path 2).
2. Runs and qrels files in the full program and the API (``engine.load``,
   ``api.load_inputs``): :func:`read_qrels`, then per run
   :func:`read_for_alignment`, several runs side by side in threads.

   a. The compiled core (:mod:`~ipsoeval.reading.compiled`) when it is
      built and enabled: a plain file is mapped (:func:`opening.probe`,
      parsed in place), a compressed one inflated in blocks (ISA-L for gzip,
      in a second thread: :func:`opening.inflated_blocks`).  A run whose
      topics each occupy one block of lines is read *and aligned* in one
      pass (``stream_run``: no per-line arrays, a large plain file cut at
      topic boundaries into parts read in parallel); otherwise -- also when
      an id is not UTF-8, so that the one warning names its line
      (:mod:`ipsoeval.ids`) -- it is read into a Run (``compiled.read_run``)
      and aligned by ``align.align`` (``compiled.align_run`` in C, else
      numpy; under ``--tie-break expected`` numpy, and ``stream_run``
      declines).  Every path records each rank's tie flag (``Aligned.tied``:
      the C ``align_topic`` writes one byte per rank beside its label).  The C pass accepts
      only input it is sure about and returns None for anything else.
   b. The reference Python reader (:mod:`~ipsoeval.reading.python`) on the
      same bytes (:func:`opening.iter_blocks`, the standard library's
      decompressors): whenever the C pass declined, for stdin (read once),
      for ids over ``words.LONG_ID`` bytes, for qrels with real labels
      (``--labels gain|probability``), and for everything under
      ``IPSOEVAL_CORE=python`` or without a C compiler.  It alone holds the
      error semantics (``FILE:LINE: what is wrong``), so they exist once;
      tests compare both paths on random bytes.
   c. Two inputs that are not text files take their own readers, chosen
      by :func:`read_qrels` / :func:`read_run` / :func:`read_for_alignment`
      before any of the above: a QRELS argument ``irds:DATASET_ID``
      (:mod:`~ipsoeval.reading.irds`: ir_datasets' ``qrels_iter()``, the
      optional extra ``ipsoeval[irds]``), and a run or qrels file whose
      first bytes are Parquet's or Arrow IPC's
      (:func:`opening.table_kind`; :mod:`~ipsoeval.reading.arrow`, pyarrow,
      ``ipsoeval[arrow]``, columns by name).  A run table to be aligned is
      read *and aligned* in one pass like a text file
      (``arrow.stream_run``): a Parquet file row group by row group (read,
      not mapped; topic ids and tag as dictionaries), an Arrow IPC file's
      or stream's record batches zero-copy from its mapping (an IPC file
      of the plain layout -- uncompressed, flat, no dictionaries -- by
      :mod:`~ipsoeval.reading.ipcfile`'s own parser, without importing
      pyarrow); each batch's
      Arrow buffers -- dictionary indices and the dictionary's id words,
      string/binary (also large) offsets and bytes, or int64 ids written in
      decimal; float64 scores -- go to the compiled core
      (``compiled.stream_columns`` → ``_core.stream_columns``), which fills
      the same row buffer ``stream_feed`` parses text into, so topics split
      across batches, the ranking, cut and duplicate check are the text
      path's (no id matrices, no pandas).  It declines (a null, an id that
      is empty, holds a blank or is not UTF-8, a topic in two blocks of
      rows, a type it does not take, an unreadable file, no compiled core),
      and then -- and for qrels tables and ``read_run`` -- the table is read
      whole (``arrow.read_run``/``read_qrels``: ids into (n, W) words, the
      error semantics ``FILE:ROW: what``).  Both build the same
      Qrels/Run/Streamed; the quick path (1) declines them from their
      first bytes (the C pass cannot open them).
3. In-memory qrels and runs (API: ``{qid: {docno: value}}`` dicts, pandas
   DataFrames): :mod:`~ipsoeval.reading.memory` builds the same Qrels/Run,
   id columns encoded by the compiled core when every value is a valid id
   (``compiled.id_words``/``int_words``), else in Python (which names the
   bad row); alignment is then exactly the files'.
4. Score files (``--scores``, ``ipsoeval.read_scores``):
   :mod:`~ipsoeval.reading.scores` reads each file whole
   (:func:`opening.read_bytes`) and parses it in Python (small files; four
   formats, detected from the content).  The analyses on scores are
   :mod:`ipsoeval.analyses.scores`.
5. Small side files (queries files, ``-R`` modes' tables, z-score files)
   use :func:`opening.read_bytes` / :func:`opening.iter_blocks` and
   :func:`grammar.display_name` directly.

Modules, lower first (each imports only modules above it in this list)
-------------------------------------------------------------------------
``core``      the compiled extension ``ipsoeval._core``, version-checked (no numpy)
``grammar``   the input grammar, run arguments, format sniffing (no numpy)
``words``     ids as (n, W) uint64 words; long ids by prefix and serial
``opening``   opening, decompressing, mapping and inflating into blocks (no numpy)
``python``    the reference Python reader (numpy tokeniser; all error messages)
``compiled``  the dispatch to the compiled core (read, encode, align, stream)
``memory``    dicts and DataFrames → the model
``ipcfile``   an Arrow IPC file's footer and record batches parsed over its mapping (no pyarrow)
``arrow``     Parquet / Arrow IPC tables → the model, or a run streamed (pyarrow, optional)
``irds``      ``irds:DATASET_ID`` qrels through ir_datasets (optional)
``entry``     the entry for runs and qrels: which reader, when
``scores``    the entry for score files
``nuggets``   the entry for nugget assignment files of generated answers
``predictors`` the entry for query performance predictor files (``ipsoeval qpp``)
``manifest``  ``ipsoeval across`` manifests: collection, qrels and run of each line (paths only)
``provider``  the compiled core as a provider of measures: serves or says why not
``quick_measures`` the ``-m`` names the quick path serves, from the registry (no numpy, ``re``)
``quick``     the console script's quick path (``core`` only; no numpy)

``tests/project/test_reading_layout.py`` checks the order (no import cycle) and that
``core``, ``grammar``, ``opening``, ``provider``, ``quick_measures`` and
``quick`` load without numpy.
"""

from ipsoeval._lazy import lazy_attributes

__all__ = ["read_qrels", "read_subtopic_qrels", "read_run", "read_for_alignment", "qrels_from", "run_from",
           "is_dataframe", "split_runs", "check_stdin_once", "expand_run_paths", "file_stem",
           "display_name", "read_bytes", "QID_COLUMNS", "read_scores", "TopicScores",
           "relevance_levels"]

_FROM_SCORES = ("read_scores", "TopicScores")


# imported on first use: ``ipsoeval.reading.quick`` must load without numpy
__getattr__, __dir__ = lazy_attributes(globals(), ((_FROM_SCORES, "ipsoeval.reading.scores"),
                                                   (__all__, "ipsoeval.reading.entry")))
del lazy_attributes
