"""The computer's step in the dead-stone agreement (miai.ai.marking): one rule for the
terminal, the server's computer seats and ``miai bot``."""

from __future__ import annotations

from miai.ai.marking import MarkingReply, marking_reply, reply_by_view
from miai.coords import Color
from miai.endgame import Marking, Proposal

B, W = Color.BLACK, Color.WHITE
OURS = frozenset({(0, 0), (3, 3)})
OTHER = frozenset({(0, 0)})


def test_the_first_step_proposes_its_view():
    assert marking_reply(Marking(B), OURS) is MarkingReply.PROPOSE


def test_a_proposal_like_its_view_is_accepted_and_another_countered():
    assert marking_reply(Marking(B, Proposal(B, OURS)), OURS) is MarkingReply.ACCEPT
    assert marking_reply(Marking(B, Proposal(B, OTHER)), OURS) is MarkingReply.PROPOSE


def test_a_counter_proposal_like_its_view_is_accepted_and_another_refused():
    assert marking_reply(Marking(B, Proposal(B, OTHER), Proposal(W, OURS)), OURS) is MarkingReply.ACCEPT
    assert marking_reply(Marking(B, Proposal(B, OURS), Proposal(W, OTHER)), OURS) is MarkingReply.REFUSE


def test_the_rule_reads_vertices_as_well_as_points():
    assert reply_by_view({"A1", "D4"}, {"D4", "A1"}, countered=True) is MarkingReply.ACCEPT
    assert reply_by_view({"A1"}, {"D4"}, countered=True) is MarkingReply.REFUSE
    assert reply_by_view({"A1"}, None, countered=False) is MarkingReply.PROPOSE
