"""Learning the engine's data files (``ai/data/*.npz``) from game records: the records read in
bulk (:mod:`miai.learn.corpus`) and a reading of many games split between processes
(:mod:`miai.learn.slices`). It joins :mod:`miai.sgf` (the records) and :mod:`miai.ai` (what is
learnt), which know nothing of each other; ``miai learn`` is its command."""
