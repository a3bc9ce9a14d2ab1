"""The game table and the lobby as a Go player uses them, in a real browser (issue 40): the rules,
komi and handicap on both pages, the komi chosen at creation and the handicap explained, a
computer seat named by its level, the coordinates clear of the edge stones, the move number and
list (an earlier position shown read-only), sounds with a mute switch the browser remembers,
byo-yomi read as players read it with its low-time warning, the server's errors in the page's
language, and a phone-sized page. Screenshots go to docs/screenshots when asked (shots.py)."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.server.web.shots import shot

expect = pytest.importorskip("playwright.sync_api").expect


COUNT_TONES = """
  window.__tones = 0;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() { window.__tones += 1; return super.createOscillator(); }
  };
"""
"""A page's script that counts the tones the page starts (the sounds are made with Web Audio)."""


def _play(url: str, game: dict, moves: list[tuple[str, str]]) -> int:
    v = 0
    for color, move in moves:
        answer = httpx.post(f"{url}/api/games/{game['id']}/play", json={"move": move, "v": v},
                            headers={"Authorization": f"Bearer {game[f'{color}_token']}"})
        assert answer.status_code == 200, (move, answer.text)
        v = answer.json()["v"]
    return v


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("es-ES", "es"), ("it-IT", "it"), ("pt-PT", "pt")])
def test_the_lobby_shows_the_terms_chooses_the_komi_and_explains_the_handicap(server_url, new_context, locale, lang):
    computer = httpx.post(f"{server_url}/api/games", json={"size": 9, "rules": "japanese", "white": "computer:5"}).json()
    _play(server_url, computer, [("black", "E5")])  # a live game: at least one event
    page = new_context(locale).new_page()
    page.goto(server_url + "/")
    words = {
        "en": ("miai level 5", "Japanese rules · komi 6.5", "0.5", "Chinese rules give White one point per handicap stone.", "."),
        "es": ("miai nivel 5", "Reglas japonesas · komi 6,5", "0,5", "Las reglas chinas dan a Blanco un punto por cada piedra de hándicap.", ","),
        "it": ("miai livello 5", "Regole giapponesi · komi 6,5", "0,5", "Le regole cinesi danno al Bianco un punto per ogni pietra di handicap.", ","),
        "pt": ("miai nível 5", "Regras japonesas · komi 6,5", "0,5", "As regras chinesas dão às Brancas um ponto por cada pedra de handicap.", ","),
    }[lang]
    point = words[4]  # the komi as the language writes it
    listed = page.locator("#live-games li", has_text=words[0]).first
    expect(listed).to_contain_text(words[1])
    expect(page.locator("#live-games")).not_to_contain_text("…")
    komi = page.locator("#f-komi")
    expect(komi).to_have_value(f"6{point}5")  # the rules' usual komi
    page.locator("#f-rules").select_option("chinese")
    expect(komi).to_have_value(f"7{point}5")
    page.locator("#f-handicap").select_option("2")
    expect(komi).to_have_value(f"0{point}5")  # with a handicap, half a point
    note = page.locator("#handicap-note")
    expect(note).to_contain_text(words[3])
    expect(note).to_contain_text(words[2])
    shot(page, f"lobby-{lang}", full_page=True)
    if lang != "es":
        return
    page.locator("#f-rules").select_option("aga")
    expect(note).to_contain_text("(N−1)")
    page.locator("#f-rules").select_option("japanese")
    expect(note).to_contain_text("Estas reglas no dan a Blanco puntos por las piedras de hándicap.")
    komi.fill("2000")  # beyond the rules' limit: said in the page's language, nothing created
    page.get_by_role("button", name="Invitar a un amigo").click()
    assert komi.evaluate("e => e.validationMessage") == "El komi es un número de -1000 a 1000, como 6,5."
    expect(page.locator("#invite-link")).to_have_count(0)
    komi.fill("3,5")  # a komi typed stays whatever the rules
    page.locator("#f-handicap").select_option("0")
    expect(komi).to_have_value("3,5")
    expect(note).to_have_text("Sin hándicap: Negro juega primero.")
    page.locator("#f-handicap").select_option("3")
    page.get_by_role("button", name="Jugar contra la máquina").click()
    expect(page.locator("#terms")).to_contain_text("Reglas japonesas · komi 3,5 · hándicap 3")
    expect(page.locator(".player.white .name")).to_contain_text("miai nivel 1")


def _coordinates_clear(page) -> bool:
    """No coordinate's box meets a stone's (the labels have their own margin)."""
    return page.evaluate(
        """() => {
          const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const labels = [...document.querySelectorAll('svg.board .coords text')].map((t) => t.getBoundingClientRect());
          const stones = [...document.querySelectorAll('svg.board .stone')].map((s) => s.getBoundingClientRect());
          return stones.length > 0 && labels.every((l) => stones.every((s) => !meet(l, s)));
        }"""
    )


def test_a_19x19_game_page_has_clear_coordinates_a_move_list_and_sounds(server_url, new_context):
    game = httpx.post(f"{server_url}/api/games", json={"size": 19, "rules": "chinese", "handicap": 2, "komi": 0.5}).json()
    edge = [("white", "A1"), ("black", "T19"), ("white", "A19"), ("black", "T1"), ("white", "K1"), ("black", "A10"),
            ("white", "B10"), ("black", "T10"), ("white", "K19"), ("black", "A9")]
    _play(server_url, game, edge)
    context = new_context("en-US")
    context.add_init_script(COUNT_TONES)
    page = context.new_page()
    page.goto(f"{server_url}/g/{game['id']}?seat={game['white_token']}")
    expect(page.locator(".player.white .name")).to_contain_text("(you)")
    expect(page.locator("#terms")).to_contain_text("Chinese rules · komi 0.5 · handicap 2")
    assert _coordinates_clear(page)
    expect(page.locator("#move-number")).to_have_text("Move 10")
    expect(page.get_by_role("listbox", name="Moves").get_by_role("option")).to_have_count(10)
    shot(page, "play-19x19-en")

    # an earlier position, read-only, then back to the game
    page.get_by_role("option", name="2 T19").click()
    expect(page.locator("#move-number")).to_have_text("Move 2 of 10")
    expect(page.locator("#announcer")).to_contain_text("position after move 2")
    expect(page.locator('[data-vertex="A1"]')).to_have_attribute("data-stone", "white")
    expect(page.locator('[data-vertex="T1"]')).not_to_have_attribute("data-stone", "black")
    page.locator('[data-vertex="C3"]').click()  # read-only: nothing is sent
    assert httpx.get(f"{server_url}/api/games/{game['id']}").json()["moves"][-1] == "A9"
    page.get_by_role("option", name="2 T19").press("ArrowRight")  # the list's arrows move along it
    expect(page.locator("#move-number")).to_have_text("Move 3 of 10")
    page.get_by_role("button", name="Back to the game").click()
    expect(page.locator("#move-number")).to_have_text("Move 10")
    expect(page.locator('[data-vertex="T1"]')).to_have_attribute("data-stone", "black")

    # sounds: a stone placed makes a sound, none once muted, and the switch is remembered
    tones = page.evaluate("window.__tones")
    page.locator('[data-vertex="J10"]').click()
    expect(page.locator('[data-vertex="J10"]')).to_have_attribute("data-stone", "white")
    page.wait_for_function(f"window.__tones > {tones}")
    page.get_by_label("Sound").uncheck()
    tones = page.evaluate("window.__tones")
    _play_one(server_url, game, "black", "H10")
    expect(page.locator('[data-vertex="H10"]')).to_have_attribute("data-stone", "black")
    assert page.evaluate("window.__tones") == tones
    page.reload()
    expect(page.get_by_label("Sound")).not_to_be_checked()


def _play_one(url: str, game: dict, color: str, move: str) -> None:
    v = httpx.get(f"{url}/api/games/{game['id']}").json()["v"]
    answer = httpx.post(f"{url}/api/games/{game['id']}/play", json={"move": move, "v": v},
                        headers={"Authorization": f"Bearer {game[f'{color}_token']}"})
    assert answer.status_code == 200, answer.text


def test_byo_yomi_reads_as_players_read_it_and_warns_in_the_last_period(server_url, new_context):
    game = httpx.post(f"{server_url}/api/games", json={"size": 9, "time": "byoyomi:1:10:2"}).json()
    context = new_context("es-ES")
    context.add_init_script(COUNT_TONES)
    page = context.new_page()
    page.goto(f"{server_url}/g/{game['id']}?seat={game['black_token']}")
    expect(page.locator(".player.black .name")).to_contain_text("(tú)")
    page.locator('[data-vertex="E5"]').click()  # a gesture: the page may sound from now on
    expect(page.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    _play_one(server_url, game, "white", "C3")
    clock, sub = page.locator(".player.black .clock"), page.locator(".player.black .clock-sub")
    expect(sub).to_have_text("(2×10 s)", timeout=5_000)  # the main second is gone: the periods
    expect(clock).to_have_text(re.compile(r"^0:0\d$"), timeout=10_000)
    expect(clock).to_have_attribute("aria-label", re.compile(r"Negro: 0:0\d, quedan 2 periodos de 10 s"))
    shot(page, "play-byoyomi-es")
    tones = page.evaluate("window.__tones")
    expect(sub).to_have_text("(1×10 s)", timeout=15_000)
    assert page.evaluate("window.__tones") > tones  # the last seconds of the period beeped
    expect(clock).to_have_class(re.compile(r"\blow\b"))
    expect(page.locator("#announcer")).to_contain_text("último periodo de byo-yomi")
    page.locator('[data-vertex="G7"]').click()
    expect(page.locator('[data-vertex="G7"]')).to_have_attribute("data-stone", "black")
    expect(sub).to_have_text("(1×10 s)")  # a move in the last period keeps it


def test_the_servers_errors_are_shown_in_the_pages_language(server_url, new_context):
    page = new_context("pt-PT").new_page()
    page.goto(server_url + "/")
    expect(page.get_by_role("heading", name="Jogar go")).to_be_visible()
    texts = page.evaluate(
        """async () => {
          const r = await import('/static/refusals.js');
          return [
            r.errorText({status: 503, error: 'unavailable', starting: true, message: 'the computer is still starting'}),
            r.errorText({status: 503, error: 'unavailable', message: 'no worker could analyse the position'}),
            r.errorText({status: 429, error: 'rate-limited', limit: 'chat', retry_after: 3, message: 'too many chat lines'}),
            r.errorText({status: 422, error: 'illegal', reason: 'undo-limit', limit: 3, message: 'at most 3'}),
            r.errorText({status: 418, error: 'teapot', message: 'I am a teapot'}),
          ];
        }"""
    )
    assert texts == [
        "O computador ainda se está a preparar (depois de instalado prepara-se uma vez, o que pode demorar alguns minutos): tente de novo daqui a um minuto.",
        "O servidor está ocupado ou a reiniciar: tente de novo daqui a pouco.",
        "Está a enviar mensagens depressa demais. Tente de novo daqui a 3 segundos.",
        "Já não pode pedir para desfazer esta jogada: no máximo 3 vezes.",
        "Algo correu mal.",
    ]
    # a real refusal: joining a game whose seat is taken
    game = httpx.post(f"{server_url}/api/games", json={"size": 9}).json()
    answer = page.evaluate(f"""async () => {{
        const api = await import('/static/api.js');
        try {{ await api.api('POST', '/api/games/{game['id']}/join', {{ body: {{}} }}); }} catch (e) {{ return e.message; }}
    }}""")
    assert answer == "Alguém entrou primeiro."


def test_on_a_phone_the_table_fits(server_url, new_context):
    game = httpx.post(f"{server_url}/api/games", json={"size": 13, "rules": "japanese", "time": "canadian:600:300:25"}).json()
    _play(server_url, game, [("black", "D4"), ("white", "K10"), ("black", "C11"), ("white", "pass")])
    phone = new_context("pt-PT", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{server_url}/g/{game['id']}?seat={game['black_token']}")
    expect(phone.locator(".player.black .name")).to_contain_text("(você)")
    expect(phone.locator("#terms")).to_contain_text("Regras japonesas · komi 6,5")
    expect(phone.locator("#move-number")).to_have_text("Jogada 4")
    expect(phone.locator('#move-list [data-move="4"]')).to_contain_text("passe")
    expect(phone.locator(".player.black .clock-sub")).to_contain_text("25")  # Canadian: then 25 stones in 5:00
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing runs off the side
    assert _coordinates_clear(phone)
    shot(phone, "play-phone-pt", full_page=True)
