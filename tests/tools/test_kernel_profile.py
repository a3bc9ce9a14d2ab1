"""tools/kernel_profile.py: a search's samples named by compiled function (gdb's answers
read; and, where perf and gdb can trace, a real profile of a short search)."""

from __future__ import annotations

import shutil

import kernel_profile
import pytest

from tests.tools.atari import write_atari_record


def test_a_gdb_answer_gives_the_function_without_its_signature_or_offset():
    answer = ("miai::_kernel::heavy::heavy_move[abi:v267][abi:c8tJTIeF](Array<int, 2, C, mutable, aligned>, "
              "long long) + 3142 in section .ltext of <in-memory@0x5593949214e0>")
    assert kernel_profile.function_name(answer) == "miai::_kernel::heavy::heavy_move"
    assert kernel_profile.function_name("NRT_incref + 9 in section .ltext of <in-memory@0x55d6>") == "NRT_incref"
    assert kernel_profile.function_name("_PyEval_EvalFrameDefault + 120 in section .text of /lib/libpython3.11.so") \
        == "_PyEval_EvalFrameDefault"
    assert kernel_profile.function_name("No symbol matches 0x7ffb6099a4f6.") == "?"


@pytest.mark.skipif(not (shutil.which("perf") and shutil.which("gdb")), reason="needs perf and gdb (.ci/run installs them)")
def test_a_short_search_is_found_in_the_playouts(tmp_path):
    record = write_atari_record(tmp_path)
    by_function, total = kernel_profile.profile(str(record), [2], 1.0, 499)
    if total == 0:
        pytest.skip("perf may not trace here (kernel.perf_event_paranoid)")
    playouts = sum(n for name, n in by_function.items() if name.startswith("miai::_kernel::"))
    assert playouts > total / 2, by_function.most_common(5)
