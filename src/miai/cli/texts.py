"""Every sentence ``miai play`` says to the players, in one place, translated (``miai
score``'s are in :mod:`miai.cli.score_texts`, which uses the count and result words here).

Each message is one whole template with named fields (``{color}``, ``{point}``), built by
one function here and passed through gettext (:mod:`miai.i18n`, domain ``miai``): where a
sentence has two forms (a proposal or a counter-proposal, a move or a pass) there are two
templates, never a word spliced into a third, and counts go through ``ngettext``. A
translator sees every sentence whole (docs/TRANSLATING.md), and the code that calls these
functions never holds English. The language is the process's current one
(:func:`miai.i18n.set_language`; ``miai play --lang``).

The core speaks English (its errors, :meth:`miai.result.Result.describe`,
:meth:`miai.result.EndReason.describe`, :meth:`miai.scoring.Score.breakdown`): those the
players see are said again here from their values, not their English (an illegal move by
its ``reason`` and the game's position; a result by its fields; the count by its parts),
so that they are translated too; the English forms are the same as the core's.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from miai import coords
from miai.cli.actions import Accept, MarkingAction, Propose, Refuse
from miai.coords import GTP_COLUMNS, Color, Move, Point, point_to_gtp
from miai.endgame import Marking
from miai.errors import IllegalMoveError, IllegalReason
from miai.game import Game
from miai.i18n import format_number, format_percent, ngettext, pgettext
from miai.i18n import gettext as _
from miai.result import EndReason, Result, Termination
from miai.rules import KoRule, Rules, Scoring
from miai.scoring import Score

STONE_LETTER = {Color.BLACK: "X", Color.WHITE: "O"}
"""How the board diagram draws each colour (symbols, not words: never translated)."""


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it yet (gettext's ``N_``)."""
    return message


# ---------------------------------------------------------------------------- words


def color_name(color: Color) -> str:
    """``Black`` or ``White``, as a player's name."""
    return pgettext("player", "Black") if color is Color.BLACK else pgettext("player", "White")


def vertex(point: Point | None) -> str:
    """``D4``, or the word for a pass."""
    return pgettext("move", "pass") if point is None else point_to_gtp(point)


def vertices(points: Collection[Point]) -> str:
    """``C3 D4`` (column by column), or ``none``."""
    return coords.vertices(points) or pgettext("vertices", "none")


def ruleset_name(preset: str) -> str:
    """A preset's name in the current language, as the word after *rules* (an adjective in
    the Romance languages: ``reglas chinas``); a name that is no preset's stays as it is."""
    names = {
        "simple": pgettext("ruleset", "simple"),
        "chinese": pgettext("ruleset", "chinese"),
        "japanese": pgettext("ruleset", "japanese"),
        "korean": pgettext("ruleset", "korean"),
        "aga": pgettext("ruleset", "aga"),
        "new-zealand": pgettext("ruleset", "new-zealand"),
        "tromp-taylor": pgettext("ruleset", "tromp-taylor"),
    }
    return names.get(preset, preset)


def describe_rules(rules: Rules) -> str:
    """The rules' text form, the preset's name translated, with the komi said even when it
    is the preset's (``japanese, komi 6.5``; ``chinese komi=0.5``)."""
    preset, _sep, changes = str(rules).partition(" ")
    name = ruleset_name(preset)
    if changes:
        text = f"{name} {changes}"
        komi = format_number(rules.komi)
        return text if "komi=" in changes else _("{rules}, komi {komi}").format(rules=text, komi=komi)
    return _("{rules}, komi {komi}").format(rules=name, komi=format_number(rules.komi))


# ---------------------------------------------------------------------------- the command line


def options() -> dict[str, str]:
    """``miai play --help``: the command's summary and description, then each option's help."""
    return {
        "play": _("play a game in the terminal"),
        "description": _(
            "A game of Go in the terminal: two people at one keyboard, a person against the "
            "computer (--white ai or --black ai, --level 1-10), or the computer against itself. "
            "Type help during the game for the commands."
        ),
        "size": _("board size, 2 to 25 (default 19)"),
        "rules": _(
            "a preset (simple, chinese, japanese, korean, aga, new-zealand, tromp-taylor) "
            "optionally followed by key=value changes, e.g. 'japanese komi=0.5' (default chinese)"
        ),
        "komi": _("komi (default: the rules' komi; 0.5 in handicap games)"),
        "handicap": _("handicap stones for Black, 2 to 9"),
        "free_handicap": _("Black places the handicap stones instead of the star points"),
        "black": _("who plays Black (default human)"),
        "white": _("who plays White (default human)"),
        "level": _("the computer's strength, 1 (a few playouts) to 10 (the full budget); default 5"),
        "seconds": _("most seconds the computer thinks per move, a positive number (default 5)"),
        "lang": lang_help(),
    }


def lang_help() -> str:
    return _(
        "the language of the texts: en, es, it or pt (default: the environment's locale, "
        "LANGUAGE, LC_ALL, LC_MESSAGES or LANG; else English)"
    )


def not_seconds(text: str) -> str:
    return _("not a number of seconds: {text}").format(text=repr(text))


def bad_seconds(text: str) -> str:
    return _("the seconds per move must be a positive, finite number, not {text}").format(text=text)


def unknown_language(text: str, languages: Sequence[str]) -> str:
    return _("no translation for language {text}; the languages are: {languages}").format(
        text=repr(text), languages=", ".join(languages)
    )


# ---------------------------------------------------------------------------- the start of a game


def welcome(size: int, rules: Rules, handicap: int) -> str:
    if handicap:
        return _("miai play: {size}x{size}, rules {rules}, handicap {handicap}.").format(
            size=size, rules=describe_rules(rules), handicap=handicap
        )
    return _("miai play: {size}x{size}, rules {rules}.").format(size=size, rules=describe_rules(rules))


def stones_and_help() -> str:
    return _("Black is X, White is O. Type help for the commands.")


def bad_option(error: Exception) -> str:
    """An option that cannot start a game (an unknown ruleset, a board too small...): the
    core's message, in English."""
    return _("miai play: {error}").format(error=error)


def bad_free_handicap(count: int, size: int) -> str:
    return _("a free handicap on {size}x{size} is 2 to {most} stones, not {count}").format(
        size=size, most=size * size - 1, count=count
    )


def place_handicap(count: int) -> str:
    return ngettext(
        "Black places {count} handicap stone: list {count} vertex (e.g. D4).",
        "Black places {count} handicap stones: list {count} vertices (e.g. D4 Q16).",
        count,
    ).format(count=count)


def handicap_prompt() -> str:
    return _("handicap> ")


def handicap_count(wanted: int, given: int) -> str:
    return ngettext(
        "Give exactly {wanted} vertex ({given} given).", "Give exactly {wanted} vertices ({given} given).", wanted
    ).format(wanted=wanted, given=given)


def pass_is_not_a_point() -> str:
    return _("'pass' is not a point.")


def not_a_vertex(word: str) -> str:
    shown = word if len(word) <= 40 else word[:37] + "..."
    return _("not a GTP vertex: {word} (expected a letter A-Z without I, then a number, or pass).").format(
        word=repr(shown)
    )


def handicap_twice(points: Collection[Point]) -> str:
    return _("free handicap places a stone twice on {points}.").format(points=", ".join(map(point_to_gtp, points)))


def handicap_not_placed(error: Exception) -> str:
    """Free handicap stones that cannot be placed (the same point twice, no empty point left)."""
    return _("These stones cannot be the handicap: {error}.").format(error=error)


# ---------------------------------------------------------------------------- playing


def help_text() -> str:
    """The commands of a turn to move (the command words stay English: ``pass``, ``undo``...)."""
    return _(
        """\
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
    )


def move_prompt(color: Color, number: int) -> str:
    """What a person is asked before move ``number``."""
    return _("{color} ({stone}) move {number}> ").format(
        color=color_name(color), stone=STONE_LETTER[color], number=number
    )


def captures(black: int, white: int) -> str:
    return _("Stones captured by Black (X): {black}, by White (O): {white}").format(black=black, white=white)


def no_moves_yet() -> str:
    return _("No moves yet.")


def last_pass(number: int, color: Color) -> str:
    return _("Move {number}: {color} passed.").format(number=number, color=color_name(color))


def last_move(number: int, color: Color, point: Point) -> str:
    return _("Move {number}: {color} {point}").format(number=number, color=color_name(color), point=vertex(point))


def another_pass_ends() -> str:
    return _("Another pass ends the game.")


def reason_name(reason: IllegalReason) -> str:
    """The rule's short name (``occupied``, ``superko``...), as said in parentheses."""
    names = {
        IllegalReason.OCCUPIED: pgettext("illegal", "occupied"),
        IllegalReason.SUICIDE: pgettext("illegal", "suicide"),
        IllegalReason.KO: pgettext("illegal", "ko"),
        IllegalReason.SUPERKO: pgettext("illegal", "superko"),
        IllegalReason.WRONG_PHASE: pgettext("illegal", "wrong phase"),
        IllegalReason.OUT_OF_TURN: pgettext("illegal", "out of turn"),
        IllegalReason.NOT_A_STONE: pgettext("illegal", "not a stone"),
    }
    return names[reason]


def illegal_move(error: IllegalMoveError, move: Move, game: Game) -> str:
    """The rule ``move`` breaks in ``game`` (before it is played) and why, from the error's
    reason and the position, not its English message (superko names the repeated move)."""
    point, color = move.point, move.color
    where = vertex(point)
    reason = error.reason
    if reason is IllegalReason.OCCUPIED and point is not None:
        why = (
            _("{point} is occupied by a black stone")
            if game.board[point] is Color.BLACK
            else _("{point} is occupied by a white stone")
        ).format(point=where)
    elif reason is IllegalReason.KO:
        why = _("{point} retakes the ko at once: {color} must play elsewhere first").format(
            point=where, color=color_name(color)
        )
    elif reason is IllegalReason.SUICIDE:
        why = (
            _(
                "{point} is suicide for {color}: the stone would be left without liberties "
                "(a single stone's suicide is illegal under every ruleset)"
            )
            if game.rules.suicide
            else _("{point} is suicide for {color}: the stone would be left without liberties")
        ).format(point=where, color=color_name(color))
    elif reason is IllegalReason.SUPERKO and error.repeats_move is not None:
        why = superko(where, color, error.repeats_move, game.rules.ko)
    else:  # the marking phase or the end of the game: said by the sentences of those
        return _("Not now ({reason}): {why}.").format(reason=reason_name(reason), why=error)
    return _("Illegal move ({reason}): {why}.").format(reason=reason_name(reason), why=why)


def superko(where: str, color: Color, repeats: int, ko: KoRule) -> str:
    """Why a move repeats an earlier position: which one, under which superko."""
    if ko is KoRule.POSITIONAL:
        if repeats == 0:
            return _("{point} would repeat the starting position (positional superko)").format(point=where)
        return _("{point} would repeat the position after move {number} (positional superko)").format(
            point=where, number=repeats
        )
    if repeats == 0:
        return _("{point} would repeat the starting position (situational superko, with {color} to move)").format(
            point=where, color=color_name(color.opponent)
        )
    return _(
        "{point} would repeat the position after move {number} (situational superko, with {color} to move)"
    ).format(point=where, number=repeats, color=color_name(color.opponent))


def no_column_i(size: int) -> str:
    return _("There is no column I: GTP coordinates skip it (columns are {first}-{last}).").format(
        first=GTP_COLUMNS[0], last=GTP_COLUMNS[size - 1]
    )


def off_the_board(word: str, size: int) -> str:
    """``word`` looks like a vertex but is off this board."""
    shown = word.strip() if len(word.strip()) <= 12 else word.strip()[:9] + "..."
    return _("vertex {word} is off the {size}x{size} board: columns are A-{last}, rows 1-{size}.").format(
        word=shown, size=size, last=GTP_COLUMNS[size - 1]
    )


def unknown_command(word: str) -> str:
    return _("Unknown command {word}. Type help for the list of commands.").format(word=repr(word))


def takes_no_arguments(command: str) -> str:
    return _("'{command}' takes no arguments.").format(command=command)


def save_usage() -> str:
    return _("Usage: save FILE.sgf")


def count_all_alive(rules: Rules) -> str:
    return _("Count under {rules} (all stones counted as alive):").format(rules=describe_rules(rules))


def count_marked_dead(rules: Rules) -> str:
    return _("Count under {rules} (with the marked stones dead):").format(rules=describe_rules(rules))


def score_table(score: Score) -> str:
    """Every part of the count, Black's and White's side by side, then the scoring, the
    neutral points and the result (the same table as :meth:`miai.scoring.Score.breakdown`)."""
    rows: list[tuple[str, str, str]] = []
    labels = {
        "stones": pgettext("count", "stones"),
        "territory": pgettext("count", "territory"),
        "prisoners": pgettext("count", "prisoners"),
        "dead": pgettext("count", "dead stones"),
        "compensation": pgettext("count", "compensation"),
        "komi": pgettext("count", "komi"),
        "handicap_bonus": pgettext("count", "handicap bonus"),
        "total": pgettext("count", "total"),
    }

    def add(part: str, always: bool = False) -> None:
        b, w = getattr(score.black, part), getattr(score.white, part)
        if always or b or w:
            rows.append((labels[part], format_number(b), format_number(w)))

    if score.scoring is Scoring.AREA:
        add("stones", True)
        add("territory", True)
    else:
        add("territory", True)
        add("prisoners", True)
        add("dead", True)
        add("compensation")
    add("komi", True)
    add("handicap_bonus")
    add("total", True)
    black, white = color_name(Color.BLACK), color_name(Color.WHITE)
    width = max(len(r[0]) for r in rows)
    cols = max(7, len(black), len(white))
    lines = [f"{'':{width}}  {black:>{cols}}  {white:>{cols}}"]
    lines += [f"{label:{width}}  {b:>{cols}}  {w:>{cols}}" for label, b, w in rows]
    n = score.neutral
    if score.scoring is Scoring.AREA:
        lines.append(ngettext("area scoring, {count} neutral point", "area scoring, {count} neutral points", n).format(count=n))
    else:
        lines.append(
            ngettext("territory scoring, {count} neutral point", "territory scoring, {count} neutral points", n).format(
                count=n
            )
        )
    if score.margin == 0 and score.white_wins_ties:
        lines.append(_("result: {result} (White wins ties)").format(result=score.result))
    else:
        lines.append(_("result: {result}").format(result=score.result))
    return "\n".join(lines)


def saved(path: str) -> str:
    return _("Saved the game to {path}.").format(path=path)


def not_saved(path: str, error: OSError) -> str:
    return _("Could not save to {path}: {error}.").format(path=path, error=error.strerror or error)


def resigns(color: Color) -> str:
    return _("{color} resigns.").format(color=color_name(color))


def nothing_to_undo() -> str:
    return _("Nothing to undo.")


def took_back_move(number: int, color: Color, point: Point) -> str:
    return _("Took back move {number} ({color} {point}).").format(
        number=number, color=color_name(color), point=vertex(point)
    )


def took_back_pass(number: int, color: Color) -> str:
    return _("Took back move {number} ({color}'s pass).").format(number=number, color=color_name(color))


def took_back_proposal(by: Color) -> str:
    return _("Took back {color}'s proposal.").format(color=color_name(by))


def took_back_refusal(by: Color) -> str:
    return _("Took back {color}'s refusal: the marking phase goes on.").format(color=color_name(by))


def left_after_moves(moves: int) -> str:
    return ngettext(
        "Game left unfinished after {count} move.", "Game left unfinished after {count} moves.", moves
    ).format(count=moves)


def left_unfinished() -> str:
    return _("Game left unfinished.")


def interrupted() -> str:
    return "\n" + _("Interrupted.")


# ---------------------------------------------------------------------------- the computer


def percent(rate: float) -> str:
    return format_percent(rate)


def thinking(color: Color, engine: str, level: int) -> str:
    return _("{color} ({engine}, level {level}) is thinking...").format(
        color=color_name(color), engine=engine, level=level
    )


def thinking_progress(color: Color, engine: str, level: int, playouts: int, seconds: float) -> str:
    return ngettext(
        "{color} ({engine}, level {level}) is thinking: {playouts} playout, {seconds} s",
        "{color} ({engine}, level {level}) is thinking: {playouts} playouts, {seconds} s",
        playouts,
    ).format(
        color=color_name(color), engine=engine, level=level, playouts=format_number(playouts), seconds=format_number(seconds, 1)
    )


def thinking_progress_best(
    color: Color, engine: str, level: int, playouts: int, seconds: float, best: Point | None, winrate: float
) -> str:
    return ngettext(
        "{color} ({engine}, level {level}) is thinking: {playouts} playout, {seconds} s, best {point} ({winrate})",
        "{color} ({engine}, level {level}) is thinking: {playouts} playouts, {seconds} s, best {point} ({winrate})",
        playouts,
    ).format(
        color=color_name(color),
        engine=engine,
        level=level,
        playouts=format_number(playouts),
        seconds=format_number(seconds, 1),
        point=vertex(best),
        winrate=percent(winrate),
    )


def computer_plays(color: Color, engine: str, level: int, point: Point, winrate: float, playouts: int) -> str:
    return ngettext(
        "{color} ({engine}, level {level}) plays {point} (win rate {winrate}, {playouts} playout).",
        "{color} ({engine}, level {level}) plays {point} (win rate {winrate}, {playouts} playouts).",
        playouts,
    ).format(
        color=color_name(color),
        engine=engine,
        level=level,
        point=vertex(point),
        winrate=percent(winrate),
        playouts=format_number(playouts),
    )


def computer_passes(color: Color, engine: str, level: int, winrate: float, playouts: int) -> str:
    return ngettext(
        "{color} ({engine}, level {level}) passes (win rate {winrate}, {playouts} playout).",
        "{color} ({engine}, level {level}) passes (win rate {winrate}, {playouts} playouts).",
        playouts,
    ).format(
        color=color_name(color), engine=engine, level=level, winrate=percent(winrate), playouts=format_number(playouts)
    )


# ---------------------------------------------------------------------------- marking the dead stones


def marking_help() -> str:
    return _(
        """\
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
    )


def marking_begins(first: Color) -> str:
    """How the agreement on dead stones goes (docs/RULES.md §5), said when it starts."""
    return _(
        "Both players passed: the marking phase. {first}, who passed first, marks the dead stones "
        "of both colours; {second} accepts, or marks the set they see instead; "
        "{first} then accepts that, or play resumes."
    ).format(first=color_name(first), second=color_name(first.opponent))


def estimate_note(dead: Collection[Point]) -> str:
    return _("The computer's estimate of the dead stones is marked (x, o): {dead}.").format(dead=vertices(dead))


def estimate_note_with_seki(dead: Collection[Point], seki: Collection[Point]) -> str:
    return _("The computer's estimate of the dead stones is marked (x, o): {dead}. In seki: {seki}.").format(
        dead=vertices(dead), seki=vertices(seki)
    )


def marked_dead(dead: Collection[Point]) -> str:
    return _("Marked dead: {dead}.").format(dead=vertices(dead))


def proposal_made(by: Color, dead: Collection[Point]) -> str:
    return _("{color}'s proposal: dead {dead}.").format(color=color_name(by), dead=vertices(dead))


def counter_proposal_made(by: Color, dead: Collection[Point]) -> str:
    return _("{color}'s counter-proposal: dead {dead}.").format(color=color_name(by), dead=vertices(dead))


def mark_prompt(color: Color) -> str:
    """The first passer's prompt: mark the dead stones."""
    return _("{color} ({stone}) marks dead stones> ").format(color=color_name(color), stone=STONE_LETTER[color])


def answer_proposal_prompt(color: Color) -> str:
    """The second passer's prompt: accept the proposal, or mark another set."""
    return _("{color} ({stone}) accept or mark dead stones> ").format(color=color_name(color), stone=STONE_LETTER[color])


def answer_counter_prompt(color: Color) -> str:
    """The first passer's prompt after a counter-proposal: accept it, or resume play."""
    return _("{color} ({stone}) accept or resume> ").format(color=color_name(color), stone=STONE_LETTER[color])


def proposal_unchanged(by: Color) -> str:
    return _("That is {color}'s proposal unchanged: type accept to agree, or mark stones to change it.").format(
        color=color_name(by)
    )


def turn_in_marking(marking: Marking) -> str:
    """What the player whose step it is may do now."""
    if marking.proposal is None:
        return _("it is {color}'s turn to mark the dead stones").format(color=color_name(marking.first))
    if marking.counter is None:
        return _("it is {color}'s turn to accept {other}'s proposal or mark the dead stones instead").format(
            color=color_name(marking.second), other=color_name(marking.first)
        )
    return _("it is {color}'s turn to accept {other}'s counter-proposal or refuse it (play resumes)").format(
        color=color_name(marking.first), other=color_name(marking.second)
    )


def not_now(error: IllegalMoveError, marking: Marking, step: MarkingAction, color: Color) -> str:
    """Why ``color``'s marking ``step`` is not open now, from the error's reason and where
    the agreement stands (the same sentences as :class:`miai.endgame.Marking` says)."""
    reason = error.reason
    name = color_name(color)
    if reason is IllegalReason.NOT_A_STONE:
        why = _("only stones can be marked dead")
    elif reason is IllegalReason.OUT_OF_TURN:
        pending = marking.pending
        if isinstance(step, Accept) and pending is not None and pending.by is color:
            why = _("{color} cannot accept their own proposal").format(color=name)
        else:
            why = _("{color} cannot act now: {turn}").format(color=name, turn=turn_in_marking(marking))
    elif isinstance(step, Accept) and marking.pending is None:
        why = _("there is no proposal to accept yet: {color} marks the dead stones first").format(
            color=color_name(marking.first)
        )
    elif isinstance(step, Refuse) and marking.counter is None:
        if color is marking.second and marking.proposal is not None:
            why = _("{color} refuses a proposal by marking the dead stones they see instead").format(color=name)
        else:
            why = _("only a counter-proposal can be refused; {turn}").format(turn=turn_in_marking(marking))
    elif isinstance(step, Propose) and marking.counter is not None:
        why = _("{color} cannot propose again: {turn}").format(color=name, turn=turn_in_marking(marking))
    else:
        why = turn_in_marking(marking)
    return _("Not now ({reason}): {why}.").format(reason=reason_name(reason), why=why)


def pass_is_not_a_stone() -> str:
    return _("'pass' is not a stone.")


def no_stone_on(point: Point) -> str:
    return _("There is no stone on {point}.").format(point=vertex(point))


def not_a_vertex_marking(word: str) -> str:
    shown = word if len(word) <= 40 else word[:37] + "..."
    return _(
        "not a GTP vertex: {word} (expected a letter A-Z without I, then a number, or pass). "
        "Type help for the marking commands."
    ).format(word=repr(shown))


def computer_accepts(color: Color, by: Color) -> str:
    return _("{color} accepts {other}'s proposal.").format(color=color_name(color), other=color_name(by))


def computer_proposes(color: Color, dead: Collection[Point]) -> str:
    return _("{color} proposes dead: {dead}.").format(color=color_name(color), dead=vertices(dead))


def play_resumes(refuser: Color, to_move: Color) -> str:
    return _(
        "{color} refuses: no agreement, play resumes and {to_move} moves. "
        "If both players now pass at once, all stones count as alive."
    ).format(color=color_name(refuser), to_move=color_name(to_move))


def compensation_rule() -> str:
    """Said on resumption under territory scoring (docs/RULES.md §5.8)."""
    return _(
        "Stones played inside one's own territory to capture stones one marked dead (and the other did not) "
        "are compensated, one point each."
    )


# ---------------------------------------------------------------------------- the end

END_REASONS = {
    EndReason.AGREEMENT: N_("both players passed and agreed on the dead stones"),
    EndReason.ALL_ALIVE: N_(
        "the players did not agree on the dead stones and both passed at once when play resumed; "
        "all stones count as alive"
    ),
    EndReason.REPETITION: N_(
        "no result: the same position occurred for the third time with the same player to move "
        "(a long cycle such as a triple ko)"
    ),
    EndReason.PASSES: N_("both players passed; stones count as they stand"),
    EndReason.RESIGNATION: N_("a player resigned"),
    EndReason.TIME: N_("a player ran out of time"),
    EndReason.ABANDONED: N_("a player left the game and the opponent claimed it"),
    EndReason.FORFEIT: N_("a player forfeited"),
    EndReason.RECORD: N_("result given in the record"),
    EndReason.GIVEN: N_("result decided outside the game (by an arbiter or a referee)"),
}
"""The words of the core's reasons for the end of a game (:class:`miai.result.EndReason`)
by value: every reason, translated (the core's English, spelled out where it is terse)."""


def game_over(game: Game) -> str:
    """Why the game ended: a resignation or a timeout from the result, else the core's reason
    (translated, as every reason of :data:`END_REASONS`)."""
    result = game.result
    if result is not None and result.loser is not None and result.by is Termination.RESIGNATION:
        return _("Game over: {color} resigned.").format(color=color_name(result.loser))
    if result is not None and result.loser is not None and result.by is Termination.TIME:
        return _("Game over: {color} ran out of time.").format(color=color_name(result.loser))
    reason = game.end_reason or EndReason.GIVEN  # (a game that is over always has one)
    words = _(END_REASONS[reason])
    return _("Game over: {reason}.").format(reason=words)


def result_words(result: Result) -> str:
    """The result in words (``White wins by 6.5 points.``), as :meth:`Result.describe`."""
    if result.by is Termination.VOID:
        return _("No result.")
    if result.is_draw:
        return _("Draw (jigo).") if result.by is Termination.SCORE else _("Draw.")
    if result.winner is None:
        return _("Result: {text}.").format(text=result.text) if result.text else _("Result unknown.")
    who = color_name(result.winner)
    if result.by is Termination.SCORE:
        margin = result.margin or 0.0
        if margin == 0:
            return _("{color} wins the tie (tie rule).").format(color=who)
        return ngettext("{color} wins by {margin} point.", "{color} wins by {margin} points.", 1 if margin == 1 else 2).format(
            color=who, margin=format_number(margin)
        )
    if result.by is Termination.TIME:
        return _("{color} wins on time.").format(color=who)
    if result.by is Termination.RESIGNATION:
        return _("{color} wins by resignation.").format(color=who)
    if result.by is Termination.FORFEIT:
        return _("{color} wins by forfeit.").format(color=who)
    if result.text:
        return _("{color} wins. ({text})").format(color=who, text=result.text)
    return _("{color} wins.").format(color=who)


def result_line(result: Result) -> str:
    """``Result: B+R. Black wins by resignation.``: the SGF form, then the words."""
    return _("Result: {result}. {words}").format(result=result, words=result_words(result))


def save_prompt() -> str:
    return _("Save the game? File name (Enter to skip): ")
