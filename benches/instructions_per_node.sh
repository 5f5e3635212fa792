#!/bin/bash
# Instructions per node of one search, counted by callgrind (reproducible on a noisy
# machine, unlike wall-clock rates): (Ir(N nodes) - Ir(1 node)) / (N - 1), one thread.
#   benches/instructions_per_node.sh BINARY SELECT N PUZZLE [solve options...]
# e.g. benches/instructions_per_node.sh target/release/plytile mrv 1000000 \
#        puzzles/wortmann8x8/puzzleD_8x8_set2.txt
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 BINARY SELECT N PUZZLE [solve options...]" >&2
  exit 2
fi
bin=$1 select=$2 n=$3 puzzle=$4
shift 4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ir() {
  local k=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$k" "$bin" solve "$puzzle" "$@" \
    --select "$select" --all -q --threads 1 --max-nodes "$k" >/dev/null 2>"$out/err.$k" || true
  if grep -q "unhandled instruction" "$out/err.$k"; then
    # valgrind 3.19-3.2x decodes no AVX-512: a target-cpu=native build on such a CPU
    # dies at its first AVX-512 instruction, before the search.
    echo "$0: valgrind cannot decode $bin (AVX-512?); count a build without it:" >&2
    echo "  RUSTFLAGS='-C target-cpu=x86-64-v3' CARGO_TARGET_DIR=target/v3 cargo build --release" >&2
    echo "  $0 target/v3/release/plytile ..." >&2
    exit 2
  fi
  if ! grep -o "Collected : [0-9]*" "$out/err.$k" | grep -o "[0-9]*"; then
    echo "$0: valgrind gave no count for $bin; its output:" >&2
    cat "$out/err.$k" >&2
    exit 2
  fi
}
a=$(ir "$n" "$@")
b=$(ir 1 "$@")
echo "scale=2; ($a - $b) / ($n - 1)" | bc
