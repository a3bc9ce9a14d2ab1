"""Every sentence ``miai score`` says, translated as :mod:`miai.cli.texts` says (its own
module only to keep each small; the count, the rules and the result words are shared).
The JSON of ``--json`` is for programs and is never translated."""

from __future__ import annotations

from miai.cli import texts
from miai.coords import Color
from miai.i18n import gettext as _
from miai.i18n import ngettext
from miai.result import Result
from miai.rules import Rules


def score_options() -> dict[str, str]:
    """``miai score --help``."""
    return {
        "score": _("count the final position of a game record"),
        "description": _(
            "Count the final position of a game record (SGF, GIB or NGF) with miai's estimate "
            "of the dead and seki stones: the breakdown and the map."
        ),
        "file": _("the game record"),
        "rules": _(
            "count under these rules instead of the record's: a preset with optional key=value changes; "
            "the record's komi is kept unless komi= is given"
        ),
        "json": _("print the count, the statuses and the map as JSON"),
        "playouts": _("playouts of the status estimate (default by board size)"),
        "lang": texts.lang_help(),
    }


def score_cannot_read(path: str, error: OSError) -> str:
    return _("miai score: cannot read {path}: {error}").format(path=path, error=error.strerror or error)


def score_bad_record(path: str, error: Exception) -> str:
    return _("miai score: {path}: {error}").format(path=path, error=error)


def score_error(error: Exception) -> str:
    return _("miai score: {error}").format(error=error)


def record_heading(size: int, moves: int, black: str | None, white: str | None) -> str:
    return ngettext(
        "{size}x{size}, {moves} move; Black: {black}, White: {white}",
        "{size}x{size}, {moves} moves; Black: {black}, White: {white}",
        moves,
    ).format(size=size, moves=moves, black=black or "?", white=white or "?")


def record_rules(rules: Rules, handicap: int) -> str:
    if handicap:
        return _("Rules: {rules}, handicap {handicap}").format(rules=texts.describe_rules(rules), handicap=handicap)
    return _("Rules: {rules}").format(rules=texts.describe_rules(rules))


def record_repairs(count: int) -> str:
    return ngettext("Read with {count} repair:", "Read with {count} repairs:", count).format(count=count)


def more_repairs(count: int) -> str:
    return _("  ... and {count} more").format(count=count)


def stones_as_they_stand() -> str:
    return _("Stones count as they stand under these rules: no stone is removed as dead.")


def map_legend() -> str:
    return _("Map: x o dead stones (miai's estimate), b w territory.")


def dead_chains(color: Color, chains: str) -> str:
    """``Dead black: A6 B6 C6 (83%); D7 (83%)``: the dead chains of one colour, with the
    estimate's confidence."""
    if color is Color.BLACK:
        return _("Dead black: {chains}").format(chains=chains)
    return _("Dead white: {chains}").format(chains=chains)


def seki_chains(chains: str) -> str:
    return _("Seki: {chains}").format(chains=chains)


def no_dead_no_seki() -> str:
    return _("No dead stones and no seki.")


def count_line(result: Result) -> str:
    return _("Count: {result}. {words}").format(result=result, words=texts.result_words(result))


def recorded_line(result: Result) -> str:
    return _("Recorded result: {result}. {words}").format(result=result, words=texts.result_words(result))
