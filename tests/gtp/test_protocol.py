"""GTP framing: preprocessing, ids, responses, the registry, and handle() never raising."""

from __future__ import annotations

import pytest

from miai.errors import IllegalMoveError, IllegalReason
from miai.gtp.protocol import (
    Command,
    Dispatcher,
    GtpError,
    clean_text,
    format_response,
    parse_command,
    preprocess,
)


# ---------------------------------------------------------------------- preprocessing
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("name", "name"),
        ("name\n", "name"),
        ("name\r\n", "name"),
        ("  name  ", "name"),
        ("\tplay\tb\tD4\t", "play b D4"),  # HT becomes a space
        ("na\x01me", "name"),  # control characters are removed, not turned into spaces
        ("na\x00m\x1be\x7f", "name"),
        ("play b D4 # a comment", "play b D4"),
        ("# only a comment", ""),
        ("#", ""),
        ("", ""),
        ("   ", ""),
        ("\t \t", ""),
        ("\r", ""),
        ("name # comment # more", "name"),
        ("1 name\nsecond line", "1 name"),  # only the first line counts
        ("komi\x0c 6.5", "komi 6.5"),
    ],
)
def test_preprocess(line: str, expected: str) -> None:
    assert preprocess(line) == expected


def test_comment_removed_before_tab_conversion() -> None:
    assert preprocess("a\t#\tb") == "a"


# ---------------------------------------------------------------------- parsing and ids
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("name", Command(None, "name", ())),
        ("1 name", Command(1, "name", ())),
        ("007 name", Command(7, "name", ())),
        ("42 play black D4", Command(42, "play", ("black", "D4"))),
        ("play   black    D4", Command(None, "play", ("black", "D4"))),
        ("12", Command(12, "", ())),
        ("-1 name", Command(None, "-1", ("name",))),  # ids are non-negative integers
        ("1.5 name", Command(None, "1.5", ("name",))),
        ("x1 name", Command(None, "x1", ("name",))),
    ],
)
def test_parse_command(line: str, expected: Command) -> None:
    assert parse_command(line) == expected


@pytest.mark.parametrize("line", ["", "  ", "# comment", "\x01\x02", "\t"])
def test_parse_command_skips_empty_lines(line: str) -> None:
    assert parse_command(line) is None


def test_command_str_round_trips() -> None:
    assert str(Command(3, "play", ("b", "D4"))) == "3 play b D4"
    assert str(Command(None, "name", ())) == "name"


# ---------------------------------------------------------------------- responses
@pytest.mark.parametrize(
    ("text", "cmd_id", "error", "expected"),
    [
        ("2", None, False, "= 2\n\n"),
        ("2", 5, False, "=5 2\n\n"),
        ("", None, False, "= \n\n"),
        (None, 3, False, "=3 \n\n"),
        ("unknown command", None, True, "? unknown command\n\n"),
        ("unknown command", 0, True, "?0 unknown command\n\n"),
        ("a\nb", None, False, "= a\nb\n\n"),
        ("a\n\nb\n\n\n", None, False, "= a\nb\n\n"),  # no empty line inside a response
        ("a\n   \nb", None, False, "= a\nb\n\n"),
        ("\nboard\nlines\n", 1, False, "=1 \nboard\nlines\n\n"),  # a leading newline is kept
        ("tab\there\r\n", None, False, "= tab here\n\n"),
        ("x\x00y", None, False, "= xy\n\n"),
    ],
)
def test_format_response(text: str | None, cmd_id: int | None, error: bool, expected: str) -> None:
    assert format_response(text, cmd_id, error=error) == expected


def test_clean_text_never_contains_an_empty_line() -> None:
    for text in ["\n\n\n", "a\n\n", "\n\na", "a\r\n\r\nb", " \n \n "]:
        cleaned = clean_text(text)
        assert "\n\n" not in cleaned
        assert not cleaned.endswith("\n")


# ---------------------------------------------------------------------- the dispatcher
def make_dispatcher() -> Dispatcher:
    d = Dispatcher()

    def echo(args):
        return " ".join(args)

    def fail(args):
        raise GtpError("it failed")

    def bug(args):
        return 1 / 0

    def illegal(args):
        raise IllegalMoveError(IllegalReason.KO, "ko: the point is forbidden")

    def nothing(args):
        return None

    d.register_all([("echo", echo), ("fail", fail), ("bug", bug), ("illegal", illegal), ("nothing", nothing)])
    return d


TRANSCRIPT = [
    ("protocol_version", "= 2\n\n"),
    ("1 protocol_version", "=1 2\n\n"),
    ("echo a b c", "= a b c\n\n"),
    ("2 echo\ta\tb # c", "=2 a b\n\n"),
    ("foo", "? unknown command\n\n"),
    ("3 foo bar", "?3 unknown command\n\n"),
    ("ECHO x", "? unknown command\n\n"),  # command names are case-sensitive
    ("fail", "? it failed\n\n"),
    ("4 fail", "?4 it failed\n\n"),
    ("illegal", "? ko: the point is forbidden\n\n"),
    ("nothing", "= \n\n"),
    ("known_command echo", "= true\n\n"),
    ("known_command genmove", "= false\n\n"),
    ("known_command", "? syntax error: known_command takes one command name\n\n"),
    ("5", "?5 empty command\n\n"),
    ("", None),
    ("# comment", None),
    ("   \t ", None),
]


@pytest.mark.parametrize(("line", "expected"), TRANSCRIPT)
def test_transcript(line: str, expected: str | None) -> None:
    assert make_dispatcher().handle(line) == expected


def test_bug_answers_with_the_exception_text_and_reports_it() -> None:
    d = make_dispatcher()
    seen = []
    d.on_exception = lambda command, exc: seen.append((command.name, type(exc)))
    assert d.handle("7 bug") == "?7 internal error: ZeroDivisionError: division by zero\n\n"
    assert seen == [("bug", ZeroDivisionError)]
    # and the dispatcher still works
    assert d.handle("echo ok") == "= ok\n\n"


def test_a_failing_exception_hook_does_not_crash() -> None:
    d = make_dispatcher()

    def broken_hook(command, exc):
        raise RuntimeError("hook broke")

    d.on_exception = broken_hook
    assert d.handle("bug").startswith("? internal error")


def test_handler_returning_a_non_string() -> None:
    d = Dispatcher()
    d.register("number", lambda args: 42)
    assert d.handle("number") == "= 42\n\n"


def test_list_commands_in_registration_order() -> None:
    d = make_dispatcher()
    assert d.handle("list_commands") == (
        "= protocol_version\nknown_command\nlist_commands\nquit\necho\nfail\nbug\nillegal\nnothing\n\n"
    )
    assert d.commands[:4] == ["protocol_version", "known_command", "list_commands", "quit"]


def test_quit_sets_the_flag_and_answers() -> None:
    d = Dispatcher()
    assert not d.quit_requested
    assert d.handle("9 quit") == "=9 \n\n"
    assert d.quit_requested


def test_register_replaces_and_unregister_removes() -> None:
    d = Dispatcher()
    d.register("x", lambda args: "one")
    d.register("x", lambda args: "two")
    assert d.handle("x") == "= two\n\n"
    d.unregister("x")
    assert d.handle("x") == "? unknown command\n\n"
    assert not d.known("x")


@pytest.mark.parametrize("name", ["", "two words", "has#hash", "tab\tname", "nl\n"])
def test_register_rejects_bad_names(name: str) -> None:
    with pytest.raises(ValueError):
        Dispatcher().register(name, lambda args: "")


@pytest.mark.parametrize(
    "line",
    ["\x00", "\xff\xfe", "1" * 1000 + " name", "name " + "x" * 100000, "💥 boom", "9" * 50, "\u2028name"],
)
def test_handle_never_raises_on_odd_input(line: str) -> None:
    response = make_dispatcher().handle(line)
    assert response is None or response.endswith("\n\n")


def test_an_id_too_long_for_any_controller_is_refused_not_a_crash() -> None:
    """A 5,000-digit id made int() raise inside the parser (an internal error)."""
    d = Dispatcher()
    assert d.handle("9" * 18 + " protocol_version") == "=" + "9" * 18 + " 2\n\n"
    assert d.handle("9" * 19 + " protocol_version") == "? syntax error: a command id has at most 18 digits, not 19\n\n"
    assert d.handle("9" * 5000 + " protocol_version") == "? syntax error: a command id has at most 18 digits, not 5000\n\n"
    assert d.handle("0" * 19 + "7 protocol_version").startswith("? syntax error: a command id")


def test_gtp_errors_are_miai_errors() -> None:
    from miai.errors import MiaiError

    assert issubclass(GtpError, MiaiError) and issubclass(GtpError, ValueError)
