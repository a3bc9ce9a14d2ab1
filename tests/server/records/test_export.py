"""The SGF export (GET /api/games/{id}/sgf, miai.server.records.export): what OGS and KGS records hold
(RE as the game's Result, TB/TW with the dead stones, KM, RU, HA/AB, DT, PC), names and clocks
only when the caller has them, and a record our strict-enough reader takes back without a
single repair."""

from __future__ import annotations

import time

from miai import Game, Rules
from miai.clock import TimeControl, TimeLeft
from miai.coords import Color, point_from_gtp
from miai.server.records.export import SERVER_NAME, game_sgf
from miai.server.wire.forms import score_json, vertices
from miai.sgf import load_game, read_record
from tests.server.conftest import Table, make_client
from tests.server.test_api import dead_white_stone_table

FF4_ROOT = {"FF", "CA", "GM", "AP", "SZ", "KM", "RU", "HA", "AB", "PB", "PW", "DT", "PC", "RE"}


def export(table: Table) -> str:
    answer = table.client.get(f"{table.url}/sgf")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-go-sgf")
    assert f'filename="miai-{table.id}.sgf"' in answer.headers["content-disposition"]
    return answer.text


def read_back(text: str):
    """The record read by miai's reader from the bytes a client saves: no repair needed."""
    game, record = load_game(text.encode("utf-8"))
    assert record.repairs == [], record.repairs
    assert set(record.root.properties) <= FF4_ROOT, set(record.root.properties) - FF4_ROOT
    return game, record


def counted(client) -> Table:
    table = dead_white_stone_table(client)
    table.moves("pass")
    assert table.send("white", "dead", dead=[]).status_code == 200
    assert table.send("black", "dead", dead=["A9"]).status_code == 200
    assert table.send("white", "accept").status_code == 200
    return table


def today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


def test_a_counted_game_reads_back_with_its_result_and_dead_stones(client):
    before = today()
    table = counted(client)
    state = table.state()
    text = export(table)
    game, record = read_back(text)
    root = record.root
    assert root.get("RE") == state["result"] == str(game.result)
    assert game.final_score is not None
    assert vertices(game.final_score.dead_stones) == state["score"]["dead"] == ["A9"]
    assert score_json(game.final_score) == state["score"]
    assert [m.point for m in game.moves] == [point_from_gtp(v, 9) for v in state["moves"]]
    assert (root.get("SZ"), root.get("KM"), root.get("RU"), root.get("FF"), root.get("GM")) == ("9", "6.5", "Japanese", "4", "1")
    assert root.get("PC") == SERVER_NAME and root.get("CA") == "UTF-8"
    assert root.get("DT") in {before, today()}  # the UTC date the game was created
    # the names are the seats' display names: the creating session's guest name on Black
    # (both seats are played through one client here, so White is named by the same session)
    players = state["players"]
    assert players["black"] and players["black"].startswith("Guest ")
    assert (root.get("PB"), root.get("PW")) == (players["black"], players["white"])
    last = record.main_line[-1]
    assert "aa" in last.properties["TB"]  # White's dead stone at A9, marked for Black


def test_a_resigned_handicap_game_has_ha_ab_and_re(client):
    table = Table(client, size=9, handicap=3, rules="japanese komi=0.5")
    table.moves("E5 D4")
    assert table.send("black", "resign").status_code == 200
    game, record = read_back(export(table))
    expected = Game(9, Rules.parse("japanese komi=0.5"), handicap=3)
    assert record.root.get("HA") == "3" and sorted(record.setup_stones[0]) == sorted(expected.handicap_points)
    assert record.root.get("KM") == "0.5"
    assert record.root.get("RE") == "W+R" == table.state()["result"] == str(game.result)
    assert [m.color for m in game.moves] == [Color.WHITE, Color.BLACK]


def test_a_game_in_play_has_no_result(client):
    table = Table(client, size=9)
    table.moves("E5 D4 pass")
    game, record = read_back(export(table))
    assert "RE" not in record.root and game.result is None
    assert record.root.get("RU") == "Chinese" and record.root.get("KM") == "7.5"


def test_a_dispute_then_an_immediate_double_pass_reads_back_as_counted(client):
    table = dead_white_stone_table(client)
    table.moves("pass")
    table.send("white", "dead", dead=[])
    table.send("black", "dead", dead=["A9"])
    assert table.send("white", "refuse").status_code == 200
    table.moves("pass pass")
    state = table.state()
    assert state["phase"] == "finished"
    game, record = read_back(export(table))
    assert record.root.get("RE") == state["result"] == str(game.result)


# ---------------------------------------------------------------------- the export function
def played(size: int = 9) -> Game:
    game = Game(size, Rules.preset("japanese"))
    for move in "E5 C3 D3 pass C4".split():
        game.play(move)
    return game


def test_player_names_are_written_only_when_given():
    game = played()
    text = game_sgf(game, created_ms=0, players={Color.BLACK: "Ann", Color.WHITE: "白"})
    record = read_record(text)
    assert (record.black, record.white, record.date) == ("Ann", "白", "1970-01-01")
    only_black = read_record(game_sgf(game, created_ms=0, players={Color.BLACK: "Ann"}))
    assert only_black.black == "Ann" and "PW" not in only_black.root
    assert record.repairs == [] and only_black.repairs == []


def test_per_move_clocks_go_on_their_moves():
    game = played()
    control = TimeControl.parse("byoyomi:60:30:5")
    times = {1: TimeLeft(59_500), 2: TimeLeft(30_000, 3), 4: TimeLeft(1_234)}
    record = read_record(game_sgf(game, created_ms=0, time_control=control, times=times))
    assert record.root.get("TM") == "60" and record.root.get("OT") == "5x30 byo-yomi"
    moves = [node for node in record.main_line if node.move is not None]
    assert len(moves) == 5
    assert moves[0].properties.get("BL") == ["59.5"] and "OB" not in moves[0]  # still in main time
    assert moves[1].properties.get("WL") == ["30"] and moves[1].properties.get("OW") == ["3"]
    assert "BL" not in moves[2] and "WL" not in moves[2]
    assert moves[3].move == ("W", "") and moves[3].properties.get("WL") == ["1.234"]  # a pass has a clock too
    assert record.repairs == []


def test_a_loss_on_time_is_written_as_b_plus_t():
    game = played()
    game.lose_on_time(Color.WHITE)
    text = game_sgf(game, created_ms=0)
    assert read_record(text).root.get("RE") == "B+T"
    again, _ = load_game(text.encode())
    assert str(again.result) == "B+T"


def test_a_seat_nobody_took_has_no_name_and_a_computer_seat_names_itself(db):
    with make_client(db) as program:  # a program with no cookie jar: no session, no guest name
        program.cookies.clear()
        made = program.post("/api/games", json={"size": 9, "white": "computer:3"}, headers={"Authorization": "Bearer x"})
        assert made.status_code == 201, made.text
        root = read_record(program.get(f"/api/games/{made.json()['id']}/sgf").text).root
    assert root.get("PW") == "miai level 3"
    assert "PB" not in root  # nobody with a session has taken Black: no name is made up


def test_chat_lines_are_comments_on_their_moves_and_a_line_past_the_end_goes_on_the_last():
    """Each chat line is a ``C`` comment ``name: text`` on the node of the move at which it was
    said (the root before the first move); a line said at a move later taken back goes on the
    last node; a seat without a name is named by its colour."""
    from miai.server.play.chat import ChatLine

    game = Game(9, Rules.preset("japanese"))
    for vertex in ("E5", "C3", "G7"):
        game.play(vertex)
    chat = [ChatLine(Color.BLACK, "ana", "hi", 1, 0), ChatLine(Color.WHITE, None, "good luck", 2, 0),
            ChatLine(Color.WHITE, "bo", "ouch", 3, 2), ChatLine(Color.BLACK, "ana", "sorry", 4, 9)]
    root = read_record(game_sgf(game, created_ms=0, chat=chat)).root
    nodes = [root]
    while nodes[-1].children:
        nodes.append(nodes[-1].children[0])
    assert root.get("C") == "ana: hi\nWhite: good luck"
    assert nodes[2].get("W") == "cg" and nodes[2].get("C") == "bo: ouch"
    assert nodes[3].get("C") == "ana: sorry" and "C" not in nodes[1]
