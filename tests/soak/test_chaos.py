"""The chaos soak test (:mod:`tests.soak.chaos`): clients play on ``miai serve`` while its
processes are killed, PostgreSQL restarts and Redis stops, in each deployment; then nothing
acknowledged is lost or doubled, every client has the server's game, no clock was charged for
the time no server owned its game, and the clients met no refusal the faults do not explain.

One run a deployment, shared by its checks: ``MIAI_SOAK_SECONDS`` of faults (60 by default),
seed ``MIAI_SOAK_SEED`` (1), its directory (database, server logs) kept if ``MIAI_SOAK_KEEP`` is
set. Marked ``soak``: not in the default suite; ``python3 -m pytest -m soak tests/soak -s`` runs
it and prints each run's summary and its row of BENCHMARKS.md's table.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from miai.testing.deployment import MODES
from miai.testing.services import REDIS_SERVER, postgres_bin
from tests.soak.chaos import ChaosSettings, run, table_row

SECONDS = float(os.environ.get("MIAI_SOAK_SECONDS", "60"))
"""Seconds of faults a run."""
SEED = int(os.environ.get("MIAI_SOAK_SEED", "1"))
KEEP = bool(os.environ.get("MIAI_SOAK_KEEP"))

pytestmark = [pytest.mark.soak, pytest.mark.timeout(SECONDS + 900)]


def skip_without_services(mode: str) -> None:
    """Skip a deployment whose PostgreSQL or Redis is not installed."""
    if mode != "sqlite" and postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    if mode == "cluster" and not os.access(REDIS_SERVER, os.X_OK):
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")


@pytest.fixture(scope="module", params=MODES)
def chaos(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The summary of one chaos run in the deployment of the parameter."""
    skip_without_services(request.param)
    summary = run(ChaosSettings(mode=request.param, duration=SECONDS, seed=SEED), keep=KEEP)
    assert summary is not None, "the run went over its hard limit"
    print(json.dumps(summary, indent=2))
    print(table_row(summary))
    return summary


def test_faults_struck_while_the_clients_played(chaos):
    assert sum(chaos["faults"].values()) >= 1, chaos["fault_log"]
    assert chaos["games_created"] > 0 and chaos["verify"]["acknowledged"] > 0


def test_nothing_acknowledged_is_lost_doubled_or_out_of_sequence(chaos):
    verify = chaos["verify"]
    assert (verify["lost"], verify["doubled"], verify["mismatched"], verify["games_with_version_gaps"]) == (0, 0, 0, 0), verify
    assert verify["found_exactly_once"] == verify["acknowledged"] and verify["ok"]


def test_every_client_has_the_servers_game(chaos):
    convergence = chaos["convergence"]
    assert convergence["converged"] == convergence["games"] > 0, convergence["differ"]


def test_no_clock_was_charged_while_no_server_owned_the_game(chaos):
    clocks = chaos["clocks"]
    assert clocks["over_interval"] == [] and clocks["not_reloaded"] == [], clocks
    assert clocks["ok"]


def test_the_clients_met_only_the_refusals_the_faults_cause(chaos):
    assert chaos["client_errors"] == {}
    assert chaos["crashed_clients"] == [] and chaos["stuck_clients"] == 0
    assert chaos["gave_up"] == 0, chaos["retries"]
    assert chaos["ok"]
