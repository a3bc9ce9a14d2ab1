"""Work off the event loop: the worker processes and what they compute (the computer's actions, the
dead-stone estimate, the analysis of a position)."""
