#!/usr/bin/env python3
"""Writes one of Brendan Owen's set-1 puzzles with five Eternity II-like hints: the
cells (row, column from the top-left) (2,2), (2,W-3), (H-3,2), (H-3,W-3) and
(H/2,W/2) fixed as in his shipped solution (E2 fixes the same five kinds of cells:
four near the corners, one near the centre). CENTRE (`row,col`) replaces (H/2,W/2):
the 8x8 of issue 42 fixes (3,4).

    scripts/e2like_hints.py PIECES SOLUTIONS NAME [CENTRE] > puzzles/hinted/NAME.txt

PIECES: `W H`, then one piece per line (edges clockwise from the top). SOLUTIONS:
`W H`, then line i places piece i (0-based) as `x y r`: x = column from the left,
y = row from the BOTTOM, r = clockwise quarter turns (../shared/puzzles/README.md).
The output is PIECES with `hint row col piece rot` lines (rows from the top)."""
import sys

pieces_path, solutions_path, name = sys.argv[1:4]
centre = sys.argv[4] if len(sys.argv) > 4 else None
pieces = open(pieces_path).read().split("\n")
w, h = map(int, pieces[0].split())
sol = [l.split() for l in open(solutions_path).read().split("\n") if l.strip()]
assert list(map(int, sol[0])) == [w, h], "solution is of another board"
at = {}
for i, (x, y, r) in enumerate(sol[1:]):
    at[(h - 1 - int(y), int(x))] = (i, int(r))
centre = tuple(map(int, centre.split(","))) if centre else (h // 2, w // 2)
cells = [(2, 2), (2, w - 3), (h - 3, 2), (h - 3, w - 3), centre]
print(f"# {name}: {pieces_path} with five E2-like hints, the cells (row, col from the top-left) "
      + ", ".join(f"({r},{c})" for r, c in cells)
      + f" fixed as in {solutions_path.split('/')[-1]} (Brendan Owen's solution); "
      + "made by scripts/e2like_hints.py")
print("\n".join(l for l in pieces if l.strip()))
for r, c in cells:
    piece, rot = at[(r, c)]
    print(f"hint {r} {c} {piece} {rot}")
