"""Every sentence ``miai play`` says to the players, in one place.

Why one module: the terminal texts are to be translated later (gettext: English, Spanish,
Italian, Portuguese). So each message is one whole template with named fields, built by
one function here, and no message is assembled from fragments elsewhere: where a sentence
has two forms (a proposal or a counter-proposal, a move or a pass) there are two
templates, never a word spliced into a third. A translator then sees every sentence
whole, and the code that calls these functions never holds English.

What does not come from here: the messages of the core's errors (an illegal move explains
itself), a result's words (:meth:`miai.result.Result.describe`), the game's reason for
ending (:attr:`miai.game.Game.end_reason`), and the count's table (:class:`miai.scoring.Score`).
"""

from __future__ import annotations

from collections.abc import Collection

from miai import coords
from miai.coords import GTP_COLUMNS, Color, Point, point_to_gtp
from miai.errors import IllegalMoveError
from miai.rules import Rules

STONE_LETTER = {Color.BLACK: "X", Color.WHITE: "O"}
"""How the board diagram draws each colour (symbols, not words: never translated)."""

# ---------------------------------------------------------------------------- words


def color_name(color: Color) -> str:
    """``Black`` or ``White``."""
    return {Color.BLACK: "Black", Color.WHITE: "White"}[color]


def vertices(points: Collection[Point]) -> str:
    """``C3 D4`` (column by column), or ``none``."""
    return coords.vertices(points) or "none"


def describe_rules(rules: Rules) -> str:
    """The rules' text form, with the komi said even when it is the preset's."""
    text = str(rules)
    return text if "komi=" in text else f"{text}, komi {rules.komi:g}"


# ---------------------------------------------------------------------------- the command line

OPTIONS = {
    "play": "play a game in the terminal",
    "description": "A game of Go in the terminal: two people at one keyboard, a person against the "
    "computer (--white ai or --black ai, --level 1-10), or the computer against itself. "
    "Type help during the game for the commands.",
    "size": "board size, 2 to 25 (default 19)",
    "rules": "a preset (simple, chinese, japanese, korean, aga, new-zealand, tromp-taylor) "
    "optionally followed by key=value changes, e.g. 'japanese komi=0.5' (default chinese)",
    "komi": "komi (default: the rules' komi; 0.5 in handicap games)",
    "handicap": "handicap stones for Black, 2 to 9",
    "free_handicap": "Black places the handicap stones instead of the star points",
    "black": "who plays Black (default human)",
    "white": "who plays White (default human)",
    "level": "the computer's strength, 1 (a few playouts) to 10 (the full budget); default 5",
    "seconds": "most seconds the computer thinks per move, a positive number (default 5)",
}
"""``miai play --help``: the command's summary and description, then each option's help."""


def not_seconds(text: str) -> str:
    return f"not a number of seconds: {text!r}"


def bad_seconds(text: str) -> str:
    return f"the seconds per move must be a positive, finite number, not {text}"


# ---------------------------------------------------------------------------- the start of a game


def welcome(size: int, rules: Rules, handicap: int) -> str:
    if handicap:
        return f"miai play: {size}x{size}, rules {describe_rules(rules)}, handicap {handicap}."
    return f"miai play: {size}x{size}, rules {describe_rules(rules)}."


def stones_and_help() -> str:
    return "Black is X, White is O. Type help for the commands."


def bad_option(error: Exception) -> str:
    """An option that cannot start a game (an unknown ruleset, a board too small...)."""
    return f"miai play: {error}"


def bad_free_handicap(count: int, size: int) -> str:
    return f"a free handicap on {size}x{size} is 2 to {size * size - 1} stones, not {count}"


def place_handicap(count: int) -> str:
    return f"Black places {count} handicap stones: list {count} vertices (e.g. D4 Q16)."


HANDICAP_PROMPT = "handicap> "


def handicap_count(wanted: int, given: int) -> str:
    return f"Give exactly {wanted} vertices ({given} given)."


def pass_is_not_a_point() -> str:
    return "'pass' is not a point"


def error_sentence(error: Exception) -> str:
    """An error's own message, ended as a sentence."""
    return f"{error}."


# ---------------------------------------------------------------------------- playing

HELP = """\
Commands (any case):
  D4             play a stone there (columns A-Z without I, row 1 at the bottom)
  pass           pass; two passes in a row end the game
  undo           take back the last move
  resign         give up the game
  score          count the position as it stands (all stones alive)
  save FILE.sgf  write the game record
  board          draw the board again
  help           this list
  quit           leave the game (end of input does the same)"""


def move_prompt(color: Color, number: int) -> str:
    """What a person is asked before move ``number``."""
    return f"{color_name(color)} ({STONE_LETTER[color]}) move {number}> "


def captures(black: int, white: int) -> str:
    return f"Stones captured by Black (X): {black}, by White (O): {white}"


def no_moves_yet() -> str:
    return "No moves yet."


def last_pass(number: int, color: Color) -> str:
    return f"Move {number}: {color_name(color)} passed."


def last_move(number: int, color: Color, point: Point) -> str:
    return f"Move {number}: {color_name(color)} {point_to_gtp(point)}"


def another_pass_ends() -> str:
    return "Another pass ends the game."


def illegal_move(error: IllegalMoveError) -> str:
    """The rule a move breaks and why, as the game says it (superko names the move)."""
    return f"Illegal move ({error.reason.value}): {error}."


def no_column_i(size: int) -> str:
    return f"There is no column I: GTP coordinates skip it (columns are {GTP_COLUMNS[0]}-{GTP_COLUMNS[size - 1]})."


def off_the_board(error: Exception, size: int) -> str:
    """``error`` says which vertex is off the board; this adds what the board has."""
    return f"{error}: columns are A-{GTP_COLUMNS[size - 1]}, rows 1-{size}."


def unknown_command(word: str) -> str:
    return f"Unknown command {word!r}. Type help for the list of commands."


def takes_no_arguments(command: str) -> str:
    return f"'{command}' takes no arguments."


def save_usage() -> str:
    return "Usage: save FILE.sgf"


def count_all_alive(rules: Rules) -> str:
    return f"Count under {describe_rules(rules)} (all stones counted as alive):"


def count_marked_dead(rules: Rules) -> str:
    return f"Count under {describe_rules(rules)} (with the marked stones dead):"


def saved(path: str) -> str:
    return f"Saved the game to {path}."


def not_saved(path: str, error: OSError) -> str:
    return f"Could not save to {path}: {error.strerror or error}."


def resigns(color: Color) -> str:
    return f"{color_name(color)} resigns."


def nothing_to_undo() -> str:
    return "Nothing to undo."


def took_back_move(number: int, color: Color, point: Point) -> str:
    return f"Took back move {number} ({color_name(color)} {point_to_gtp(point)})."


def took_back_pass(number: int, color: Color) -> str:
    return f"Took back move {number} ({color_name(color)}'s pass)."


def took_back_proposal(by: Color) -> str:
    return f"Took back {color_name(by)}'s proposal."


def took_back_refusal(by: Color) -> str:
    return f"Took back {color_name(by)}'s refusal: the marking phase goes on."


def left_after_moves(moves: int) -> str:
    return f"Game left unfinished after {moves} moves."


def left_unfinished() -> str:
    return "Game left unfinished."


def interrupted() -> str:
    return "\nInterrupted."


# ---------------------------------------------------------------------------- the computer


def thinking(color: Color, engine: str, level: int) -> str:
    return f"{color_name(color)} ({engine}, level {level}) is thinking..."


def thinking_progress(color: Color, engine: str, level: int, playouts: int, seconds: float) -> str:
    return f"{color_name(color)} ({engine}, level {level}) is thinking: {playouts} playouts, {seconds:.1f} s"


def thinking_progress_best(
    color: Color, engine: str, level: int, playouts: int, seconds: float, best: Point | None, winrate: float
) -> str:
    return (
        f"{color_name(color)} ({engine}, level {level}) is thinking: {playouts} playouts, {seconds:.1f} s, "
        f"best {point_to_gtp(best)} ({winrate:.0%})"
    )


def computer_plays(color: Color, engine: str, level: int, point: Point, winrate: float, playouts: int) -> str:
    return (
        f"{color_name(color)} ({engine}, level {level}) plays {point_to_gtp(point)} "
        f"(win rate {winrate:.0%}, {playouts} playouts)."
    )


def computer_passes(color: Color, engine: str, level: int, winrate: float, playouts: int) -> str:
    return f"{color_name(color)} ({engine}, level {level}) passes (win rate {winrate:.0%}, {playouts} playouts)."


# ---------------------------------------------------------------------------- marking the dead stones

MARKING_HELP = """\
Marking the dead stones (any case):
  D4 E5 ...      mark or unmark the chains through these stones (dead stones are drawn x and o)
  none           unmark every stone
  Enter, done    propose the marked stones as dead (the other player answers)
  accept, yes    accept the other player's proposal: the game is counted
  resume         refuse the other player's counter-proposal: play resumes
                 (if both players then pass at once, all stones count as alive)
  score          count the position with the marked stones dead
  board          draw the board with the marks again
  undo           take back the last proposal, or the last pass
  quit           leave the game unfinished"""


def marking_begins(first: Color) -> str:
    """How the agreement on dead stones goes (docs/RULES.md §5), said when it starts."""
    return (
        f"Both players passed: the marking phase. {color_name(first)}, who passed first, marks the dead stones "
        f"of both colours; {color_name(first.opponent)} accepts, or marks the set they see instead; "
        f"{color_name(first)} then accepts that, or play resumes."
    )


def estimate_note(dead: Collection[Point]) -> str:
    return f"The computer's estimate of the dead stones is marked (x, o): {vertices(dead)}."


def estimate_note_with_seki(dead: Collection[Point], seki: Collection[Point]) -> str:
    return f"The computer's estimate of the dead stones is marked (x, o): {vertices(dead)}. In seki: {vertices(seki)}."


def marked_dead(dead: Collection[Point]) -> str:
    return f"Marked dead: {vertices(dead)}."


def proposal_made(by: Color, dead: Collection[Point]) -> str:
    return f"{color_name(by)}'s proposal: dead {vertices(dead)}."


def counter_proposal_made(by: Color, dead: Collection[Point]) -> str:
    return f"{color_name(by)}'s counter-proposal: dead {vertices(dead)}."


def mark_prompt(color: Color) -> str:
    """The first passer's prompt: mark the dead stones."""
    return f"{color_name(color)} ({STONE_LETTER[color]}) marks dead stones> "


def answer_proposal_prompt(color: Color) -> str:
    """The second passer's prompt: accept the proposal, or mark another set."""
    return f"{color_name(color)} ({STONE_LETTER[color]}) accept or mark dead stones> "


def answer_counter_prompt(color: Color) -> str:
    """The first passer's prompt after a counter-proposal: accept it, or resume play."""
    return f"{color_name(color)} ({STONE_LETTER[color]}) accept or resume> "


def proposal_unchanged(by: Color) -> str:
    return f"That is {color_name(by)}'s proposal unchanged: type accept to agree, or mark stones to change it."


def not_now(error: IllegalMoveError) -> str:
    """A marking step that is not open now, with the reason the agreement gives."""
    return f"Not now ({error.reason.value}): {error}."


def pass_is_not_a_stone() -> str:
    return "'pass' is not a stone."


def no_stone_on(point: Point) -> str:
    return f"There is no stone on {point_to_gtp(point)}."


def not_a_vertex_marking(error: Exception) -> str:
    return f"{error}. Type help for the marking commands."


def computer_accepts(color: Color, by: Color) -> str:
    return f"{color_name(color)} accepts {color_name(by)}'s proposal."


def computer_proposes(color: Color, dead: Collection[Point]) -> str:
    return f"{color_name(color)} proposes dead: {vertices(dead)}."


def play_resumes(refuser: Color, to_move: Color) -> str:
    return (
        f"{color_name(refuser)} refuses: no agreement, play resumes and {color_name(to_move)} moves. "
        "If both players now pass at once, all stones count as alive."
    )


def compensation_rule() -> str:
    """Said on resumption under territory scoring (docs/RULES.md §5.8)."""
    return (
        "Stones played inside one's own territory to capture stones one marked dead (and the other did not) "
        "are compensated, one point each."
    )


# ---------------------------------------------------------------------------- the end


def game_over(reason: str | None) -> str:
    return f"Game over: {reason}."


def result_line(result: str, words: str) -> str:
    """``Result: B+R. Black wins by resignation.``: the SGF form, then the words."""
    return f"Result: {result}. {words}"


SAVE_PROMPT = "Save the game? File name (Enter to skip): "
