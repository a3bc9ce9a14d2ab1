"""Reviews (docs/SERVER.md §3.2): an uploaded record read in a worker process under a time
limit, and a game of this server, both in the shape of miai.server.records.review; every bad upload
gets a 4xx that says what was wrong."""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miai import Game, Rules
from miai.coords import Color, point_to_gtp
from miai.server.compute.workers import time_limited
from miai.server.records.review import build_review
from miai.server.wire.forms import vertices
from miai.sgf import load_game
from tests.samples import SAMPLES
from tests.server.conftest import Table, make_client

SGF = {"content-type": "application/x-go-sgf"}


# ---------------------------------------------------------------------- what a page does
def walk(review: dict[str, Any]) -> list[dict[str, set[str]]]:
    """Step through a review as a page does, with no rule of Go: place each move's stone, lift
    its captured stones, apply its edits. Returns the position after each move (checking on
    the way that every stone lands on an empty point and every captured stone was there)."""
    board: dict[str, str] = {v: "black" for v in review["start"]["black"]}
    board.update({v: "white" for v in review["start"]["white"]})
    positions = []
    for n, step in enumerate(review["moves"], 1):
        assert step["color"] in ("black", "white")
        if step["move"] != "pass":
            assert step["move"] not in board, f"move {n} ({step['move']}) lands on a stone"
            board[step["move"]] = step["color"]
        for v in step["captured"]:
            assert v in board, f"move {n} captures {v}, where no stone stands"
            del board[v]
        for edit in step.get("edits", []):
            for v in edit["empty"]:
                board.pop(v, None)
            board.update({v: "black" for v in edit["black"]})
            board.update({v: "white" for v in edit["white"]})
        positions.append(
            {c: {v for v, s in board.items() if s == c} for c in ("black", "white")}
        )
    return positions


def prisoners(review: dict[str, Any]) -> dict[str, int]:
    """The prisoners each colour took, as a page adds them up from the steps."""
    taken = {"black": 0, "white": 0}
    for step in review["moves"]:
        taken[step["color"]] += len(step["captured"])
    return taken


def check_walk(review: dict[str, Any]) -> None:
    """The steps lead to the final position, and the prisoners add up."""
    positions = walk(review)
    last = positions[-1] if positions else {c: set(review["start"][c]) for c in ("black", "white")}
    assert last == {c: set(review["final"][c]) for c in ("black", "white")}
    assert prisoners(review) == review["final"]["captures"]


def stones(game: Game) -> dict[str, set[str]]:
    return {"black": set(vertices(game.board.stones(Color.BLACK))), "white": set(vertices(game.board.stones(Color.WHITE)))}


# ---------------------------------------------------------------------- the shape itself
@st.composite
def played_games(draw: st.DrawFn) -> Game:
    """Legal games on small boards, with captures (random legal moves, some passes)."""
    size = draw(st.sampled_from([5, 7, 9]))
    game = Game(size, Rules.preset("chinese"), handicap=draw(st.sampled_from([0, 0, 2])) if size == 9 else 0)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 120))):
        if game.phase.value != "play":
            break
        legal = game.legal_moves()
        if not legal or rng.random() < 0.03:
            game.pass_move()
        else:
            game.play(rng.choice(legal))
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games())
def test_stepping_through_a_review_gives_every_position_of_the_game(game):
    review = build_review(game)
    positions = walk(review)
    replay = Game(game.size, game.rules)
    if game.handicap_points:
        replay.set_handicap(game.handicap_points)
    assert {c: set(review["start"][c]) for c in ("black", "white")} == stones(replay)
    assert len(positions) == len(game.moves)
    for move, position in zip(game.moves, positions):
        replay.play(move)
        assert position == stones(replay)
    assert [s["move"] for s in review["moves"]] == [point_to_gtp(m.point) for m in game.moves]
    check_walk(review)


def test_a_review_of_300_moves_is_small_while_every_position_would_not_be():
    """Why the steps: measured on a real 309-move 19x19 game."""
    game, record = load_game(SAMPLES / "igs-uec-long-Comment-property-tt-passes.sgf")
    review = build_review(game)
    assert len(review["moves"]) == 309
    steps_bytes = len(json.dumps(review, separators=(",", ":")))
    positions = [{c: sorted(p[c]) for c in p} for p in walk(review)]
    every_position = len(json.dumps({**review, "moves": positions}, separators=(",", ":")))
    assert steps_bytes < 20_000  # about 16 KB
    assert every_position > 10 * steps_bytes  # about 185 KB


# ---------------------------------------------------------------------- uploads
class CountingExecutor(Executor):
    """The shared worker pool, with a note of every function sent to it."""

    def __init__(self, pool: Executor):
        self.pool = pool
        self.sent: list[str] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
        self.sent.append(fn.__name__)
        return self.pool.submit(fn, *args, **kwargs)


@pytest.fixture
def reviews(db, estimate_pool):
    """A server whose worker pool is the tests' process pool (its uses counted)."""
    counting = CountingExecutor(estimate_pool)
    with make_client(db, executor=counting) as client:
        client.sent = counting.sent  # type: ignore[attr-defined]
        yield client


def upload(client, data: bytes | str, **kw: Any):
    return client.post("/api/reviews", content=data, headers=kw.pop("headers", SGF), **kw)


# file, moves, size, komi, handicap, black, white, result, result_text
RECORDS = [
    ("ogs-variation-per-move-finished.sgf", 255, 19, 0.5, 0, "noob_bot_3", "IDW64", "W+368.5", "W+368.5"),
    ("kgs-cgoban2-handicap5-empty-passes.sgf", 272, 19, 0.5, 5, "sita", "sita", None, None),
    ("igs-pandanet-CoPyright-multiline.sgf", 204, 19, 0.5, 2, "player2", "player1", "W+34.5", "W+34.5"),
    ("nihonkiin-shiftjis-no-CA-no-root-semicolon.sgf", 8, 19, 6.5, 0, "申眞ソ", "党毅飛", "B+R", "257手完, 黒中押し勝ち"),
    ("utf16le-bom.sgf", 164, 19, 0.0, 0, "Kitani Minoru", "Go Seigen", None, None),
    ("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf", 36, 9, 6.5, 0, "MoGoTiTan", "teytaud", "W+R", "W+Resign"),
]


@pytest.mark.parametrize("name, moves, size, komi, handicap, black, white, result, result_text", RECORDS)
def test_a_real_record_uploaded_reads_as_its_readme_says(
    reviews, name, moves, size, komi, handicap, black, white, result, result_text
):
    data = (SAMPLES / name).read_bytes()
    answer = upload(reviews, data)
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert "time_limited" in reviews.sent  # read in the worker pool, not on the event loop
    assert len(review["moves"]) == moves
    assert (review["size"], review["komi"], review["handicap"]) == (size, komi, handicap)
    assert review["players"] == {"black": black, "white": white}
    assert review["result_text"] == result_text
    if result is not None:
        assert review["result"] == result
    assert len(review["start"]["black"]) == handicap
    check_walk(review)
    game, record = load_game(data)
    assert {c: set(review["final"][c]) for c in ("black", "white")} == stones(game)
    assert review["repairs"] == record.repairs
    assert review["rules_text"] == record.rules_text


def test_territory_marks_in_a_record_give_the_count_and_its_dead_stones(reviews):
    data = (SAMPLES / "kgs-cgoban2-handicap5-empty-passes.sgf").read_bytes()
    review = upload(reviews, data).json()
    game, _ = load_game(data)
    assert game.final_score is not None
    assert review["phase"] == "finished" and review["result"] == str(game.result)
    assert review["score"]["dead"] == vertices(game.final_score.dead_stones)
    assert review["score"]["result"] == review["result"]


def test_repairs_are_reported(reviews):
    review = upload(reviews, (SAMPLES / "igs-pandanet-CoPyright-multiline.sgf").read_bytes()).json()
    assert any("CoPyright" in line for line in review["repairs"])
    assert any("[tt]" in line for line in review["repairs"])
    details = review["repair_details"]  # beside each English line, its kind and fields for the page
    assert len(details) == len(review["repairs"])
    kinds = {d["kind"] for d in details}
    assert {"long_ids", "tt_passes"} <= kinds, kinds
    tt = next(d for d in details if d["kind"] == "tt_passes")
    assert isinstance(tt["fields"]["count"], int) and tt["where"] is None


def test_a_json_body_gives_the_same_review(reviews):
    text = (SAMPLES / "ogs-variation-per-move-finished.sgf").read_text("utf-8")
    raw = upload(reviews, text.encode()).json()
    answer = reviews.post("/api/reviews", json={"sgf": text})
    assert answer.status_code == 200, answer.text
    kept_apart = ("id", "links")  # each upload is kept on its own link
    assert {k: v for k, v in answer.json().items() if k not in kept_apart} == {k: v for k, v in raw.items() if k not in kept_apart}


def test_plain_text_and_no_content_type_are_records_too(reviews):
    data = b"(;SZ[9]KM[7]PB[Ann]PW[Bob];B[dg];W[cg];B[bg];W[ee];B[cf];W[fe];B[ch])"
    for headers in ({"content-type": "text/plain; charset=utf-8"}, {}):
        answer = upload(reviews, data, headers=headers)
        assert answer.status_code == 200, answer.text
        review = answer.json()
        assert review["players"] == {"black": "Ann", "white": "Bob"}
        assert [s["move"] for s in review["moves"]] == ["D3", "C3", "B3", "E5", "C4", "F5", "C2"]
        assert review["moves"][-1]["captured"] == ["C3"]
        check_walk(review)


def test_a_setup_in_the_middle_of_a_record_is_an_edit_after_the_move_before_it(reviews):
    answer = upload(reviews, b"(;SZ[9]AB[cc];B[ee];W[gg]AE[ee]AB[aa];B[cg])")
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert review["start"] == {"black": ["C7"], "white": []}
    assert review["moves"][0]["edits"] == [{"black": ["A9"], "white": [], "empty": ["E5"]}]
    assert "edits" not in review["moves"][1] and "edits" not in review["moves"][2]
    assert walk(review)[0] == {"black": {"A9", "C7"}, "white": set()}
    check_walk(review)
    assert review["final"]["black"] == ["A9", "C3", "C7"] and review["final"]["white"] == ["G3"]


def test_an_illegal_move_stops_the_review_there_and_says_so(reviews):
    answer = upload(reviews, b"(;SZ[9];B[ee];W[ee];B[cc])")
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert [s["move"] for s in review["moves"]] == ["E5"]
    assert any("move 2" in line and "illegal" in line for line in review["repairs"])


# ---------------------------------------------------------------------- bad uploads
def check(answer, status: int, *words: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) >= {"error", "message"}
    for word in words:
        assert word in body["message"], body["message"]


def test_an_empty_body_is_a_400(reviews):
    check(upload(reviews, b""), 400, "empty")
    check(upload(reviews, b"  \r\n "), 400, "empty")
    check(reviews.post("/api/reviews", json={"sgf": " "}), 400, "empty")
    assert "time_limited" not in reviews.sent  # refused before a worker is asked


@pytest.mark.parametrize(
    "body, word",
    [
        ("[1]", "object"),
        ('{"sgf": 7}', "string"),
        ('{"record": "(;)"}', "record"),
        ('{"sgf": "(;)", "name": "x"}', "name"),
        ('{"sgf": ', "JSON"),
        ("[" * 5000 + "]" * 5000, "nested"),
    ],
)
def test_a_bad_json_body_is_a_400(reviews, body, word):
    check(reviews.post("/api/reviews", content=body, headers={"content-type": "application/json"}), 400, word)


def test_a_form_upload_is_refused_with_what_to_send_instead(reviews):
    answer = reviews.post("/api/reviews", files={"file": ("game.sgf", b"(;SZ[9];B[ee])")})
    check(answer, 400, "body")


def test_a_text_that_is_no_record_is_a_422_saying_where(reviews):
    check(upload(reviews, b"hello, world"), 422, "no SGF game tree", "line 1")
    check(upload(reviews, b"(;GM[2]SZ[9])"), 422, "GM[2]", "Go")
    check(upload(reviews, b"(;SZ[9]C[an empty board])"), 422, "nothing to review")


def test_a_name_of_a_file_is_never_read_as_a_file(reviews):
    for name in ("/etc/passwd", "/etc/hostname", str(SAMPLES / "utf8-bom.sgf")):
        answer = reviews.post("/api/reviews", json={"sgf": name})
        check(answer, 422, "no SGF game tree")
        assert "root" not in answer.text and "Kitani" not in answer.text


def test_a_binary_blob_is_a_422(reviews):
    blob = random.Random(7).randbytes(200_000)
    assert b"(;" in blob  # the tolerant reader finds a game tree in it, with nothing to review
    check(upload(reviews, blob), 422, "nothing to review", "repairs")
    check(upload(reviews, bytes(range(256)) * 100), 422, "no SGF game tree")


def test_a_record_in_a_charset_other_than_utf8_is_read(reviews):
    data = (SAMPLES / "ca-shift-jis.sgf").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    review = upload(reviews, data).json()
    assert review["players"] == {"black": "井山 裕太", "white": "山下 敬吾"}


def test_broken_bytes_in_a_record_are_replaced_and_reported(reviews):
    data = b"(;CA[UTF-8]SZ[9]PB[Ann \xff\xfe]C[caf\xc3\xa9];B[ee])"
    answer = upload(reviews, data)
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert review["players"]["black"].startswith("Ann") and len(review["moves"]) == 1
    assert review["repairs"]


def test_deep_nesting_reads(reviews):
    data = b"(;SZ[9]" + b"(;C[x]" * 50_000 + b";B[ee]" + b")" * 50_001
    answer = upload(reviews, data)
    assert answer.status_code == 200, answer.text
    assert [s["move"] for s in answer.json()["moves"]] == ["E5"]


def test_a_2mb_file_is_a_413(reviews):
    data = b"(;SZ[19]C[" + b"a" * 2_000_000 + b"])"
    check(upload(reviews, data), 413, "limit")

    def chunks():  # no Content-Length: counted while read
        for _ in range(40):
            yield b"a" * 50_000

    check(reviews.post("/api/reviews", content=chunks(), headers=SGF), 413, "limit")


def test_the_size_limit_is_a_setting(db, estimate_pool):
    with make_client(db, executor=estimate_pool, max_review_bytes=100) as client:
        check(upload(client, b"(;SZ[9]C[" + b"a" * 100 + b"])"), 413, "100")
        assert upload(client, b"(;SZ[9];B[ee])").status_code == 200


def test_a_100k_node_file_reads_or_is_refused_with_a_reason(db, estimate_pool):
    comments = b"(;SZ[19]" + b";C[x]" * 100_000 + b";B[pd])"
    moves = b"(;SZ[19]" + b";B[aa];W[bb]" * 50_000 + b")"
    with make_client(db, executor=estimate_pool, review_max_seconds=60, review_wait_seconds=120) as client:
        answer = upload(client, comments)
        assert answer.status_code == 200, answer.text
        assert [s["move"] for s in answer.json()["moves"]] == ["Q16"]
        check(upload(client, moves), 422, "100000 moves", "at most 10000")


def test_a_record_that_takes_too_long_is_a_422_and_frees_the_worker(db, estimate_pool):
    big = b"(;SZ[19]" + b";C[x]" * 100_000 + b")"  # seconds to read
    with make_client(db, executor=estimate_pool, review_max_seconds=0.05, review_wait_seconds=3) as client:
        assert upload(client, b"(;SZ[9];B[ee])").status_code == 200  # the worker is up
        check(upload(client, big), 422, "more than 0.05 s")
        answer = upload(client, b"(;SZ[9];B[ee];W[cc])")  # a stuck worker would make this a 503
        assert answer.status_code == 200, answer.text


def test_the_time_limit_interrupts_the_task_in_the_worker_itself():
    def forever() -> None:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                sum(range(1000))
            except Exception:  # the limit is no Exception: nothing in the task can swallow it
                pass

    started = time.monotonic()
    assert time_limited(0.1, forever) == ("timeout", 0.1)
    assert time.monotonic() - started < 5
    assert time_limited(5, sum, [1, 2, 3]) == ("done", 6)
    time.sleep(0.2)  # no alarm is left armed


def test_a_failure_of_the_reader_itself_is_a_422_and_is_logged(db, monkeypatch, caplog):
    def broken(data, max_moves):
        raise KeyError("a bug")

    monkeypatch.setattr("miai.server.records.review.upload_facts", broken)
    with ThreadPoolExecutor(1) as threads, make_client(db, executor=threads) as client:
        check(upload(client, b"(;SZ[9];B[ee])"), 422, "could not be read", "KeyError")
    assert any("KeyError" in r.getMessage() and "Traceback" in r.getMessage() for r in caplog.records)


def test_no_free_worker_is_a_503_to_retry(db):
    release = threading.Event()
    with ThreadPoolExecutor(1) as threads:
        threads.submit(release.wait, 10)  # the only worker is busy
        try:
            with make_client(db, executor=threads, review_wait_seconds=0.2) as client:
                check(upload(client, b"(;SZ[9];B[ee])"), 503, "retry")
        finally:
            release.set()


# ---------------------------------------------------------------------- games of this server
def captured_game(client) -> Table:
    """9x9 Japanese: Black captures a white stone at C3 (at move 7), then both pass."""
    table = Table(client, size=9, rules="japanese")
    table.moves("D3 C3 B3 E5 C4 F5 C2")
    return table


def test_a_live_game_review_steps_as_its_events_say(client):
    table = captured_game(client)
    answer = client.get(f"{table.url}/review")
    assert answer.status_code == 200, answer.text
    review = answer.json()
    state = table.state()
    events = [e for e in table.events() if e["kind"] in ("move", "pass")]
    assert [s["move"] for s in review["moves"]] == state["moves"]
    assert [s["captured"] for s in review["moves"]] == [e.get("captured", []) for e in events]
    assert review["moves"][6]["captured"] == ["C3"]
    assert (review["phase"], review["result"], review["score"], review["v"]) == ("play", None, None, state["v"])
    assert {c: review["final"][c] for c in ("black", "white")} == state["stones"]
    assert review["final"]["captures"] == state["captures"]
    assert review["players"] == state["players"] and review["repairs"] == []  # the names the seats took
    check_walk(review)


def test_a_counted_game_review_has_the_result_the_score_and_the_dead_stones(client):
    from tests.server.test_api import dead_white_stone_table

    table = dead_white_stone_table(client)
    table.moves("pass")
    table.send("white", "dead", dead=[])
    table.send("black", "dead", dead=["A9"])
    assert table.send("white", "accept").status_code == 200
    state = table.state()
    review = client.get(f"{table.url}/review").json()
    assert review["phase"] == "finished" and review["result"] == state["result"] == review["result_text"]
    assert review["score"] == state["score"] and review["score"]["dead"] == ["A9"]
    assert review["end_reason"] == state["end_reason"]
    check_walk(review)


def test_a_handicap_game_review_starts_from_the_handicap_stones(client):
    table = Table(client, size=9, handicap=3, rules="japanese komi=0.5")
    table.moves("E5 D4")
    table.send("black", "resign")
    review = client.get(f"{table.url}/review").json()
    assert review["handicap"] == 3 and len(review["start"]["black"]) == 3 and review["start"]["white"] == []
    assert [s["color"] for s in review["moves"]] == ["white", "black"]
    assert review["result"] == "W+R"
    check_walk(review)


def test_the_review_of_an_unknown_game_is_a_404(client):
    check(client.get("/api/games/nosuchgame/review"), 404)


def test_an_exported_game_uploaded_again_reviews_the_same(db, estimate_pool):
    from tests.server.test_api import dead_white_stone_table

    with make_client(db, executor=estimate_pool) as client:
        table = dead_white_stone_table(client)
        table.moves("pass")
        table.send("white", "dead", dead=[])
        table.send("black", "dead", dead=["A9"])
        table.send("white", "accept")
        own = client.get(f"{table.url}/review").json()
        sgf = client.get(f"{table.url}/sgf")
        again = upload(client, sgf.content).json()
    for key in ("size", "komi", "handicap", "phase", "result", "start", "moves", "final", "score", "date"):
        assert again[key] == own[key], key
    assert again["repairs"] == []

