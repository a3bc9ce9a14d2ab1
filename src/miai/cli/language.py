"""The ``--lang`` option of the terminal's commands, and setting the language it chooses.

``miai play --lang es`` (or ``it``, ``pt``, ``en``) speaks that language; without the
option the environment's locale decides (:func:`miai.i18n.language_from_environment`:
``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. The option's value is
checked when the command line is read, so an unknown language is refused with exit code 2
and the list of languages. The help texts of a command are in the environment's language
(the option is not read yet when they are made).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from miai import i18n
from miai.cli import texts

__all__ = ["add_language_option", "help_texts", "language", "use_language"]


def language(text: str) -> str:
    """``--lang``: one of :data:`miai.i18n.LANGUAGES` (a locale name such as ``pt_PT`` too)."""
    lang = i18n.normalize_language(text)
    if lang is None:
        raise argparse.ArgumentTypeError(texts.unknown_language(text, i18n.LANGUAGES))
    return lang


def add_language_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument("--lang", type=language, default=None, metavar="|".join(i18n.LANGUAGES), help=help_text)


def help_texts(make: Callable[[], dict[str, str]]) -> dict[str, str]:
    """A command's help texts, made in the environment's language."""
    with i18n.using(i18n.choose_language(None)):
        return make()


def use_language(args: argparse.Namespace) -> str:
    """Set the process's language: ``--lang`` if given, else the environment's, else English."""
    lang = i18n.choose_language(getattr(args, "lang", None))
    i18n.set_language(lang)
    return lang
