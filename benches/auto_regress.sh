#!/bin/bash
# Issue 42: first solution, --threads 1, auto against scan on every Brendan board
# (both sets) of at most 64 cells; CAP=S seconds per run (default 20).
#   benches/auto_regress.sh BINARY
B=$(realpath "$1"); cd "$(dirname "$0")/.."
for f in puzzles/brendan/pieces_*.txt puzzles/brendan-set2/pieces_*.txt; do
  read w h < <(head -1 $f | grep -o '[0-9]* [0-9]*' | head -1)
  [ -z "$w" ] && continue
  [ $((w*h)) -gt 64 ] && continue
  row="$f"
  for s in auto scan; do
    out=$(timeout ${CAP:-20} $B solve $f --threads 1 --select $s --json 2>/dev/null)
    if [ -z "$out" ]; then row="$row | $s timeout"; continue; fi
    row="$row | $(echo "$out" | python3 -c "
import json,sys; r=json.load(sys.stdin); a=r.get('auto')
print('%s %.4f%s'%(r['select'], r['elapsed_s'], ' +%.3f'%a['choosing_s'] if a else ''))")"
  done
  echo "$row"
done
