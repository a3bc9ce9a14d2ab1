"""The page's shell, its static files and its texts' catalogues (docs/SERVER.md §4)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from miai import __version__
from miai.server.web.pages import STATIC_DIR
from miai.server.web.texts import LANGUAGES, LOCALE_DIR
from tests.server.conftest import Table

GO_WORDS = {
    "es": {"Dead stones": "Piedras muertas", "Pass": "Pasar", "Resign": "Abandonar", "Black": "Negro", "White": "Blanco"},
    "it": {"Dead stones": "Pietre morte", "Pass": "Passa", "Resign": "Abbandona", "Black": "Nero", "White": "Bianco"},
    "pt": {"Dead stones": "Pedras mortas", "Undo": "Desfazer", "Pass": "Passar", "Resign": "Desistir", "Black": "Pretas", "White": "Brancas"},
}


def test_every_page_is_the_shell_with_the_application(client):
    game = Table(client, size=9)
    for path in ("/", f"/g/{game.id}", f"/r/{game.id}", "/review"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert '<script type="module" src="/static/app.js' in answer.text
        assert "<html lang=" in answer.text
    for name in ("app.js", "board.js", "game.js", "lobby.js", "review.js", "clock.js", "i18n.js", "api.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200, name
    assert client.get("/static/nope.js").status_code == 404


@pytest.mark.parametrize(
    ("headers", "cookies", "lang", "lobby", "game", "noscript"),
    [
        ({}, {}, "en", "miai · Play Go", "miai · 9×9 game", "miai needs JavaScript"),
        ({"Accept-Language": "fr-FR, es;q=0.8, en;q=0.5"}, {}, "es", "miai · Jugar al go", "miai · Partida 9×9", "miai necesita JavaScript"),
        ({"Accept-Language": "pt-BR,pt;q=0.9"}, {}, "pt-PT", "miai · Jogar go", "miai · Jogo 9×9", "O miai precisa de JavaScript"),
        ({"Accept-Language": "es"}, {"miai_lang": "it"}, "it", "miai · Gioca a go", "miai · Partita 9×9", "miai ha bisogno di JavaScript"),
    ],
)
def test_the_shell_is_in_the_pages_language_before_the_script_runs(client, headers, cookies, lang, lobby, game, noscript):
    """``<html lang>``, the tab title and the text for browsers without scripts: the language
    chosen on the page (its cookie), else the browser's ``Accept-Language``, else English."""
    table = Table(client, size=9)
    client.cookies.clear()
    for name, value in cookies.items():
        client.cookies.set(name, value)
    for path, title in (("/", lobby), (f"/g/{table.id}", game)):
        text = client.get(path, headers=headers).text
        assert f'<html lang="{lang}">' in text and f"<title>{title}</title>" in text, path
        assert f"<noscript>{noscript} " in text, path
    client.cookies.clear()


# A module's imports: `import ... from "x"` (and `export ... from`), `import "x"` and `import("x")`.
IMPORTS = re.compile(
    r'^\s*(?:import|export)\b[^;"]*\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)', re.MULTILINE
)


def test_every_module_comes_with_the_releases_version_through_the_shells_import_map(client):
    page = client.get("/").text
    suffix = f"?v={__version__}"
    assert f'<script type="module" src="/static/app.js{suffix}">' in page
    assert f'<link rel="stylesheet" href="/static/style.css{suffix}">' in page
    found = re.search(r'<script type="importmap">(.*?)</script>', page)
    assert found is not None and found.start() < page.index('<script type="module"'), "the map comes first"
    modules = sorted(path.name for path in Path(STATIC_DIR).glob("*.js"))
    assert json.loads(found.group(1)) == {"imports": {f"/static/{m}": f"/static/{m}{suffix}" for m in modules}}
    imported = set()
    for path in Path(STATIC_DIR).glob("*.js"):
        for match in IMPORTS.finditer(path.read_text()):
            name = next(group for group in match.groups() if group)
            # a plain "./x.js": the map gives it the version (with its own query it would not match)
            assert re.fullmatch(r"\./[\w-]+\.js", name), f"{path.name} imports {name!r}"
            assert name[2:] in modules, f"{path.name} imports {name!r}, which is not there"
            imported.add(name[2:])
    assert imported == set(modules) - {"app.js"}  # every module but the application is imported


@pytest.mark.parametrize("lang", ["es", "it", "pt"])
def test_a_catalogue_translates_the_go_words_as_players_write_them(client, lang):
    answer = client.get(f"/i18n/web/{lang}.json")
    assert answer.status_code == 200
    messages = answer.json()["messages"]
    for english, word in GO_WORDS[lang].items():
        assert messages[english] == word
    # plural forms come as a list under "singular\0plural"
    assert len(messages["{n} prisoner\x00{n} prisoners"]) == 2


def test_unknown_languages_are_404s_and_english_needs_no_catalogue(client):
    assert client.get("/i18n/web/en.json").json()["messages"] == {}
    assert client.get("/i18n/web/fr.json").status_code == 404
    assert client.get("/i18n/web/..%2Fx.json").status_code == 404


def _source_texts() -> set[str]:
    texts = set()
    for path in Path(STATIC_DIR).glob("*.js"):
        source = path.read_text()
        texts |= set(re.findall(r'\b_\("((?:[^"\\]|\\.)*)"', source))
        for one, many in re.findall(r'\bngettext\("((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"', source):
            texts |= {one, many}
    return texts


def test_the_template_holds_every_text_of_the_page_and_every_language_translates_them_all():
    template = read_po((LOCALE_DIR / "web.pot").open("rb"))
    ids = set()
    for m in template:
        if m.id:
            ids |= set(m.id) if isinstance(m.id, tuple) else {m.id}
    missing = _source_texts() - ids
    assert not missing, f"run pybabel extract (docs/SERVER.md §4.2): {sorted(missing)}"
    for lang in LANGUAGES:
        if lang == "en":
            continue
        catalog = read_po((LOCALE_DIR / lang / "LC_MESSAGES" / "web.po").open("rb"), locale=lang)
        for m in template:
            if not m.id:
                continue
            entry = catalog.get(m.id)
            assert entry is not None and not entry.fuzzy, f"{lang}: {m.id!r} is not translated"
            forms = entry.string if isinstance(entry.string, (tuple, list)) else [entry.string]
            assert all(forms), f"{lang}: {m.id!r} is not translated"
            # the placeholders are the English text's
            english = " ".join(m.id) if isinstance(m.id, tuple) else m.id
            assert set(re.findall(r"\{\w+\}", " ".join(forms))) <= set(re.findall(r"\{\w+\}", english)), (lang, m.id)
