#!/bin/bash
# Issue 42 measurements (BENCHMARKS.md, "Adaptive search"): auto against scan, mrv,
# ply:2 and order:hints on the hinted boards, the 6x6 --all, and the E2 clue puzzles.
#   benches/adaptive.sh BINARY   (CAP=S: seconds per run, default 60)
B=$(realpath "$1")
cd "$(dirname "$0")/.."
one() { # label args...
  local label=$1; shift
  local out; out=$(timeout ${CAP:-60} $B solve "$@" --json 2>/dev/null)
  if [ -z "$out" ]; then echo "$label | timeout ${CAP:-60}s"; return; fi
  echo "$out" | python3 -c "
import json,sys; r=json.load(sys.stdin); a=r.get('auto')
ch = ' auto=%s choose=%.3fs'%(a['chosen'],a['choosing_s']) if a else ''
print('$label | sel=%s sols=%d nodes=%d search=%.4fs sym=%s%s stopped=%s'%(r['select'],r['solutions_found'],r['nodes'],r['elapsed_s'],r['symmetry'],ch,r['stopped_by']))"
}
echo "## 1. Puzzle C + 5 hints, all solutions, 2 threads"
for s in auto scan mrv ply:2 order:hints; do one "C5 $s" puzzles/hinted/b08x08_e2hints.txt --all --select $s; done
echo "## 2. 9x9 and 10x10 + 5 hints, first solution, cap ${CAP:-60}s"
for b in 09x09 10x10; do for s in auto scan mrv ply:2 order:hints; do one "$b $s" puzzles/hinted/b${b}_e2hints.txt --select $s; done; done
echo "## 3. --all without hints"
for s in auto scan; do one "6x6 $s" puzzles/brendan/pieces_06x06.txt --all --select $s; done
one "6x6 auto --no-symmetry" puzzles/brendan/pieces_06x06.txt --all --no-symmetry
echo "## 4. clue puzzles, 1,000,000 solutions, 1 thread"
for c in 1 2 3 4; do for s in auto mrv scan; do one "clue$c $s" puzzles/e2/clue$c.txt --solutions 1000000 --threads 1 --keep 0 --select $s; done; done
