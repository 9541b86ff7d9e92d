#!/usr/bin/env bash
# Builds Christophe Steininger's Connect Four solver, the anchor that
# scripts/measure/wide-boards.sh times c4 against, once per board size, in a
# directory outside this repository. Its source is AGPL and is never part
# of c4: this script clones it, sets the board in a copy of its
# `src/solver/settings.h` (BOARD_WIDTH, BOARD_HEIGHT) and compiles it with
# the flags of its own CMake release build (-O3 -flto), g++ and no CMake
# needed. Everything else keeps its defaults: a 1 GB table, every core.
#
#   scripts/measure/build-steininger.sh DIR [WxH ...]    (default sizes: 9x4 10x4 7x6)
#
# Leaves DIR/WxH/c4-steininger for each size and prints the lines to paste:
# C4_STEININGER_9X4=DIR/9x4/c4-steininger ... The commit built is the
# clone's HEAD, printed too (the figures in docs/benchmarks.md name it).
# Needs git, network access to GitHub, and g++ with C++20.
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 DIR [WxH ...]" >&2
    exit 2
fi
dir=$(mkdir -p "$1" && cd "$1" && pwd)
shift
sizes=("$@")
((${#sizes[@]})) || sizes=(9x4 10x4 7x6)

src="$dir/source"
if [[ ! -d "$src/.git" ]]; then
    git clone --quiet https://github.com/ChristopheSteininger/c4 "$src"
fi
echo "# Steininger's solver at $(git -C "$src" rev-parse --short HEAD)"

for size in "${sizes[@]}"; do
    if [[ ! $size =~ ^([0-9]+)x([0-9]+)$ ]]; then
        echo "$0: bad size '$size' (expected WxH, e.g. 9x4)" >&2
        exit 2
    fi
    width=${BASH_REMATCH[1]}
    height=${BASH_REMATCH[2]}
    out="$dir/$size"
    rm -rf "$out"
    mkdir -p "$out"
    cp -r "$src/src" "$out/src"
    sed -i -e "s/BOARD_WIDTH = [0-9]*;/BOARD_WIDTH = $width;/" \
        -e "s/BOARD_HEIGHT = [0-9]*;/BOARD_HEIGHT = $height;/" "$out/src/solver/settings.h"
    grep -q "BOARD_WIDTH = $width;" "$out/src/solver/settings.h" \
        || { echo "$0: could not set the board in settings.h" >&2; exit 1; }
    g++ -std=c++20 -O3 -flto -DNDEBUG -pthread -o "$out/c4-steininger" \
        "$out/src/c4.cpp" "$out"/src/solver/*.cpp "$out"/src/solver/*/*.cpp
    echo "C4_STEININGER_${size^^}=$out/c4-steininger"
done
