"""Random playouts per second: miai's numba kernel against the C baseline, side by side.

Both programs implement the same playout rule with the same algorithm (see the comment at the top of
``benchmarks/baseline/playout.c``), so the ratio compares implementations, not algorithms.

    python benchmarks/playouts.py                        # sizes 9 and 19, 5 rounds of 3 s each
    python benchmarks/playouts.py --only-c --seconds 1   # the C baseline alone

The script builds the C program with ``gcc -O2``, then for each size runs ``--runs`` rounds; a round
runs the C baseline and ``miai bench playouts --size N --seconds S`` one after the other (the order
alternates from round to round, so a slow drift of the machine does not favour either). It reports
medians, which suit a shared, noisy machine, and the median of the per-round ratios miai / C, and ends
with a Markdown table ready for BENCHMARKS.md. If ``miai bench`` fails, its stderr is printed and the
C figures are reported alone with a note; no miai figure is ever made up.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
C_SOURCE = HERE / "baseline" / "playout.c"
C_BINARY = HERE / "baseline" / "playout"
CFLAGS = ["-O2", "-std=c99"]

# How long a miai run may take beyond its measured seconds (the first run may compile with numba).
MIAI_GRACE_SECONDS = 600.0


class BenchError(RuntimeError):
    """A benchmark program failed; the message says how, including its stderr."""


@dataclass
class Sample:
    """One timed run of one implementation."""

    playouts_per_second: float
    moves_per_playout: float
    black_win_rate: float | None
    raw: dict


@dataclass
class SizeResult:
    """All rounds of one board size."""

    size: int
    c: list[Sample] = field(default_factory=list)
    miai: list[Sample] = field(default_factory=list)


# -- running the programs ---------------------------------------------------------------------------


def build_c() -> None:
    """Compile the C baseline into benchmarks/baseline/playout."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise BenchError("gcc not found on PATH")
    cmd = [gcc, *CFLAGS, "-o", str(C_BINARY), str(C_SOURCE)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"building the C baseline failed: {shlex.join(cmd)}\n{proc.stderr}")


def parse_json_output(stdout: str) -> dict:
    """The JSON object that ends a benchmark's output (one line or pretty-printed, after any chatter)."""
    text = stdout.strip()
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            value, end = None, -1
        if isinstance(value, dict) and not text[end:].strip():
            return value
        start = text.find("{", start + 1)
    raise BenchError(f"no JSON object at the end of the output:\n{stdout}")


def to_sample(data: dict) -> Sample:
    """A Sample from a benchmark's JSON object (which must carry the two required keys)."""
    try:
        pps = float(data["playouts_per_second"])
        mpp = float(data["moves_per_playout"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BenchError(f"the JSON output lacks a usable {exc}: {data}") from exc
    rate = data.get("black_win_rate")
    if rate is None and "black_wins" in data and data.get("playouts"):
        rate = data["black_wins"] / data["playouts"]
    return Sample(pps, mpp, None if rate is None else float(rate), data)


def run(cmd: list[str], timeout: float) -> Sample:
    """Run one benchmark command and read its JSON line."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise BenchError(f"{shlex.join(cmd)} timed out after {timeout:.0f} s\n{exc.stderr or ''}")
    except OSError as exc:
        raise BenchError(f"{shlex.join(cmd)} could not start: {exc}")
    if proc.returncode != 0:
        raise BenchError(
            f"{shlex.join(cmd)} exited with status {proc.returncode}\n"
            f"--- stderr ---\n{proc.stderr}--- stdout ---\n{proc.stdout}"
        )
    try:
        return to_sample(parse_json_output(proc.stdout))
    except BenchError as exc:
        raise BenchError(f"{shlex.join(cmd)}: {exc}\n--- stderr ---\n{proc.stderr}") from None


def c_command(size: int, seconds: float, seed: int) -> list[str]:
    return [str(C_BINARY), str(size), repr(float(seconds)), str(seed)]


def miai_command(prefix: list[str], size: int, seconds: float) -> list[str]:
    return [*prefix, "bench", "playouts", "--size", str(size), "--seconds", repr(float(seconds))]


def default_miai_prefix() -> list[str]:
    """The installed ``miai`` command, or else ``python -m miai`` with this interpreter."""
    exe = shutil.which("miai")
    return [exe] if exe else [sys.executable, "-m", "miai"]


# -- reporting ---------------------------------------------------------------------------------------


def machine_description() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    arch = subprocess.run(["uname", "-m"], capture_output=True, text=True).stdout.strip()
    arch = arch or platform.machine()
    cpus = os.cpu_count() or 0
    return f"{arch}, {model or 'unknown CPU'}, {cpus} logical CPUs"


def gcc_version() -> str:
    proc = subprocess.run(["gcc", "--version"], capture_output=True, text=True)
    return proc.stdout.splitlines()[0] if proc.returncode == 0 and proc.stdout else "gcc"


def median(values: list[float]) -> float:
    return statistics.median(values)


def win_rate(samples: list[Sample]) -> str:
    rates = [s.black_win_rate for s in samples if s.black_win_rate is not None]
    return f"{100 * median(rates):.1f}%" if rates else "n/a"


def ratio_median(result: SizeResult) -> float | None:
    """Median over rounds of miai / C (only rounds in which both ran)."""
    pairs = list(zip(result.c, result.miai))
    if not pairs:
        return None
    return median([m.playouts_per_second / c.playouts_per_second for c, m in pairs])


def rule_mismatch(result: SizeResult) -> str | None:
    """A warning if miai's moves per playout differ from C's by more than 2 %: the two would then not
    be playing the same rule, and their ratio would not compare like with like."""
    if not result.miai:
        return None
    c_mpp = median([s.moves_per_playout for s in result.c])
    m_mpp = median([s.moves_per_playout for s in result.miai])
    if abs(m_mpp - c_mpp) <= 0.02 * c_mpp:
        return None
    return (
        f"on {result.size}×{result.size} miai averages {m_mpp:.1f} moves per playout and C {c_mpp:.1f}: "
        "the playout rules (or the way turns are counted) differ, so the ratio is not like for like."
    )


def print_size_report(result: SizeResult) -> None:
    c_pps = [s.playouts_per_second for s in result.c]
    print(f"\n{result.size}x{result.size}:")
    print(
        f"  C baseline  median {median(c_pps):>10,.0f} playouts/s   "
        f"rounds: {', '.join(f'{v:,.0f}' for v in c_pps)}"
    )
    print(
        f"              moves/playout {median([s.moves_per_playout for s in result.c]):.1f}"
        f"  (stones placed {median([s.raw.get('stones_per_playout', float('nan')) for s in result.c]):.1f}),"
        f"  black wins {win_rate(result.c)}"
    )
    if result.miai:
        m_pps = [s.playouts_per_second for s in result.miai]
        print(
            f"  miai        median {median(m_pps):>10,.0f} playouts/s   "
            f"rounds: {', '.join(f'{v:,.0f}' for v in m_pps)}"
        )
        print(
            f"              moves/playout {median([s.moves_per_playout for s in result.miai]):.1f},"
            f"  black wins {win_rate(result.miai)}"
        )
        ratio = ratio_median(result)
        if ratio is not None:
            print(f"  miai / C    {ratio:.3f} (median of {len(result.miai)} per-round ratios)")
        warning = rule_mismatch(result)
        if warning:
            print(f"  WARNING: {warning}")


def markdown_table(results: list[SizeResult], args: argparse.Namespace, note: str | None) -> str:
    with_miai = any(r.miai for r in results)
    lines = []
    if with_miai:
        lines.append(
            "| Board | C baseline playouts/s | miai playouts/s | miai / C "
            "| moves/playout C / miai | black wins C / miai |"
        )
        lines.append("|---|---:|---:|---:|---:|---:|")
    else:
        lines.append("| Board | C baseline playouts/s | moves/playout | stones placed/playout | black wins |")
        lines.append("|---|---:|---:|---:|---:|")
    for r in results:
        c_pps = median([s.playouts_per_second for s in r.c])
        c_mpp = median([s.moves_per_playout for s in r.c])
        board = f"{r.size}×{r.size}"
        if with_miai:
            if r.miai:
                m_pps = median([s.playouts_per_second for s in r.miai])
                m_mpp = median([s.moves_per_playout for s in r.miai])
                ratio = ratio_median(r)
                lines.append(
                    f"| {board} | {c_pps:,.0f} | {m_pps:,.0f} | {ratio:.2f} "
                    f"| {c_mpp:.1f} / {m_mpp:.1f} | {win_rate(r.c)} / {win_rate(r.miai)} |"
                )
            else:
                lines.append(
                    f"| {board} | {c_pps:,.0f} | not measured | – | {c_mpp:.1f} / – | {win_rate(r.c)} / – |"
                )
        else:
            c_spp = median([s.raw.get("stones_per_playout", float("nan")) for s in r.c])
            lines.append(f"| {board} | {c_pps:,.0f} | {c_mpp:.1f} | {c_spp:.1f} | {win_rate(r.c)} |")

    command = shlex.join(["python", "benchmarks/playouts.py", *sys.argv[1:]])
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    summary = f"Medians of {args.runs} rounds of {args.seconds:g} s each, single thread"
    if with_miai:
        summary += ", C and miai interleaved; miai / C is the median of the per-round ratios"
    lines += [
        "",
        summary + ". Moves per playout count every turn, passes included.",
        "",
        f"- Command: `{command}`",
        f"- Machine: {machine_description()}",
        f"- Compilers: {gcc_version()} with `{' '.join(CFLAGS)}`; Python {platform.python_version()}",
        f"- Date: {today}",
    ]
    if note:
        lines += [f"- Note: {note}"]
    for r in results:
        warning = rule_mismatch(r)
        if warning:
            lines += [f"- Warning: {warning}"]
    return "\n".join(lines)


# -- main --------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], metavar="N",
                        help="board sizes (default: 9 19)")
    parser.add_argument("--runs", type=int, default=5, help="rounds per size (default: 5)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="seconds per run of each implementation (default: 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the C baseline (default: 1)")
    parser.add_argument("--only-c", action="store_true", help="run the C baseline alone")
    parser.add_argument("--miai", default=None, metavar="CMD",
                        help="how to start miai (default: the `miai` on PATH, else `python -m miai`)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.seconds <= 0 or args.seed < 1:
        parser.error("--runs and --seed must be >= 1 and --seconds > 0")
    for n in args.sizes:
        if not 2 <= n <= 25:
            parser.error(f"board size {n} is not between 2 and 25")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        build_c()
    except BenchError as exc:
        print(exc, file=sys.stderr)
        return 2

    miai_prefix = None if args.only_c else (shlex.split(args.miai) if args.miai else default_miai_prefix())
    note = "run with --only-c: miai not measured." if args.only_c else None
    c_timeout = args.seconds + 60.0
    miai_timeout = args.seconds + MIAI_GRACE_SECONDS

    def run_miai(size: int, seconds: float) -> Sample | None:
        """One miai run; on failure prints why, disables miai for the rest and returns None."""
        nonlocal miai_prefix, note
        if miai_prefix is None:
            return None
        try:
            return run(miai_command(miai_prefix, size, seconds), miai_timeout)
        except BenchError as exc:
            sys.stdout.flush()
            print(f"\nmiai bench failed; reporting the C baseline alone.\n{exc}", file=sys.stderr, flush=True)
            note = (
                f"`miai bench playouts` failed on {size}×{size} (its stderr is in the run's output), "
                "so miai is not measured from that size on; those rows are the C baseline alone."
            )
            miai_prefix = None
            return None

    results = []
    for size in args.sizes:
        result = SizeResult(size)
        # Warm-up, discarded: pages the C binary in, and lets numba compile or load its cache.
        run(c_command(size, min(0.5, args.seconds), args.seed), c_timeout)
        run_miai(size, min(0.5, args.seconds))
        for i in range(args.runs):
            order = ("c", "miai") if i % 2 == 0 else ("miai", "c")
            for impl in order:
                if impl == "c":
                    sample = run(c_command(size, args.seconds, args.seed), c_timeout)
                    result.c.append(sample)
                    which = "C   "
                else:
                    sample = run_miai(size, args.seconds)
                    if sample is None:
                        continue
                    result.miai.append(sample)
                    which = "miai"
                print(
                    f"{size}x{size} round {i + 1}/{args.runs} {which} "
                    f"{sample.playouts_per_second:>10,.0f} playouts/s, "
                    f"{sample.moves_per_playout:.1f} moves/playout",
                    flush=True,
                )
        # A miai failure part-way leaves unpaired rounds: drop them so medians stay comparable.
        if miai_prefix is None:
            result.miai = []
        results.append(result)

    for result in results:
        print_size_report(result)
    if note:
        print(f"\nNote: {note}")
    print("\nMarkdown for BENCHMARKS.md:\n")
    print(markdown_table(results, args, note))
    return 1 if (not args.only_c and miai_prefix is None) else 0


if __name__ == "__main__":
    sys.exit(main())
