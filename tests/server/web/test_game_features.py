"""The game page's other features in a real browser: undo by request and answer, chat, the
confirm-move option on a touch screen, and the clocks as people read them (never negative)."""

from __future__ import annotations

import re

import httpx
import pytest

expect = pytest.importorskip("playwright.sync_api").expect


def _game(server_url: str, **settings: object) -> tuple[str, dict[str, str]]:
    game = httpx.post(f"{server_url}/api/games", json={"size": 9, **settings}).json()
    return game["id"], {"black": game["black_token"], "white": game["white_token"]}


def test_undo_is_asked_and_answered_and_chat_reaches_the_other_player(server_url, new_context):
    game_id, tokens = _game(server_url)
    black = new_context("en-US").new_page()
    white = new_context("es-ES").new_page()
    black.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    white.goto(f"{server_url}/g/{game_id}?seat={tokens['white']}")
    expect(black.locator(".player.black .name")).to_contain_text("(you)")
    expect(white.locator(".player.white .name")).to_contain_text("(tú)")
    black.locator('[data-vertex="C3"]').click()
    expect(white.locator('[data-vertex="C3"]')).to_have_attribute("data-stone", "black")
    black.get_by_role("button", name="Undo").click()
    expect(white.get_by_text("Negro pide deshacer una jugada.")).to_be_visible()
    expect(black.get_by_text("Undo requested: waiting for the answer.")).to_be_visible()
    white.get_by_role("button", name="Permitir deshacer").click()
    for page in (black, white):
        expect(page.locator('[data-vertex="C3"]')).not_to_have_attribute("data-stone", "black")
    expect(black.locator("#status")).to_contain_text("Your move")
    # chat
    white.get_by_text("Chat").click()
    black.get_by_text("Chat").click()
    white.get_by_label("Mensaje de chat").fill("¡Suerte!")
    white.get_by_role("button", name="Enviar").click()
    # each line with its time and the speaker's name (a guest's here), not a colour
    expect(black.locator(".chat-log li")).to_have_text(re.compile(r"^\d\d:\d\d( [AP]M)? Guest \d+ ¡Suerte!$"))
    # a spectator reads the chat but has no form to write in it: spectators watch
    watcher = new_context("pt-PT").new_page()
    watcher.goto(f"{server_url}/g/{game_id}")
    watcher.locator(".chat summary").click()
    expect(watcher.locator(".chat-log")).to_contain_text("¡Suerte!")
    expect(watcher.locator(".chat-form")).to_be_hidden()
    expect(black.locator(".chat-form")).to_be_visible()


def test_a_redraw_that_changes_no_button_keeps_the_focus_on_it(server_url, new_context):
    """Each frame redraws the page; a button whose markup it leaves alone stays the same element,
    so the keyboard's focus (and a click half made when the frame came) stays on it."""
    game_id, tokens = _game(server_url)
    black = new_context("en-US").new_page()
    black.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    expect(black.locator(".player.white .presence")).to_have_text("away")
    black.get_by_role("button", name="Estimate score").focus()
    white = new_context("en-US").new_page()
    white.goto(f"{server_url}/g/{game_id}?seat={tokens['white']}")
    expect(black.locator(".player.white .presence")).to_have_text("connected")  # a frame redrew the page
    expect(black.get_by_role("button", name="Estimate score")).to_be_focused()
    black.get_by_role("button", name="Resign").focus()
    white.close()
    expect(black.locator(".player.white .presence")).to_have_text("away")
    expect(black.get_by_role("button", name="Resign")).to_be_focused()
    black.locator('[data-vertex="E5"]').click()  # a move changes the buttons: Pass is now disabled
    expect(black.get_by_role("button", name="Pass")).to_be_disabled()
    expect(black.locator("#controls button")).to_have_count(3)

def test_on_a_touch_screen_a_move_is_confirmed_before_it_is_sent(server_url, new_context):
    game_id, tokens = _game(server_url)
    phone = new_context("it-IT", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    expect(phone.locator(".player.black .name")).to_contain_text("(tu)")
    expect(phone.locator("#confirm-move")).to_be_checked()
    phone.locator('[data-vertex="E5"]').tap()
    expect(phone.locator('[data-vertex="E5"]')).to_have_attribute("aria-label", re.compile("non ancora confermata"))
    assert httpx.get(f"{server_url}/api/games/{game_id}").json()["moves"] == []  # nothing sent yet
    phone.get_by_role("button", name="Gioca E5").tap()
    expect(phone.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    assert httpx.get(f"{server_url}/api/games/{game_id}").json()["moves"] == ["E5"]


def test_clocks_read_without_doubt_and_never_go_below_zero(server_url, new_context):
    page = new_context("en-US").new_page()
    page.goto(server_url + "/")
    shown = page.evaluate(
        """async () => {
          const c = await import('/static/clock.js');
          const view = (control, side, left, stones, ticking) => ({
            control, ticking, paused: false, flagged: null,
            black: side, white: side,
            time_left: {black: {ms: left, stones}, white: {ms: left, stones}},
          });
          const byo = view('byoyomi:300:30:3', {main_ms: 300000, periods: 3}, 300000, 3, 'black');
          const over = view('byoyomi:300:30:3', {main_ms: 0, periods: 2}, 30000, 2, 'black');
          const abs = view('absolute:600', {main_ms: 5000}, 5000, 0, 'black');
          const canadian = view('canadian:600:300:25', {main_ms: 0}, 271000, 12, 'black');
          return {
            describe: [c.describeControl('byoyomi:300:30:3'), c.describeControl('fischer:300:5'),
                       c.describeControl('canadian:600:300:25'), c.describeControl('none')],
            start: c.sideClock(byo, 'black', 0),
            waiting: c.sideClock(byo, 'white', 99999),
            intoPeriods: c.sideClock(byo, 'black', 300000 + 35000),
            lastSeconds: c.sideClock(over, 'black', 30000 + 25500),
            late: c.sideClock(abs, 'black', 60000),
            canadian: c.sideClock(canadian, 'black', 0),
          };
        }"""
    )
    assert shown["describe"] == ["5:00 + 3×30 s", "5:00, +5 s a move", "10:00 + 25 stones in 5:00", "No clock"]
    assert shown["start"]["main"] == "5:00" and shown["start"]["sub"] == "+ 3×30 s"
    assert shown["start"]["spoken"] == "5:00 + 3 periods of 30 s" and shown["start"]["low"] is False
    assert shown["waiting"]["main"] == "5:00"  # the side not to move does not count down
    # byo-yomi as players read it: the period's time, then periods left × their length
    assert shown["intoPeriods"]["main"] == "0:25" and shown["intoPeriods"]["sub"] == "(2×30 s)"
    assert shown["intoPeriods"]["spoken"] == "0:25, 2 periods of 30 s left" and shown["intoPeriods"]["low"] is False
    assert shown["lastSeconds"]["main"] == "0:05" and shown["lastSeconds"]["sub"] == "(1×30 s)"
    assert shown["lastSeconds"]["low"] is True and shown["lastSeconds"]["lastPeriod"] is True
    assert shown["late"]["main"] == "0:00" and shown["late"]["low"] is True
    # Canadian overtime: the time left for the stones left
    assert shown["canadian"]["main"] == "4:31" and shown["canadian"]["sub"] == "(12 stones)"
    assert shown["canadian"]["spoken"] == "4:31, 12 stones to play" and shown["canadian"]["low"] is False


def test_a_timed_game_shows_both_clocks_and_the_control(server_url, new_context):
    game_id, tokens = _game(server_url, time="byoyomi:300:30:3")
    page = new_context("es-ES").new_page()
    page.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    expect(page.locator(".control")).to_contain_text("Reloj: 5:00 + 3×30 s")
    expect(page.locator(".player.black .clock")).to_have_text("5:00")
    expect(page.locator(".player.white .clock-sub")).to_have_text("+ 3×30 s")
    expect(page.locator(".player.white .clock")).to_have_attribute("aria-label", "Blanco: 5:00 + 3 periodos de 30 s")


def test_resigning_asks_first_and_both_pages_show_the_result(server_url, new_context):
    game_id, tokens = _game(server_url)
    black = new_context("pt-PT").new_page()
    white = new_context("it-IT").new_page()
    black.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    white.goto(f"{server_url}/g/{game_id}?seat={tokens['white']}")
    expect(black.locator(".player.black .name")).to_contain_text("(você)")
    black.get_by_role("button", name="Desistir").click()
    black.get_by_role("dialog").get_by_role("button", name="Cancelar").click()
    expect(black.get_by_role("dialog")).to_be_hidden()
    assert httpx.get(f"{server_url}/api/games/{game_id}").json()["phase"] == "play"
    black.get_by_role("button", name="Desistir").click()
    black.get_by_role("dialog").get_by_role("button", name="Desistir").click()
    expect(black.locator("#status")).to_contain_text("Jogo terminado: as Brancas ganham por desistência")
    expect(white.locator("#status")).to_contain_text("Partita finita: il Bianco vince per abbandono")
    assert httpx.get(f"{server_url}/api/games/{game_id}").json()["result"] == "W+R"


def test_the_board_is_played_from_the_keyboard(server_url, new_context):
    game_id, tokens = _game(server_url)
    page = new_context("en-US").new_page()
    page.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    expect(page.locator(".player.black .name")).to_contain_text("(you)")
    page.locator('[data-vertex="E5"]').focus()  # the board's one tab stop: the centre
    for key in ("ArrowLeft", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
    expect(page.locator('[data-vertex="C6"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator('[data-vertex="C6"]')).to_have_attribute("data-stone", "black")
    expect(page.locator('[data-vertex="C6"]')).to_have_attribute("aria-label", "C6, black stone, last move")


def test_a_refusal_resumes_play_and_both_pages_show_the_compensable_areas(server_url, new_context):
    """docs/RULES.md §5.5 and §5.8: White refuses Black's counter-proposal with the page's
    button; play resumes, both pages mark the points where a stone would be compensated, and
    the count that ends the resumed play shows the compensation on both pages."""
    game_id, tokens = _game(server_url, rules="japanese")

    def act(seat: str, action: str, **body: object) -> None:
        v = httpx.get(f"{server_url}/api/games/{game_id}").json()["v"]
        answer = httpx.post(
            f"{server_url}/api/games/{game_id}/{action}",
            json={**body, "v": v},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.text

    moves = "E1 A9 E2 pass E3 pass E4 pass E5 pass E6 pass E7 pass E8 pass E9 pass pass".split()
    for n, move in enumerate(moves):
        act("black" if n % 2 == 0 else "white", "play", move=move)
    act("white", "dead", dead=[])
    act("black", "dead", dead=["A9"])  # Black says White's stone is dead: White disagrees
    white = new_context("en-US").new_page()
    black = new_context("es-ES").new_page()
    white.goto(f"{server_url}/g/{game_id}?seat={tokens['white']}")
    black.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    expect(white.locator(".player.white .name")).to_contain_text("(you)")
    white.get_by_role("button", name="Resume play").click()
    for page in (white, black):
        expect(page.locator("[data-compensable]").first).to_be_attached()
    state = httpx.get(f"{server_url}/api/games/{game_id}").json()
    assert state["phase"] == "play" and state["compensable"]
    marked = {
        color: sorted(black.locator(f'[data-compensable="{color}"]').evaluate_all("els => els.map(e => e.dataset.vertex)"))
        for color in ("black", "white")
    }
    assert marked == {color: sorted(points) for color, points in state["compensable"].items()}
    vertex = (state["compensable"]["black"] or state["compensable"]["white"])[0]
    label = black.locator(f'[data-vertex="{vertex}"]').get_attribute("aria-label")
    assert label is not None and "área compensable" in label
    # the dispute played out: Black plays inside its compensable area, both pass, White
    # concedes its stone, Black accepts on the page; the stone at B8 is compensated
    assert "B8" in state["compensable"]["black"]
    act("white", "play", move="pass")
    # the click counts only once Black's page knows White passed (a busy machine was slower)
    expect(black.locator(".player.black")).to_have_class(re.compile(r"\bto-move\b"))
    black.locator('[data-vertex="B8"]').click()
    expect(white.locator('[data-vertex="B8"]')).to_have_attribute("data-stone", "black")
    act("white", "play", move="pass")
    act("black", "play", move="pass")
    act("white", "dead", dead=["A9"])
    black.get_by_role("button", name="Aceptar", exact=True).click()
    # the breakdown is shown from the proposal on: the status line says when the count is final
    expect(black.locator("#status")).to_contain_text("Partida terminada")
    expect(white.locator("#status")).to_contain_text("Game over")
    for page, word in ((black, "Compensación"), (white, "Compensation")):
        row = page.locator('#breakdown [data-row="compensation"]')
        expect(row).to_contain_text(word)
        expect(row.locator("td").first).to_have_text("1")  # Black's, for the stone at B8
    assert httpx.get(f"{server_url}/api/games/{game_id}").json()["score"]["black"]["compensation"] == 1


def test_a_clock_running_low_is_announced_once_and_the_players_own_last_seconds_beep(server_url, new_context):
    page = new_context("it-IT").new_page()
    page.goto(server_url + "/")
    said = page.evaluate(
        """async () => {
          const { ClockWatch } = await import('/static/clockwatch.js');
          const { sideClock } = await import('/static/clock.js');
          const heard = { beeps: 0, said: [] };
          const watch = new ClockWatch({ beep: () => { heard.beeps += 1; } }, (t) => heard.said.push(t));
          const view = { control: 'absolute:60', ticking: 'white', paused: false, flagged: null,
                         black: { main_ms: 60000 }, white: { main_ms: 60000 },
                         time_left: { black: { ms: 60000, stones: 0 }, white: { ms: 40000, stones: 0 } } };
          const s = { phase: 'play', clocks: view };
          for (const elapsed of [0, 9000, 11000, 12000, 31000, 31500, 32100, 33000]) {
            const shown = { black: sideClock(view, 'black', elapsed), white: sideClock(view, 'white', elapsed) };
            watch.update(shown, s, 'white');
          }
          const asBlack = new ClockWatch({ beep: () => { heard.beeps += 100; } }, () => {});
          asBlack.update({ black: sideClock(view, 'black', 35000), white: sideClock(view, 'white', 35000) }, s, 'black');
          return heard;
        }"""
    )
    # White's 40 s run under 30 s at 11 s: said once (in Italian); its last 10 s beep once a second;
    # the opponent's clock never beeps for Black
    assert len(said["said"]) == 1 and "Bianco" in said["said"][0] and "restano meno di 30 secondi" in said["said"][0]
    assert said["beeps"] == 3  # 31 s (9 s left), 32.1 s (8), 33 s (7); 31.5 s is the same second
