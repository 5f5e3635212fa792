//! Tests of `plytile show` and the viewer link: the SVG's structure for a shipped
//! solution, a partial board with mismatches, the hints-only board, the text boards,
//! and boards round-tripped through e2.bucas.name viewer links (library and CLI).

use crate::common;

use common::{cleanup, p, plytile, puzzle_path, s, scratch_dir, stderr, stdout};
use plytile::puzzle::formats::{
    parse_board, parse_viewer_link, read_puzzle, to_viewer_link, EdgeOrder,
};
use plytile::puzzle::{rotated, verify, Board, Puzzle};
use plytile::report::board::render_ansi;
use plytile::report::svg::{board_svg, fill, mismatches, SvgOptions, PALETTE, RIM_FILL};
use std::collections::BTreeSet;

/// Brendan's 5x5 and its shipped solution.
fn brendan5() -> (Puzzle, Board) {
    let puzzle = read_puzzle(&puzzle_path("brendan/pieces_05x05.txt"), EdgeOrder::Urdl).unwrap();
    let text = std::fs::read_to_string(puzzle_path("brendan/solutions_05x05.txt")).unwrap();
    let board = parse_board(&text, "solutions_05x05.txt", &puzzle).unwrap();
    verify::check(&puzzle, &board, true).expect("the shipped solution is valid");
    (puzzle, board)
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// The edges every cell shows (None for an empty cell).
fn shown_edges(p: &Puzzle, b: &Board) -> Vec<Option<[u8; 4]>> {
    b.iter()
        .map(|c| c.map(|(q, r)| rotated(p.pieces[q], r)))
        .collect()
}

#[test]
fn svg_of_a_shipped_solution_has_every_triangle_colour_and_the_full_score() {
    let (puzzle, board) = brendan5();
    let svg = board_svg(&puzzle, &board, SvgOptions::default());
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(count(&svg, "<g class=\"cell\""), 25);
    assert_eq!(count(&svg, "<polygon class=\"tri\""), 100);
    assert_eq!(count(&svg, "class=\"empty\""), 0);
    assert_eq!(count(&svg, "class=\"mismatch\""), 0);
    assert_eq!(count(&svg, "class=\"hint\""), 0);
    assert!(svg.contains("40 of 40 inner edges matched"), "{svg}");
    // Every colour of the puzzle is drawn with its palette fill, grey for the rim.
    let colours: BTreeSet<u8> = puzzle.pieces.iter().flatten().copied().collect();
    for c in &colours {
        let tag = format!("data-colour=\"{c}\" ");
        assert!(svg.contains(&tag), "colour {c} missing");
        assert!(
            svg.contains(&format!("fill=\"{}\"", fill(*c))),
            "fill of {c}"
        );
    }
    assert_eq!(fill(0), RIM_FILL);
    // 16 rim sides on a 5x5 board: 4 * 5 grey triangles.
    assert_eq!(count(&svg, "data-colour=\"0\" "), 20);
    // No numbers unless asked for.
    assert_eq!(count(&svg, "<text"), 2);
    let numbered = board_svg(&puzzle, &board, SvgOptions { numbers: true });
    assert_eq!(count(&numbered, "<text"), 2 + 100);
}

#[test]
fn palette_colours_are_distinct_and_not_grey() {
    let mut all: Vec<String> = (0..=30).map(fill).collect();
    assert_eq!(all[0], RIM_FILL);
    assert_eq!(&all[1..=PALETTE.len()], &PALETTE.map(String::from)[..]);
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 31, "every colour up to 30 has its own fill");
}

#[test]
fn partial_board_with_a_mismatch_is_highlighted_and_scores_lower() {
    let (puzzle, mut board) = brendan5();
    // Swap the pieces of two inner cells (keeping rotations) and empty three cells.
    let (a, b) = (6, 8);
    board.swap(a, b);
    for c in [12, 17, 24] {
        board[c] = None;
    }
    let bad = mismatches(&puzzle, &board);
    assert!(
        !bad.is_empty(),
        "swapping two different pieces breaks joins"
    );
    let score = verify::score(&puzzle, &board);
    assert!(score < 40);
    let svg = board_svg(&puzzle, &board, SvgOptions::default());
    assert_eq!(count(&svg, "class=\"mismatch\""), bad.len());
    assert_eq!(count(&svg, "class=\"empty\""), 3);
    assert_eq!(count(&svg, "<polygon class=\"tri\""), 4 * 22);
    assert!(
        svg.contains(&format!(
            "{score} of 40 inner edges matched, 22 of 25 cells filled"
        )),
        "{svg}"
    );
    // Every mismatch mark is a real mismatch: a rim fault or two filled neighbours
    // whose touching colours differ.
    for (c, side) in bad {
        let e = rotated(puzzle.pieces[board[c].unwrap().0], board[c].unwrap().1);
        match puzzle.neighbour(c, side) {
            None => assert_ne!(e[side], 0),
            Some(n) => {
                let (q, r) = board[n].expect("mismatches need two filled cells");
                assert!(e[side] == 0 || rotated(puzzle.pieces[q], r)[(side + 2) % 4] != e[side]);
            }
        }
    }
    // The solution itself has none.
    assert!(mismatches(&puzzle, &brendan5().1).is_empty());
}

#[test]
fn ansi_board_paints_every_side_and_marks_mismatches() {
    let (puzzle, mut board) = brendan5();
    let text = render_ansi(&puzzle, &board);
    assert_eq!(text.lines().count(), 3 * 5);
    // 4 painted sides per cell, each reset after.
    assert_eq!(count(&text, "\x1b[48;5;"), 100);
    assert_eq!(count(&text, "\x1b[0m"), 100);
    assert!(!text.contains('!'));
    board.swap(6, 8);
    assert!(render_ansi(&puzzle, &board).contains('!'));
}

#[test]
fn viewer_link_round_trips_a_board() {
    let (puzzle, board) = brendan5();
    let link = to_viewer_link(&puzzle, &board).unwrap();
    assert!(link.starts_with("https://e2.bucas.name/#board_w=5&board_h=5&board_edges="));
    let edges = link
        .split("board_edges=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    assert_eq!(edges.len(), 100);
    // Cell 0 is the top-left corner: grey up and left.
    assert!(edges.starts_with('a') && edges.as_bytes()[3] == b'a');
    let (q, qb) = parse_viewer_link(&link, "link").unwrap();
    assert_eq!((q.width, q.height), (5, 5));
    verify::check(&q, &qb, true).expect("the link's board solves the link's puzzle");
    assert_eq!(shown_edges(&q, &qb), shown_edges(&puzzle, &board));
    // board_pieces keeps the numbering: piece k of the new puzzle is a rotation of
    // piece k of the old one, placed with rotation 0.
    for (c, cell) in qb.iter().enumerate() {
        let (k, r) = cell.unwrap();
        assert_eq!(r, 0);
        assert_eq!(Some(k), board[c].map(|x| x.0));
        assert!((0..4).any(|t| rotated(puzzle.pieces[k], t) == q.pieces[k]));
    }
    // Without board_pieces, piece i is the one on cell i.
    let bare = link.split("&board_pieces").next().unwrap();
    let (q2, b2) = parse_viewer_link(bare, "link").unwrap();
    assert_eq!(b2, (0..25).map(|i| Some((i, 0))).collect::<Board>());
    assert_eq!(shown_edges(&q2, &b2), shown_edges(&puzzle, &board));
}

#[test]
fn viewer_link_errors_are_one_line_and_name_the_problem() {
    let (puzzle, mut board) = brendan5();
    let link = to_viewer_link(&puzzle, &board).unwrap();
    let cases = [
        ("https://example.com/#w=5", "no viewer link"),
        ("https://e2.bucas.name/#board_w=5", "has no `board_h=`"),
        (
            "https://e2.bucas.name/#board_w=2&board_h=2&board_pieces=001002003004",
            "has no `board_edges=`",
        ),
        (
            &link.replace("board_w=5", "board_w=4")[..],
            "needs 4 per cell",
        ),
        (
            &link.replacen("board_edges=a", "board_edges=A", 1)[..],
            "not a colour letter",
        ),
        (
            &link.replace("board_pieces=002", "board_pieces=003")[..],
            "each of 1..=25 once",
        ),
    ];
    for (text, want) in cases {
        let e = parse_viewer_link(text, "in.url").unwrap_err().to_string();
        assert!(e.starts_with("in.url: ") && e.contains(want), "{text}: {e}");
        assert_eq!(e.lines().count(), 1);
    }
    board[7] = None;
    let partial = to_viewer_link(&puzzle, &board).unwrap();
    assert!(partial.contains("aaaa") && partial.contains("000"));
    let e = parse_viewer_link(&partial, "in.url")
        .unwrap_err()
        .to_string();
    assert!(e.contains("row 1 column 2 is empty"), "{e}");
    // an address that is no viewer link is not looked for as a file
    let url = "https://example.com/puzzle.txt";
    for args in [
        vec!["convert", url, "-o", "-"],
        vec!["show", url],
        vec!["solve", url],
    ] {
        let o = plytile(&args);
        common::assert_input_error(&o, url, None, args[0]);
        assert!(stderr(&o).contains("does not download"), "{}", stderr(&o));
    }
}

#[test]
fn cli_show_writes_svg_text_and_a_link_that_convert_reads_back() {
    let dir = scratch_dir("show");
    let (puz, sol) = (
        p("brendan/pieces_05x05.txt"),
        p("brendan/solutions_05x05.txt"),
    );
    let svg = dir.join("board.svg");
    let o = plytile(&["show", &puz, &sol, "-o", &s(&svg)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("40 of 40 inner edges matched"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(count(&text, "<polygon class=\"tri\""), 100);

    // Not a terminal: the plain board, no escape codes.
    let o = plytile(&["show", &puz, &sol]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!stdout(&o).contains('\x1b'));
    assert!(stdout(&o).ends_with("pieces_05x05 5x5: 40 of 40 inner edges matched\n"));

    // Link -> convert (literal link and a .url file) -> verify.
    let o = plytile(&["show", &puz, &sol, "--link"]);
    let link = stdout(&o).trim().to_string();
    assert!(link.starts_with("https://e2.bucas.name/#board_w=5&board_h=5&"));
    let url = dir.join("board.url");
    std::fs::write(&url, format!("[InternetShortcut]\nURL={link}\n")).unwrap();
    for (input, out) in [
        (link.clone(), dir.join("a.ron")),
        (s(&url), dir.join("b.txt")),
    ] {
        let o = plytile(&["convert", &input, "-o", &s(&out)]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let board = out.with_extension("solution.txt");
        let o = plytile(&["verify", &s(&out), &s(&board)]);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        assert!(stdout(&o).contains("40 of 40"));
        // A link as PUZZLE brings its board along.
        let o = plytile(&["show", &input, "--link"]);
        assert_eq!(stdout(&o).trim(), link);
        // The other commands want a puzzle file, and say how to make one (they told
        // the user to save the link to a file, which they then did not read).
        for cmd in ["solve", "explain", "verify"] {
            let o = plytile(
                &[cmd, &input, &s(&dir.join("a.solution.txt"))][..2 + (cmd == "verify") as usize],
            );
            assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
            assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
            assert!(
                stderr(&o).contains("`plytile convert LINK -o puzzle.txt`"),
                "{}",
                stderr(&o)
            );
        }
    }

    // A bad link: exit 2, one line naming the input.
    let o = plytile(&[
        "convert",
        "https://e2.bucas.name/#board_w=5&board_h=5&board_edges=ab",
        "-o",
        &s(&dir.join("c.ron")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).starts_with("plytile: viewer link: board_edges has 2 letters"));
    // A link without `board_edges` is still a link, not a file to look for.
    let o = plytile(&["show", "https://e2.bucas.name/#board_w=2&board_h=2"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        "plytile: viewer link: the viewer link has no `board_edges=`"
    );
    cleanup(&dir);
}

#[test]
fn cli_show_reads_solve_json_solutions_and_the_deepest_board() {
    let dir = scratch_dir("show-json");
    let puz = p("brendan/pieces_05x05.txt");
    let json = dir.join("r.json");
    let o = plytile(&["solve", &puz, "--all", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    std::fs::write(&json, &o.stdout).unwrap();
    let svg = dir.join("r.svg");
    for index in [None, Some("16")] {
        let mut args = vec![
            "show",
            &puz,
            "--json",
            json.to_str().unwrap(),
            "-o",
            svg.to_str().unwrap(),
        ];
        if let Some(k) = index {
            args.extend(["--index", k]);
        }
        let o = plytile(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("40 of 40 inner edges matched"));
    }
    let o = plytile(&["show", &puz, "--json", &s(&json), "--index", "17"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--index 17: the result holds 16 solutions"),
        "{}",
        stderr(&o)
    );

    let o = plytile(&["show", &puz, "--index", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("plytile: --index: "),
        "{}",
        stderr(&o)
    );
    // solve's JSON as SOLUTION takes --index as verify does (QA): the same board as
    // with --json, and 16 differs from the first.
    let text = |args: &[&str]| {
        let o = plytile(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let j = s(&json);
    let sixteenth = text(&["show", &puz, &j, "--index", "16"]);
    assert_eq!(
        sixteenth,
        text(&["show", &puz, "--json", &j, "--index", "16"])
    );
    assert_ne!(sixteenth, text(&["show", &puz, &j]));
    let o = plytile(&["show", &puz, &j, "--index", "17"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--index 17: the result holds 16 solutions"));
    let one = dir.join("one.txt");
    std::fs::write(&one, "0 0\n".repeat(25)).unwrap();
    let o = plytile(&["show", &puz, &s(&one), "--index", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds one board: leave --index out"),
        "{}",
        stderr(&o)
    );

    // Stopped early with none: the deepest partial board.
    let o = plytile(&[
        "solve",
        &p("brendan/pieces_06x06.txt"),
        "--max-nodes",
        "50",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    std::fs::write(&json, &o.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let filled = v["deepest"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c.is_null())
        .count();
    let o = plytile(&[
        "show",
        &p("brendan/pieces_06x06.txt"),
        "--json",
        &s(&json),
        "-o",
        &s(&svg),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("{filled} of 36 cells filled")),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(count(&text, "class=\"empty\""), 36 - filled);
    // Wrong puzzle for the result: one line naming the file.
    let o = plytile(&["show", &puz, "--json", &s(&json)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the result is for a 6x6 board, the puzzle is 5x5"));
    cleanup(&dir);
}

#[test]
fn cli_show_without_a_board_shows_the_hints_only() {
    let dir = scratch_dir("show-hints");
    let svg = dir.join("e2.svg");
    let o = plytile(&[
        "show",
        &p("e2/e2pieces.txt"),
        "--hints",
        &p("e2/e2_hints.txt"),
        "-o",
        &s(&svg),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(count(&text, "class=\"hint\""), 5);
    assert_eq!(count(&text, "class=\"empty\""), 251);
    assert_eq!(count(&text, "<polygon class=\"tri\""), 20);
    assert!(text.contains("0 of 480 inner edges matched, 5 of 256 cells filled"));
    // The starter piece 139 (index 138) at I8 turned twice.
    assert!(text.contains("data-piece=\"138\" data-rotation=\"2\""));
    cleanup(&dir);
}

#[test]
fn cli_show_names_a_piece_placed_twice_and_warns_of_a_partial_link() {
    let dir = scratch_dir("show-twice");
    let list = dir.join("twice.txt");
    // Piece 0 on the first two cells, the rest empty.
    let lines: Vec<&str> = (0..25).map(|c| if c < 2 { "0 0" } else { "-" }).collect();
    std::fs::write(&list, lines.join("\n")).unwrap();
    let puz = p("brendan/pieces_05x05.txt");
    let o = plytile(&["show", &puz, &s(&list)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).ends_with(
        "pieces_05x05 5x5: 0 of 40 inner edges matched, 2 of 25 cells filled, 3 mismatches, piece 0 placed more than once\n"
    ));
    // verify refuses the same board.
    let o = plytile(&["verify", &puz, &s(&list)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));

    // A partial board's link: printed, with a note that it cannot be read back.
    let o = plytile(&["show", &puz, &s(&list), "--link"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("https://e2.bucas.name/#board_w=5&board_h=5&"));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "plytile: note: the board has 2 of 25 cells filled, and the link holds only the placed pieces: the viewer shows it, but show and convert cannot read the puzzle back from it\n"
    );
    let link = stdout(&o).trim().to_string();
    let o = plytile(&["show", &link]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A whole board's link has no note; one of a whole board that places a piece twice
    // has, as it cannot be read back either.
    let o = plytile(&["show", &puz, &p("brendan/solutions_05x05.txt"), "--link"]);
    assert_eq!(stderr(&o), "");
    let (_, mut board) = brendan5();
    board[1] = board[0];
    let full = dir.join("full-twice.txt");
    let lines: Vec<String> = board
        .iter()
        .map(|c| c.map(|(q, r)| format!("{q} {r}")).unwrap())
        .collect();
    std::fs::write(&full, lines.join("\n")).unwrap();
    let o = plytile(&["show", &puz, &s(&full), "--link"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let first = board[0].unwrap().0;
    assert!(
        stderr(&o).starts_with(&format!(
            "plytile: note: the board places piece {first} more than once, and so does the link:"
        )),
        "{}",
        stderr(&o)
    );
    let o = plytile(&["show", stdout(&o).trim()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    cleanup(&dir);
}

/// A board that breaks a hint (another piece on its cell, or its piece elsewhere) is
/// drawn as given: the title says which hint is not on the board, and the cell gets
/// no hint mark; the board with every hint in place gets all of them.
#[test]
fn cli_show_says_which_hint_a_board_breaks() {
    let dir = scratch_dir("show-hint");
    let puz = p("hinted/b7x5_col3.txt"); // hint 0 3 6 0 among 5
    let board = |cells: &[(usize, &str)]| {
        let mut lines = vec!["-"; 35];
        for &(c, l) in cells {
            lines[c] = l;
        }
        lines.join("\n")
    };
    for (name, cells) in [
        ("elsewhere.txt", vec![(0, "6 0")]),
        ("other.txt", vec![(3, "7 0")]),
    ] {
        let f = dir.join(name);
        std::fs::write(&f, board(&cells)).unwrap();
        let svg = dir.join("b.svg");
        let o = plytile(&["show", &puz, &s(&f), "-o", &s(&svg)]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(
            stdout(&o).ends_with(", hint at row 0 column 3 (piece 6 turned 0) not on the board\n"),
            "{name}: {}",
            stdout(&o)
        );
        let text = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(count(&text, "class=\"hint\""), 4, "{name}");
    }
    let f = dir.join("none.txt");
    std::fs::write(&f, board(&[])).unwrap();
    let o = plytile(&["show", &puz, &s(&f)]);
    assert!(!stdout(&o).contains("not on the board"), "{}", stdout(&o));
    cleanup(&dir);
}

#[test]
fn repeated_pieces_lists_each_piece_once() {
    let board: Board = vec![
        Some((3, 0)),
        Some((1, 2)),
        Some((3, 1)),
        None,
        Some((1, 0)),
        Some((3, 3)),
    ];
    assert_eq!(verify::repeated_pieces(&board), vec![1, 3]);
    assert!(verify::repeated_pieces(&brendan5().1).is_empty());
}

/// solve's JSON records the puzzle's fingerprint: `show` and `verify` refuse the
/// result of another puzzle of the same size (one line, exit 2) instead of drawing or
/// judging its boards against the wrong pieces.
#[test]
fn a_result_of_another_puzzle_is_refused() {
    let dir = scratch_dir("show-other");
    let result = dir.join("r44.json");
    let o = plytile(&["solve", &p("brendan/pieces_04x04.txt"), "--json", "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(&result, &o.stdout).unwrap();
    let other = p("brendan-set2/pieces_04x04.txt");
    for args in [
        vec!["show", &other, "--json", &s(&result)],
        vec!["show", &other, &s(&result)],
        vec!["verify", &other, &s(&result)],
        vec!["verify", &other, &s(&result), "--index", "1"],
    ] {
        let o = plytile(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o)
                .contains("r44.json: is a result of another puzzle (pieces_04x04, fingerprint "),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // Its own puzzle reads it as before.
    let o = plytile(&["verify", &p("brendan/pieces_04x04.txt"), &s(&result)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    cleanup(&dir);
}

/// `show --numbers`: the colour numbers of two cells that meet stand apart (they
/// ran together, `1213`, once the cells were small: each label was 0.13 cells from
/// its edge, two digits 0.26 cells wide). Each label's box, at 0.6 em a digit, keeps
/// a gap of at least 0.2 em from every other on its line.
#[test]
fn numbers_of_neighbouring_cells_do_not_run_together() {
    use plytile::puzzle::generate::{default_colours, generate};
    let e2 = read_puzzle(&puzzle_path("e2/e2pieces.txt"), EdgeOrder::Urdl).unwrap();
    let (rim, inner) = default_colours(32, 32);
    let big = generate(32, 32, rim, inner, 5).unwrap();
    for p in [e2, big] {
        // Any full board: the pieces in file order, unturned (mismatches do not matter).
        let board: Board = (0..p.cells()).map(|i| Some((i, 0))).collect();
        let svg = board_svg(&p, &board, SvgOptions { numbers: true });
        // (x, y, font size, text) of each number.
        let mut labels = Vec::new();
        for line in svg
            .lines()
            .filter(|l| l.starts_with("<text x=") && l.contains("fill="))
        {
            let attr = |name: &str| -> f64 {
                let at = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                line[at..].split('"').next().unwrap().parse().unwrap()
            };
            let text = line.split('>').nth(1).unwrap().split('<').next().unwrap();
            labels.push((attr("x"), attr("y"), attr("font-size"), text.to_string()));
        }
        assert_eq!(labels.len(), 4 * p.cells());
        assert!(labels.iter().any(|l| l.3.len() == 2), "two-digit colours");
        let font = labels[0].2;
        assert!(font >= 8.0, "legible: {font}");
        let width = |t: &str| 0.6 * font * t.len() as f64;
        // Sorted by line, then along it.
        labels.sort_by(|a, b| (a.1, a.0).partial_cmp(&(b.1, b.0)).unwrap());
        let mut closest = f64::INFINITY;
        for pair in labels.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if (a.1 - b.1).abs() < font {
                let gap = (b.0 - a.0) - (width(&a.3) + width(&b.3)) / 2.0;
                closest = closest.min(gap);
                assert!(
                    gap >= 0.2 * font,
                    "{}x{}: '{}' at x {} and '{}' at x {} run together (gap {gap:.1} px)",
                    p.width,
                    p.height,
                    a.3,
                    a.0,
                    b.3,
                    b.0
                );
            }
        }
        assert!(closest.is_finite());
    }
}
