"""Accounts on the page in a real browser: signing up with the refusals said in the page's
language, the account's language following it to another browser, signing out and in; and a
guest's seat moved to another device by its seat link."""

from __future__ import annotations

import re

import httpx
import pytest

expect = pytest.importorskip("playwright.sync_api").expect

PASSWORD = "correct horse battery"


def test_sign_up_in_and_out_with_the_accounts_language(server_url, new_context):
    page = new_context("it-IT").new_page()
    page.goto(server_url + "/")
    expect(page.locator("#me-name")).to_have_text(re.compile(r"\d{4}"))  # a guest plays without an account
    page.get_by_role("link", name="Registrati").click()
    expect(page.get_by_role("heading", name="Crea un account")).to_be_visible()
    page.get_by_label("Nome utente").fill("ab")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Crea l'account").click()
    expect(page.locator("#account-error")).to_have_text("Un nome utente deve avere da 3 a 24 caratteri.")
    page.get_by_label("Nome utente").fill("Giulia")
    page.get_by_label("Password").fill("baseball")
    page.get_by_role("button", name="Crea l'account").click()
    expect(page.locator("#account-error")).to_contain_text("una delle 10.000 più comuni")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Lingua della pagina").select_option("pt")
    page.get_by_role("button", name="Crea l'account").click()
    # back in the lobby, signed in, in the language the account chose
    expect(page.locator("#me-name")).to_have_text("Giulia")
    expect(page.locator("html")).to_have_attribute("lang", "pt-PT")
    expect(page.get_by_role("link", name="Os meus jogos")).to_be_visible()

    taken = new_context("en-US").new_page()
    taken.goto(server_url + "/signup")
    taken.get_by_label("Username").fill("giulia")
    taken.get_by_label("Password").fill(PASSWORD)
    taken.get_by_role("button", name="Create account").click()
    expect(taken.locator("#account-error")).to_have_text("This username is taken: choose another.")

    elsewhere = new_context("es-ES").new_page()  # another browser, in Spanish
    elsewhere.goto(server_url + "/signin")
    elsewhere.get_by_label("Nombre de usuario").fill("Giulia")
    elsewhere.get_by_label("Contraseña").fill("not the password")
    elsewhere.get_by_role("button", name="Entrar").click()
    expect(elsewhere.locator("#account-error")).to_have_text("Nombre de usuario o contraseña incorrectos.")
    elsewhere.get_by_label("Contraseña").fill(PASSWORD)
    elsewhere.get_by_role("button", name="Entrar").click()
    expect(elsewhere.locator("#me-name")).to_have_text("Giulia")
    expect(elsewhere.locator("html")).to_have_attribute("lang", "pt-PT")  # the account's language
    elsewhere.locator("#language").select_option("es")  # changed here, kept by the account
    expect(elsewhere.get_by_role("button", name="Salir")).to_be_visible()
    assert _me_language(server_url, "Giulia") == "es"

    page.get_by_role("button", name="Sair").click()
    expect(page.locator("#me-name")).to_have_text(re.compile(r"\d{4}"))  # a guest again
    expect(page.get_by_role("link", name="Entrar")).to_be_visible()


def _me_language(server_url: str, username: str) -> str | None:
    with httpx.Client(base_url=server_url) as client:
        answer = client.post("/api/session", json={"username": username, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        return answer.json()["language"]


def test_a_seat_link_moves_a_guests_seat_to_another_device(server_url, new_context):
    game = httpx.post(f"{server_url}/api/games", json={"size": 9}).json()
    laptop = new_context("es-ES").new_page()
    laptop.goto(f"{server_url}/g/{game['id']}?seat={game['black_token']}")
    expect(laptop.locator(".player.black .name")).to_contain_text("(tú)")
    laptop.get_by_text("Jugar desde otro dispositivo").click()
    expect(laptop.get_by_text("Quien tenga este enlace puede jugar en tu lugar")).to_be_visible()
    link = laptop.get_by_label("Enlace del puesto").input_value()
    assert re.fullmatch(rf"{re.escape(server_url)}/g/{game['id']}#seat=[\w%-]+", link)

    phone = new_context("en-US").new_page()  # another browser
    phone.goto(link)
    expect(phone.locator(".player.black .name")).to_contain_text("(you)")
    expect(phone).to_have_url(f"{server_url}/g/{game['id']}")  # the token left the address bar
    phone.locator('[data-vertex="E5"]').click()
    expect(laptop.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    state = httpx.get(f"{server_url}/api/games/{game['id']}").json()
    assert state["moves"] == ["E5"]
