"""The language miai speaks to people: gettext catalogues and the choice of a language.

miai's texts are written in English in the code and translated through gettext catalogues
made with Babel (docs/TRANSLATING.md): ``src/miai/locale/{lang}/LC_MESSAGES/{domain}.po``,
compiled to the ``.mo`` files shipped beside them. The domain ``miai`` holds the terminal's
sentences (:mod:`miai.cli.texts`); the web page has its own domain, ``web``.

The languages are those of the source documents miai is built from, and English:

>>> LANGUAGES
('en', 'es', 'it', 'pt')
>>> language_from_environment({"LANG": "pt_BR.UTF-8"})
'pt'
>>> language_from_environment({"LANGUAGE": "fr:it", "LANG": "es_ES.UTF-8"})
'it'
>>> language_from_environment({"LANG": "C.UTF-8"}) is None
True

One language is current for the process (:func:`set_language`, English until set);
:func:`gettext`, :func:`ngettext`, :func:`pgettext` and :func:`npgettext` translate into
it, and :func:`format_number` and :func:`format_percent` write numbers as it does (Babel's
CLDR data: ``15,5`` and ``50 %`` in Spanish). This module is part of the core and knows
nothing of the terminal or the server: the terminal chooses the language (``--lang``, else :func:`language_from_environment`) and
sets it; the rules, the records and the GTP engine never call it (they speak English, the
protocol's language).
"""

from __future__ import annotations

import copy
import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.numbers import NumberPattern

from miai.errors import ArgumentError

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_DIR",
    "UnknownLanguageError",
    "choose_language",
    "current_language",
    "format_number",
    "format_percent",
    "gettext",
    "language_from_environment",
    "ngettext",
    "normalize_language",
    "npgettext",
    "pgettext",
    "set_language",
    "translator",
    "using",
]

LANGUAGES = ("en", "es", "it", "pt")
"""The languages miai speaks: English (the code's) and the three it has catalogues for."""

DEFAULT_LANGUAGE = "en"

NUMBER_LOCALES = {"en": "en", "es": "es", "it": "it", "pt": "pt_PT"}
"""The CLDR locale whose numbers each language writes (European Portuguese for ``pt``)."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""Where the catalogues are: ``{lang}/LC_MESSAGES/{domain}.po`` and ``.mo``."""

ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where a language is looked for, in GNU gettext's order of precedence."""


class UnknownLanguageError(ArgumentError):
    """A language miai has no catalogue for; the message lists those it has."""


def normalize_language(tag: str) -> str | None:
    """The language of miai that a locale name or language tag asks for, or None.

    ``pt_PT.UTF-8``, ``pt-BR`` and ``PT`` are all ``pt`` (Brazilian Portuguese reads the
    European catalogue as the nearest); ``C`` and ``POSIX`` ask for no language.

    >>> [normalize_language(t) for t in ("es_ES.UTF-8", "it", "pt-BR", "en_GB@euro", "C", "fr_FR")]
    ['es', 'it', 'pt', 'en', None, None]
    """
    base = tag.strip().split(".", 1)[0].split("@", 1)[0]
    lang = base.replace("-", "_").split("_", 1)[0].lower()
    return lang if lang in LANGUAGES else None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for, or None if it names none miai has.

    The first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides, as
    for gettext; ``LANGUAGE`` may list several (``fr:it``): the first one miai has wins.
    ``LANGUAGE`` is ignored when the locale is ``C`` (as GNU gettext does).
    """
    env = os.environ if environ is None else environ
    locale = next((env[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(v)), "")
    names = []
    c_locale = locale.split(".", 1)[0] in ("C", "POSIX")
    if env.get("LANGUAGE") and not c_locale:
        names += env["LANGUAGE"].split(":")
    if locale:
        names.append(locale)
    for name in names:
        lang = normalize_language(name)
        if lang is not None:
            return lang
    return None


def choose_language(requested: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``requested`` (a ``--lang`` value) if given, else the environment's, else English.

    Raises :class:`UnknownLanguageError` for a requested language miai does not have.
    """
    if requested is not None:
        lang = normalize_language(requested)
        if lang is None:
            raise UnknownLanguageError(
                f"no translation for language {requested!r}; the languages are: {', '.join(LANGUAGES)}"
            )
        return lang
    return language_from_environment(environ) or DEFAULT_LANGUAGE


@lru_cache(maxsize=None)
def translator(lang: str, domain: str = "miai") -> _gettext.NullTranslations:
    """The translations of ``domain`` into ``lang`` (English: the texts as they are).

    Raises :class:`UnknownLanguageError` for a language miai does not have, and
    ``FileNotFoundError`` if its compiled catalogue is missing (a broken install).
    """
    if lang not in LANGUAGES:
        raise UnknownLanguageError(f"no translation for language {lang!r}; the languages are: {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(domain, localedir=str(LOCALE_DIR), languages=[lang])


_current: list[_gettext.NullTranslations] = [_gettext.NullTranslations()]
_current_lang: list[str] = [DEFAULT_LANGUAGE]


def set_language(lang: str) -> None:
    """Make ``lang`` the language of :func:`gettext` and its kin for the whole process."""
    _current[0] = translator(lang)
    _current_lang[0] = lang


def current_language() -> str:
    return _current_lang[0]


@contextmanager
def using(lang: str) -> Iterator[None]:
    """``lang`` as the current language inside a ``with`` block, then the one before."""
    before = current_language()
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return _current[0].gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form, as the current language counts ``n``."""
    return _current[0].ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, in a context that tells apart words English
    spells alike (``pass`` the command and ``pass`` the move)."""
    return _current[0].pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _current[0].npgettext(context, singular, plural, n)


def _pattern(kind: str, low: int, high: int) -> tuple[NumberPattern, Locale]:
    """The current language's CLDR pattern of ``kind`` (decimal, percent) with ``low`` to
    ``high`` decimals."""
    locale = Locale.parse(NUMBER_LOCALES[current_language()])
    formats = locale.decimal_formats if kind == "decimal" else locale.percent_formats
    pattern = copy.copy(formats[None])
    pattern.frac_prec = (low, high)
    return pattern, locale


def format_number(value: float, digits: int | None = None) -> str:
    """``value`` as the current language writes it: up to 1 decimal (``15,5`` in Spanish,
    ``6`` for 6.0), or exactly ``digits`` of them.

    >>> with using("it"):
    ...     format_number(6.5), format_number(7), format_number(12345.25, 2)
    ('6,5', '7', '12.345,25')
    """
    pattern, locale = _pattern("decimal", digits or 0, 1 if digits is None else digits)
    return pattern.apply(value, locale)


def format_percent(rate: float, digits: int = 0) -> str:
    """A rate from 0 to 1 as a percentage in the current language: ``54 %`` in Spanish (a
    no-break space), ``54%`` in English.

    >>> with using("es"):
    ...     format_percent(0.537), format_percent(0.537, 1)
    ('54\xa0%', '53,7\xa0%')
    """
    pattern, locale = _pattern("percent", digits, digits)
    return pattern.apply(rate, locale)
