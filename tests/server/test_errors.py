"""The server's refusals: every reason a 422 answer gives is one word of :class:`WireReason`."""

from __future__ import annotations

import re

import pytest

from miai.errors import IllegalMoveError, IllegalReason
from miai.server.errors import IllegalAction, WireReason, illegal


@pytest.mark.parametrize("reason", list(IllegalReason))
def test_every_rule_has_its_word_on_the_wire(reason):
    answer = illegal(IllegalMoveError(reason, "no")).to_json()
    assert answer["reason"] == WireReason.of(reason).value == reason.value.replace(" ", "-")


def test_the_wire_words_are_lower_case_and_hyphenated():
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", r.value) for r in WireReason)


def test_a_refusal_carries_its_reason_and_fields():
    answer = IllegalAction("wait", reason=WireReason.NOT_GONE_YET, claim_in_ms=5).to_json()
    assert answer == {"error": "illegal", "message": "wait", "reason": "not-gone-yet", "claim_in_ms": 5}
    with pytest.raises(ValueError):
        IllegalAction("no", reason="not a reason")  # type: ignore[arg-type]
