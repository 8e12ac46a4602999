"""trec_eval's other input modes and output options: ``-R prefs``,
``-R qrels_prefs``, ``-R qrels_jg`` (with the prefs_* and *_avgjg measures),
``-Z`` z scores, and the topic rules of ``--trec-eval-version``."""
