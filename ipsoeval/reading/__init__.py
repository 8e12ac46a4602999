"""Reading inputs: runs, qrels, in-memory inputs and score files."""
