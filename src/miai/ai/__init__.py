"""Computer players: :mod:`miai.ai.mcts` (Monte-Carlo tree search, :class:`~miai.ai.mcts.MctsPlayer`),
:mod:`miai.ai.config` (every search knob) and :mod:`miai.ai.status` (the dead-stone estimate).

The package itself imports nothing, so ``miai.ai.config`` can be read without the compiled
kernel; ``miai.ai.mcts`` and ``miai.ai.status`` load it."""
