"""Screenshots of the page for docs/screenshots, taken by the browser tests only when asked.

``MIAI_SCREENSHOTS=docs/screenshots python3 -m pytest tests/server/web`` writes them (README's
pictures come from there); an ordinary run writes nothing, so the suite never changes the
repository it tests.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SHOTS_ENV = "MIAI_SCREENSHOTS"


def shot(page: Any, name: str, **options: Any) -> None:
    """Save what ``page`` shows as ``NAME.png`` in the folder ``$MIAI_SCREENSHOTS``, if it is set."""
    folder = os.environ.get(SHOTS_ENV)
    if not folder:
        return
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path / f"{name}.png"), **options)
