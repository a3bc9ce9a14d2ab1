"""The translations (:mod:`miai.i18n`): the choice of a language, and the catalogues.

Every catalogue under ``src/miai/locale`` is checked, whatever its domain (the terminal's
``miai``, the web page's ``web``): complete (no untranslated or fuzzy entry), each
translation with the same placeholders as its msgid, and its compiled ``.mo`` saying the
same as the ``.po``. The terminal's template is checked against the source it is
extracted from, so a text added to :mod:`miai.cli.texts` without a catalogue entry fails.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from miai import i18n
from miai.errors import ArgumentError

ROOT = Path(__file__).resolve().parent.parent
LOCALE = Path(i18n.__file__).parent / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}")
"""A named ``str.format`` field (``{color}``, ``{winrate:.0%}``); ``{{`` is a literal brace."""


def read(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def entries(catalog):
    """(context, msgid, translation forms) for each message but the header."""
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        yield message, ids, strings


def label(path: Path) -> str:
    return str(path.relative_to(LOCALE))


@pytest.fixture(autouse=True)
def english_after():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


# ---------------------------------------------------------------------------- the language


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "pt_PT.UTF-8"}, "pt"),
        ({"LANG": "pt_BR.UTF-8"}, "pt"),  # the nearest catalogue
        ({"LC_MESSAGES": "it_IT", "LANG": "es_ES"}, "it"),
        ({"LC_ALL": "it_IT.UTF-8", "LC_MESSAGES": "es_ES", "LANG": "pt_PT"}, "it"),
        ({"LANGUAGE": "fr:pt:es", "LANG": "fr_FR.UTF-8"}, "pt"),  # the first one miai has
        ({"LANGUAGE": "es", "LANG": "C.UTF-8"}, None),  # LANGUAGE is ignored in the C locale
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, None),
        ({"LANG": "C"}, None),
        ({}, None),
    ],
)
def test_the_environment_names_the_language(environ, expected):
    assert i18n.language_from_environment(environ) == expected


def test_an_explicit_language_wins_else_the_environment_else_english():
    assert i18n.choose_language("it", {"LANG": "es_ES.UTF-8"}) == "it"
    assert i18n.choose_language("pt_PT", {}) == "pt"
    assert i18n.choose_language(None, {"LANG": "es_ES.UTF-8"}) == "es"
    assert i18n.choose_language(None, {"LANG": "de_DE.UTF-8"}) == "en"
    with pytest.raises(ArgumentError, match=r"'fr'.*en, es, it, pt"):
        i18n.choose_language("fr", {})
    with pytest.raises(i18n.UnknownLanguageError):
        i18n.translator("de")


@given(st.text(max_size=20))
def test_any_locale_name_gives_a_language_of_miai_or_none(name):
    assert i18n.normalize_language(name) in (*i18n.LANGUAGES, None)


def test_the_current_language_translates_and_using_restores_it():
    assert i18n.current_language() == "en"
    assert i18n.pgettext("player", "Black") == "Black"
    with i18n.using("it"):
        assert i18n.current_language() == "it"
        assert i18n.pgettext("player", "Black") == "Nero"
        assert i18n.ngettext("Read with {count} repair:", "Read with {count} repairs:", 3) == "Letto con {count} correzioni:"
        with i18n.using("pt"):
            assert i18n.pgettext("player", "White") == "Brancas"
        assert i18n.gettext("Draw.") == "Pareggio."
    assert i18n.current_language() == "en" and i18n.gettext("Draw.") == "Draw."


def test_each_language_has_its_catalogue_for_the_terminal():
    for lang in i18n.LANGUAGES:
        if lang != i18n.DEFAULT_LANGUAGE:
            assert (LOCALE / lang / "LC_MESSAGES" / "miai.po").is_file()
            assert isinstance(i18n.translator(lang), gettext.GNUTranslations)


# ---------------------------------------------------------------------------- the catalogues


def test_the_catalogues_are_found():
    assert {label(p) for p in CATALOGUES} >= {f"{lang}/LC_MESSAGES/miai.po" for lang in ("es", "it", "pt")}


@pytest.mark.parametrize("path", CATALOGUES, ids=label)
def test_every_entry_is_translated_and_none_is_fuzzy(path):
    catalog = read(path)
    assert catalog.language_team and not catalog.fuzzy
    untranslated = [ids[0] for message, ids, strings in entries(catalog) if not all(strings)]
    fuzzy = [ids[0] for message, ids, strings in entries(catalog) if message.fuzzy]
    assert untranslated == [] and fuzzy == []
    assert len(list(entries(catalog))) > 0


@pytest.mark.parametrize("path", CATALOGUES, ids=label)
def test_every_translation_has_the_placeholders_of_its_msgid(path):
    wrong = []
    for message, ids, strings in entries(read(path)):
        wanted = sorted(set(PLACEHOLDER.findall(ids[0])) | set().union(*(PLACEHOLDER.findall(i) for i in ids)))
        for form in strings:
            if sorted(set(PLACEHOLDER.findall(form))) != wanted:
                wrong.append((ids[0], form))
    assert wrong == []


def test_the_placeholder_check_sees_a_wrong_field():
    assert PLACEHOLDER.findall("{color} ({stone}) move {number}> ") == ["color", "stone", "number"]
    assert PLACEHOLDER.findall("{winrate:.0%} {{literal}}") == ["winrate"]
    assert set(PLACEHOLDER.findall("{colour} mueve")) != {"color"}


@pytest.mark.parametrize("path", CATALOGUES, ids=label)
def test_the_compiled_catalogue_says_what_the_po_says(path):
    """The ``.mo`` beside each ``.po`` is up to date: run ``pybabel compile`` after an edit."""
    mo = path.with_suffix(".mo")
    assert mo.is_file(), f"{mo.name} is missing: pybabel compile -D {path.stem} -d src/miai/locale"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    catalog = read(path)
    choose = gettext.c2py(catalog.plural_expr)
    samples = {}
    for n in range(200):
        samples.setdefault(choose(n), n)
    stale = []
    for message, ids, strings in entries(catalog):
        ctx = message.context
        if len(ids) == 1:
            got = compiled.pgettext(ctx, ids[0]) if ctx else compiled.gettext(ids[0])
            if got != strings[0]:
                stale.append(ids[0])
            continue
        for index, n in samples.items():
            if ctx:
                got = compiled.npgettext(ctx, ids[0], ids[1], n)
            else:
                got = compiled.ngettext(ids[0], ids[1], n)
            if got != strings[index]:
                stale.append(ids[0])
    assert stale == []


def test_the_terminals_template_and_catalogues_hold_every_text_of_the_source():
    """``pybabel extract`` run now finds exactly the template's messages, and each
    language's catalogue has those (``pybabel update`` after a change of the texts)."""
    extracted = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        str(ROOT / "src" / "miai" / "cli"), method_map=[("**.py", "python")]
    ):
        first = message[0] if isinstance(message, tuple) else message
        extracted.add((context, first))
    template = {(m.context, ids[0]) for m, ids, _ in entries(read(LOCALE / "miai.pot"))}
    assert extracted == template, "run the pybabel extract and update of docs/TRANSLATING.md"
    for lang in ("es", "it", "pt"):
        catalog = read(LOCALE / lang / "LC_MESSAGES" / "miai.po")
        assert {(m.context, ids[0]) for m, ids, _ in entries(catalog)} == template


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(i18n.LANGUAGES),
    st.decimals(min_value=-10_000, max_value=10_000, places=1, allow_nan=False, allow_infinity=False),
)
def test_a_number_is_written_as_the_language_does_and_read_back(lang, value):
    """What :func:`miai.i18n.format_number` writes, Babel reads back in the same language, to the
    same value (komi and scores have at most one decimal)."""
    from babel.numbers import parse_decimal

    with i18n.using(lang):
        text = i18n.format_number(float(value))
    assert parse_decimal(text, locale=i18n.NUMBER_LOCALES[lang]) == value
    if lang != "en":
        assert ("," in text) == (value != int(value))  # the decimal comma, and no other

