"""Computer players: :class:`~miai.ai.mcts.MctsPlayer` (Monte-Carlo tree search).

Imported lazily so that ``import miai.ai`` does not load the compiled kernel."""

from __future__ import annotations

from typing import Any

__all__ = ["Decision", "MctsConfig", "MctsPlayer"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from miai.ai import mcts

        return getattr(mcts, name)
    raise AttributeError(f"module 'miai.ai' has no attribute {name!r}")
