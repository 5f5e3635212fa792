#!/bin/bash
# How close `plytile predict`'s models come to the measured tree: for each board,
# predicted / measured total nodes per model (exhaustive `--measure` runs), then per
# model how many boards lie within 1.25x (0.8 <= ratio <= 1.25) and the mean
# |log10 ratio| over the boards: one row of the accuracy tables in BENCHMARKS.md.
#   benches/predict_accuracy.sh BINARY SELECT K BOARD...
# K is both --probes and --stratified-probes; the seed is predict's default (1).
# e.g. benches/predict_accuracy.sh target/release/plytile scan 10000 puzzles/brendan/pieces_0[4-7]x0[4-5].txt
# Needs python3 for the JSON.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 BINARY SELECT K BOARD..." >&2
  exit 2
fi
bin=$1 select=$2 k=$3
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
i=0
for board in "$@"; do
  i=$((i + 1))
  "$bin" predict "$board" --select "$select" --probes "$k" --stratified-probes "$k" \
    --measure --json >"$out/$i.json"
done
python3 - "$select" "$k" "$out" "$@" <<'EOF'
import json, math, sys
select, k, out, boards = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
ratios = {}
for i, board in enumerate(boards, 1):
    r = json.load(open(f"{out}/{i}.json"))
    if not r["measured_exhaustive"]:
        sys.exit(f"{board}: the measured run was not exhaustive")
    line = [f"{board}: {r['measured_total']} nodes"]
    for model in r["models"]:
        x = r["summary"][model]["predicted_total"] / r["measured_total"]
        ratios.setdefault(model, []).append(x)
        line.append(f"{model} {x:.2f}")
    print(", ".join(line))
models = [m for m in ("analytic", "sampled", "knuth", "stratified", "owen") if m in ratios]
within = [f"{sum(0.8 <= x <= 1.25 for x in ratios[m])}/{len(ratios[m])}" for m in models]
# A prediction of 0 nodes counts as 9 orders of magnitude off.
logs = [sum(abs(math.log10(x)) if x > 0 else 9 for x in ratios[m]) / len(ratios[m]) for m in models]
print(f"| {select}, K={k} ({len(boards)} boards) | {' / '.join(models)} | "
      f"{' / '.join(within)} | {' / '.join(f'{v:.3f}' for v in logs)} |")
EOF
