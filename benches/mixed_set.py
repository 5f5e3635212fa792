#!/usr/bin/env python3
"""Issue 42's mixed set: is `--select auto`'s choice the fastest of its candidates?

On 20 boards (Brendan's two sets, the E2 clue puzzles, hinted boards, generated
boards with few colours), each with a goal (first solution, K solutions or all):
auto's choice (`solve --max-nodes 1 --json`: the choice is made, the search stops at
once), then every candidate it weighs run alone on one thread, capped at CAP
seconds. auto is right on a board when its choice's time is at most 1.5x the
fastest candidate's. Prints a Markdown table and the count; --json keeps the rows.

    benches/mixed_set.py BINARY [--cap S] [--json OUT] [--only TEXT,...]
                         [--extra SELECT,...]

--only keeps the boards whose name contains one of the comma-separated texts (e.g.
`--only hints,cross,row,col` for the hinted ones). --extra also times heuristics auto
does not weigh, each against the fastest candidate; a switch depth may be a fraction
of the board's cells (`ply:2@1/8` is ply:2@8 on an 8x8), e.g. `--extra
ply:2@1/8,ply:2@1/4,mrv@1/4` asks whether weighing the hybrids would change a choice.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, puzzle file or gen arguments, goal flags)
BOARDS = [
    ("brendan 6x6", "puzzles/brendan/pieces_06x06.txt", []),
    ("brendan 7x7", "puzzles/brendan/pieces_07x07.txt", []),
    ("brendan 8x5", "puzzles/brendan/pieces_08x05.txt", []),
    ("brendan 10x6", "puzzles/brendan/pieces_10x06.txt", []),
    ("brendan 16x3", "puzzles/brendan/pieces_16x03.txt", []),
    ("brendan-2 6x6", "puzzles/brendan-set2/pieces_06x06.txt", []),
    ("brendan-2 7x6", "puzzles/brendan-set2/pieces_07x06.txt", []),
    ("brendan-2 15x3", "puzzles/brendan-set2/pieces_15x03.txt", []),
    ("clue 1, 1e5 sol", "puzzles/e2/clue1.txt", ["--solutions", "100000"]),
    ("clue 2, 1e5 sol", "puzzles/e2/clue2.txt", ["--solutions", "100000"]),
    ("clue 3, 1e5 sol", "puzzles/e2/clue3.txt", ["--solutions", "100000"]),
    ("clue 4, 1e5 sol", "puzzles/e2/clue4.txt", ["--solutions", "100000"]),
    ("8x8 + 5 hints, all", "puzzles/hinted/b08x08_e2hints.txt", ["--all"]),
    ("9x9 + 5 hints", "puzzles/hinted/b09x09_e2hints.txt", []),
    ("7x7 cross, all", "puzzles/hinted/b7x7_cross.txt", ["--all"]),
    ("8x6 row 2, all", "puzzles/hinted/b8x6_row2.txt", ["--all"]),
    ("gen 7x6 col 3, all", "puzzles/hinted/g7x6_col3.txt", ["--all"]),
    ("gen 7x7 2+3 colours, 1e4 sol", ["7", "7", "2", "3", "1"], ["--solutions", "10000"]),
    ("gen 8x8 2+4 colours, 1e4 sol", ["8", "8", "2", "4", "1"], ["--solutions", "10000"]),
    ("gen 10x10 3+5 colours", ["10", "10", "3", "5", "1"], []),
]


def run(binary, args):
    out = subprocess.run([binary] + args, cwd=ROOT, capture_output=True, text=True)
    if not out.stdout.strip():
        sys.exit(f"{binary} {' '.join(args)}: no JSON ({out.stderr.strip()})")
    return json.loads(out.stdout)


def puzzle_file(binary, spec, tmp):
    if isinstance(spec, str):
        return spec
    w, h, rim, inner, seed = spec
    path = os.path.join(tmp, f"gen_{w}x{h}_{rim}_{inner}_{seed}.txt")
    subprocess.run(
        [binary, "gen", "--width", w, "--height", h, "--rim-colours", rim,
         "--inner-colours", inner, "--seed", seed, "-o", path],
        cwd=ROOT, check=True, capture_output=True)
    return path


def at_depth(h, cells):
    """`ply:2@1/8` on a board of `cells` cells: ply:2@(cells/8); other text as it is."""
    if "@" in h and "/" in h.split("@")[1]:
        name, frac = h.split("@")
        num, den = frac.split("/")
        return f"{name}@{round(cells * int(num) / int(den))}"
    return h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--cap", type=float, default=30.0)
    ap.add_argument("--json")
    ap.add_argument("--only", help="comma-separated texts: keep boards whose name has one")
    ap.add_argument("--extra", help="comma-separated heuristics to time beside the candidates")
    a = ap.parse_args()
    only = a.only.split(",") if a.only else None
    binary = os.path.abspath(a.binary)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec, goal in BOARDS:
            if only and not any(t in name for t in only):
                continue
            f = puzzle_file(binary, spec, tmp)
            base = ["solve", f, "--threads", "1", "--json"] + goal
            chosen_run = run(binary, base + ["--max-nodes", "1"])
            choice = chosen_run["auto"]
            names = [c["select"] for c in choice["candidates"]] + choice.get("skipped", [])
            weighed = len(names)
            if a.extra:
                size = chosen_run["width"] * chosen_run["height"]
                names += [at_depth(h, size) for h in a.extra.split(",")]
            times = {}
            for h in names:
                r = run(binary, base + ["--select", h, "--timeout", str(a.cap)])
                capped = r["stopped_by"] == "timeout"
                times[h] = (r["elapsed_s"], capped)
            finished = [t for h, (t, capped) in times.items()
                        if not capped and h in names[:weighed]]
            best = min(finished) if finished else None
            chosen = choice["chosen"]
            t, capped = times[chosen]
            ratio = (t / best if best and best > 0 else 1.0) if not capped else None
            ok = (ratio is not None and ratio <= 1.5) or (best is None and capped)
            rows.append({"board": name, "goal": " ".join(goal) or "first solution",
                         "chosen": chosen, "choosing_s": choice["choosing_s"],
                         "times_s": {h: v[0] for h, v in times.items()},
                         "capped": [h for h, v in times.items() if v[1]],
                         "ratio": ratio, "ok": ok})
            cells = ", ".join(
                f"{h} {v[0]:.3f}{'+' if v[1] else ''}" for h, v in times.items())
            beats = [h for h in names[weighed:] if not times[h][1]
                     and (best is None or times[h][0] < best / 1.5)]
            if beats:
                cells += f" (not weighed, 1.5x faster than every candidate: {', '.join(beats)})"
            print(f"| {name} | {chosen} | {'-' if ratio is None else f'{ratio:.2f}'} | "
                  f"{'yes' if ok else 'NO'} | {cells} |", flush=True)
    good = sum(r["ok"] for r in rows)
    print(f"\nauto's choice fastest or within 1.5x of it on {good} of {len(rows)} boards "
          f"(cap {a.cap:g} s per run; '+' = capped)")
    if a.json:
        with open(a.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
