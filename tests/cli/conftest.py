"""The terminal's tests run in English, whatever the locale of the machine running them:
the environment's language variables are removed and the language set back to English
after each test (a test of another language sets it, or passes ``--lang``)."""

from __future__ import annotations

import pytest

from miai import i18n


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch):
    for variable in i18n.ENVIRONMENT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    i18n.set_language("en")
    yield
    i18n.set_language("en")
