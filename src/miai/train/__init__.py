"""Learning the engine's data files (``ai/data/*.npz``) from game records: the records read in
bulk (:mod:`miai.train.corpus`) and a reading of many games split between processes
(:mod:`miai.train.slices`). It joins :mod:`miai.sgf` (the records) and :mod:`miai.ai` (what is
learnt), which know nothing of each other; ``miai train`` is its command."""
