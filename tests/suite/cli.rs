//! Tests of the `plytile` binary: exit codes, JSON output, verify, gen, convert, and
//! one-line errors on malformed input.

use crate::common;

use common::{
    assert_input_error, brute_force, cleanup, code, no_panic, p, plytile, puzzle_path, s,
    scratch_dir, stderr, stdout,
};
use plytile::puzzle::formats::{parse_board, read_puzzle, to_text, EdgeOrder};
use plytile::puzzle::generate::{default_colours, generate};
use plytile::puzzle::{verify, Puzzle};
use std::path::Path;
use std::process::Output;

/// An unsolvable puzzle that passes validation: one edge of one inner piece of a
/// planted puzzle gets another inner colour, so that two colours occur an odd number
/// of times and can no longer all be paired.
fn unsolvable(seed: u64) -> Puzzle {
    let (rim, inner) = (2, 3);
    let mut q = generate(4, 4, rim, inner, seed).unwrap();
    let i = q
        .pieces
        .iter()
        .position(|x| x.iter().all(|&c| c != 0))
        .unwrap();
    let c = q.pieces[i][0];
    let lo = rim as u8 + 1;
    let other = lo + ((c - lo + 1) % inner as u8);
    assert_ne!(other, c);
    q.pieces[i][0] = other;
    q.validate("unsolvable").unwrap();
    assert_eq!(brute_force(&q).solutions, 0);
    q
}

// ---------------------------------------------------------------------------------
// solve: exit codes and output

#[test]
fn solve_exit_0_when_found() {
    let o = plytile(&["solve", &p("brendan/pieces_04x04.txt")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("solutions   1"), "{}", stdout(&o));
    let o = plytile(&[
        "solve",
        &p("brendan/pieces_04x04.txt"),
        "--all",
        "--select",
        "scan",
        "-q",
    ]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).contains("36 solution(s), exhaustive, 4471 nodes"),
        "{}",
        stdout(&o)
    );
    let o = plytile(&[
        "solve",
        &p("brendan/pieces_05x04.txt"),
        "--solutions",
        "7",
        "-q",
    ]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).contains("7 solution(s), not exhaustive"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_text_report_draws_three_boards_or_keep_many_and_says_how_many_more() {
    let drawn = |extra: &[&str]| {
        let mut args = vec!["solve", "--all"];
        let path = p("brendan/pieces_05x05.txt");
        args.push(&path);
        args.extend_from_slice(extra);
        let o = plytile(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let out = stdout(&o);
        let boards = out
            .lines()
            .filter(|l| l.starts_with("solution ") && l.ends_with(':'))
            .count();
        let more = out
            .lines()
            .find(|l| l.contains("more solution boards"))
            .map(str::to_string);
        (boards, more)
    };
    let more = |n: usize| {
        Some(format!(
            "({n} more solution boards kept, not drawn: --keep N draws N, --json lists them)"
        ))
    };
    assert_eq!(drawn(&[]), (3, more(13)));
    assert_eq!(drawn(&["--keep", "5"]), (5, None));
    assert_eq!(drawn(&["--keep", "20"]), (16, None));
}

#[test]
fn solve_exit_1_when_none_exists() {
    let dir = scratch_dir("cli-unsolvable");
    for seed in [1u64, 2, 3] {
        let f = dir.join(format!("unsolvable{seed}.txt"));
        std::fs::write(&f, to_text(&unsolvable(seed))).unwrap();
        for sel in ["scan", "mrv"] {
            let o = plytile(&["solve", &s(&f), "--select", sel]);
            assert_eq!(code(&o), 1, "{sel}: {}", stderr(&o));
            let o = plytile(&["solve", &s(&f), "--select", sel, "--all", "--json"]);
            assert_eq!(code(&o), 1);
            let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
            assert_eq!(v["solutions_found"], 0);
            assert_eq!(v["exhaustive"], true);
            assert_eq!(v["solutions"].as_array().unwrap().len(), 0);
        }
    }
    cleanup(&dir);
}

/// A colour on an odd number of piece sides cannot pair off on any board: a note says
/// so at once (a long search would otherwise be the only answer), and the search agrees.
#[test]
fn a_colour_on_an_odd_number_of_sides_is_noted() {
    let dir = scratch_dir("cli-odd");
    let text = std::fs::read_to_string(p("brendan/pieces_03x03.txt")).unwrap();
    // The centre piece `3 3 4 4` with one side mistyped: colour 3 on 3 sides (and 5 on 1).
    assert!(text.contains("\n3 3 4 4\n"));
    let f = dir.join("typo.txt");
    std::fs::write(&f, text.replace("\n3 3 4 4\n", "\n3 5 4 4\n")).unwrap();
    let o = plytile(&["solve", &s(&f), "--all"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("colour 3 shows on 3 piece sides, an odd number"),
        "{}",
        stderr(&o)
    );
    // The file as shipped: no note.
    let o = plytile(&["solve", &p("brendan/pieces_03x03.txt")]);
    assert_eq!(code(&o), 0);
    assert!(!stderr(&o).contains("odd number"), "{}", stderr(&o));
    cleanup(&dir);
}

#[test]
fn solve_exit_3_when_stopped_by_a_limit() {
    let o = plytile(&[
        "solve",
        &p("brendan/pieces_10x10.txt"),
        "--max-nodes",
        "10",
        "--json",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes"], 10);
    assert_eq!(v["exhaustive"], false);
    assert_eq!(v["stopped_by"], "max_nodes");
    let o = plytile(&[
        "solve",
        &p("brendan/pieces_16x16.txt"),
        "--timeout",
        "0.2",
        "-q",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    // E2 with its five hints, briefly
    let o = plytile(&[
        "solve",
        &p("e2/e2pieces.txt"),
        "--hints",
        &p("e2/e2_hints.txt"),
        "--max-nodes",
        "2000",
        "--json",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let board = v["deepest"]["board"].as_array().unwrap();
    assert_eq!(board.len(), 256);
    assert_eq!(
        board[8 * 16 + 7],
        serde_json::json!([138, 2]),
        "the starter piece is on its hint cell"
    );
}

#[test]
fn solve_json_has_the_documented_keys_and_verifies() {
    let dir = scratch_dir("cli-json");
    let puzzle = p("brendan/pieces_05x04.txt");
    let o = plytile(&["solve", &puzzle, "--all", "--select", "scan", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.trim().lines().count(), 1, "one JSON object on one line");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "select",
        "solutions_found",
        "exhaustive",
        "stopped_by",
        "nodes",
        "nodes_per_depth",
        "elapsed_s",
        "nodes_per_s",
        "solutions",
        "deepest",
        "puzzle",
        "width",
        "height",
        "threads",
        "version",
    ] {
        assert!(v.get(key).is_some(), "key {key} missing in {out}");
    }
    // The CPU extensions of the build (`target-cpu`): the test is built with the
    // same flags as the binary.
    let features: Vec<&str> = v["cpu_features"].as_str().unwrap().split(' ').collect();
    assert_eq!(
        features.contains(&"avx2"),
        cfg!(target_feature = "avx2"),
        "{out}"
    );
    assert_eq!(
        features.contains(&"popcnt"),
        cfg!(target_feature = "popcnt"),
        "{out}"
    );
    assert_eq!(v["select"], "scan");
    assert_eq!(v["solutions_found"], 1952);
    assert_eq!(v["exhaustive"], true);
    assert_eq!(v["stopped_by"], serde_json::Value::Null);
    // Wider than tall: scan fills columns (253,873 nodes along rows).
    assert_eq!(v["nodes"], 177_973);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(5), Some(4))
    );
    let per: Vec<u64> = v["nodes_per_depth"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(per.iter().sum::<u64>(), 177_973);
    assert_eq!(per[0], 1);
    assert_eq!(per.len(), 21);
    assert_eq!(per[20], 1952);
    assert!(v["elapsed_s"].as_f64().unwrap() >= 0.0);
    assert_eq!(v["deepest"]["depth"], 20);
    assert_eq!(v["deepest"]["board"].as_array().unwrap().len(), 20);
    // every kept solution is a solution (the library checker) ...
    let puz = read_puzzle(Path::new(&puzzle), EdgeOrder::Urdl).unwrap();
    let sols = v["solutions"].as_array().unwrap();
    assert_eq!(sols.len(), 1000, "--keep defaults to 1000");
    for sol in sols {
        let b = parse_board(&sol.to_string(), "json", &puz).unwrap();
        verify::check(&puz, &b, true).unwrap();
    }
    // ... and `plytile verify` accepts the whole result file
    let res = dir.join("result.json");
    std::fs::write(&res, &out).unwrap();
    let o = plytile(&["verify", &puzzle, &s(&res)]);
    assert_eq!(code(&o), 0, "{} {}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("1000 valid and distinct solutions"),
        "{}",
        stdout(&o)
    );
    // a tampered solution, the first or any later one, is rejected with exit 1
    for k in [0, 500] {
        let mut bad = v.clone();
        let r = bad["solutions"][k][7][1].as_u64().unwrap();
        bad["solutions"][k][7][1] = serde_json::json!((r + 1) % 4);
        let badf = dir.join("bad.json");
        std::fs::write(&badf, bad.to_string()).unwrap();
        let o = plytile(&["verify", &puzzle, &s(&badf)]);
        assert_eq!(code(&o), 1, "{}", stdout(&o));
        let what = format!("solution {}: not a solution", k + 1);
        assert!(stdout(&o).contains(&what), "{}", stdout(&o));
        // --index checks one solution only
        let o = plytile(&["verify", &puzzle, &s(&badf), "--index", "2"]);
        assert_eq!(code(&o), 0, "{}", stdout(&o));
        assert!(stdout(&o).contains("solution 2: a valid solution"));
    }
    // an --index past the file's solutions is bad input, worded as `show` words it
    let o = plytile(&["verify", &puzzle, &s(&res), "--index", "1001"]);
    common::assert_input_error(&o, "result.json", None, "verify --index 1001");
    assert!(stderr(&o).contains("--index 1001: the result holds 1000 solutions"));
    // a solution listed twice is not two solutions
    let mut twice = v.clone();
    twice["solutions"][9] = twice["solutions"][2].clone();
    let twicef = dir.join("twice.json");
    std::fs::write(&twicef, twice.to_string()).unwrap();
    let o = plytile(&["verify", &puzzle, &s(&twicef)]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("solution 10: the same board as solution 3"));
    // --keep bounds the boards, not the count
    let o = plytile(&["solve", &puzzle, "--all", "--keep", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["solutions_found"], 1952);
    assert_eq!(v["select"], "scan", "scan is the default");
    assert_eq!(v["solutions"].as_array().unwrap().len(), 2);
    cleanup(&dir);
}

#[test]
fn verify_brendan_solution_files() {
    for size in ["03x03", "06x06", "16x16", "20x20", "12x05"] {
        let o = plytile(&[
            "verify",
            &p(&format!("brendan/pieces_{size}.txt")),
            &p(&format!("brendan/solutions_{size}.txt")),
        ]);
        assert_eq!(code(&o), 0, "{size}: {} {}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("a valid solution"));
    }
    // a solution file against the wrong puzzle: input error (size mismatch)
    let o = plytile(&[
        "verify",
        &p("brendan/pieces_06x06.txt"),
        &p("brendan/solutions_05x05.txt"),
    ]);
    assert_eq!(code(&o), 2);
    no_panic(&o, "wrong size");
    // the right size but another piece set: not a solution
    let o = plytile(&[
        "verify",
        &p("brendan-set2/pieces_06x06.txt"),
        &p("brendan/solutions_06x06.txt"),
    ]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
}

#[test]
fn gen_then_solve() {
    let dir = scratch_dir("cli-gen");
    let f = dir.join("g.txt");
    let o = plytile(&[
        "gen",
        "--width",
        "5",
        "--height",
        "4",
        "--seed",
        "11",
        "-o",
        &s(&f),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // the file is the library's generator output with the default colours
    let (rim, inner) = default_colours(5, 4);
    let want = to_text(&generate(5, 4, rim, inner, 11).unwrap());
    assert_eq!(std::fs::read_to_string(&f).unwrap(), want);
    // and the same on stdout
    let o = plytile(&["gen", "--width", "5", "--height", "4", "--seed", "11"]);
    assert_eq!(stdout(&o), want);
    let o = plytile(&["solve", &s(&f), "--all", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let n = v["solutions_found"].as_u64().unwrap();
    assert!(n >= 1);
    let puz = read_puzzle(&f, EdgeOrder::Urdl).unwrap();
    assert_eq!(n, brute_force(&puz).solutions);
    // explicit colours, RON output
    let r = dir.join("g.ron");
    let o = plytile(&[
        "gen",
        "--width",
        "4",
        "--height",
        "4",
        "--rim-colours",
        "2",
        "--inner-colours",
        "2",
        "--seed",
        "3",
        "-o",
        &s(&r),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = plytile(&["solve", &s(&r), "--all", "--json", "--select", "scan"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["solutions_found"].as_u64().unwrap(),
        brute_force(&generate(4, 4, 2, 2, 3).unwrap()).solutions
    );
    // bad generator arguments are input errors
    for args in [
        vec!["gen", "--width", "1", "--height", "4", "--seed", "1"],
        vec![
            "gen",
            "--width",
            "4",
            "--height",
            "4",
            "--rim-colours",
            "0",
            "--seed",
            "1",
        ],
        vec![
            "gen",
            "--width",
            "4",
            "--height",
            "4",
            "--rim-colours",
            "200",
            "--inner-colours",
            "100",
            "--seed",
            "1",
        ],
        vec!["gen", "--width", "4", "--height", "4"],
    ] {
        let o = plytile(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        no_panic(&o, "gen");
    }
    cleanup(&dir);
}

#[test]
fn convert_round_trip() {
    let dir = scratch_dir("cli-convert");
    // a text puzzle with hints
    let src = dir.join("h.txt");
    let mut text = std::fs::read_to_string(puzzle_path("brendan/pieces_05x04.txt")).unwrap();
    let sol = std::fs::read_to_string(puzzle_path("brendan/solutions_05x04.txt")).unwrap();
    let puz = read_puzzle(&puzzle_path("brendan/pieces_05x04.txt"), EdgeOrder::Urdl).unwrap();
    let b = parse_board(&sol, "s", &puz).unwrap();
    let (q, r) = b[6].unwrap();
    text += &format!("hint 1 1 {q} {r}\n");
    std::fs::write(&src, &text).unwrap();
    let ron = dir.join("h.ron");
    let back = dir.join("back.txt");
    let o = plytile(&["convert", &s(&src), "-o", &s(&ron)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(std::fs::read_to_string(&ron)
        .unwrap()
        .trim_start()
        .starts_with('('));
    let o = plytile(&["convert", &s(&ron), "-o", &s(&back)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let a = read_puzzle(&src, EdgeOrder::Urdl).unwrap();
    let c = read_puzzle(&ron, EdgeOrder::Urdl).unwrap();
    let d = read_puzzle(&back, EdgeOrder::Urdl).unwrap();
    assert_eq!((a.width, a.height), (c.width, c.height));
    assert_eq!(a.pieces, c.pieces);
    assert_eq!(a.hints, c.hints);
    assert_eq!(a.hints.len(), 1);
    assert_eq!(d.pieces, a.pieces);
    assert_eq!(d.hints, a.hints);
    // ron -> txt -> ron is a fixed point
    let ron2 = dir.join("again.ron");
    let o = plytile(&["convert", &s(&back), "-o", &s(&ron2)]);
    assert_eq!(code(&o), 0);
    // (the name is the file stem: plain text keeps it only as a comment, which is
    // not read back, so `back.txt` is named "back")
    let again = std::fs::read_to_string(&ron2)
        .unwrap()
        .replace("name: \"back\"", "name: \"h\"");
    assert_eq!(again, std::fs::read_to_string(&ron).unwrap());
    // stdout
    let o = plytile(&["convert", &s(&ron), "-o", "-", "--to", "txt"]);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), std::fs::read_to_string(&back).unwrap());
    // the hinted puzzle solves and its solutions keep the hint
    let o = plytile(&["solve", &s(&ron), "--all", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for sol in v["solutions"].as_array().unwrap() {
        assert_eq!(sol[6], serde_json::json!([q, r]));
    }
    // --edge-order blrt through convert
    let blrt = dir.join("blrt.txt");
    let mut t = format!("{} {}\n", puz.width, puz.height);
    for x in &puz.pieces {
        t += &format!("{} {} {} {}\n", x[2], x[3], x[0], x[1]);
    }
    std::fs::write(&blrt, t).unwrap();
    let norm = dir.join("norm.txt");
    let o = plytile(&[
        "convert",
        &s(&blrt),
        "--edge-order",
        "blrt",
        "-o",
        &s(&norm),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        read_puzzle(&norm, EdgeOrder::Urdl).unwrap().pieces,
        puz.pieces
    );
    // unknown output format
    let o = plytile(&["convert", &s(&src), "-o", &s(&dir.join("x.json"))]);
    assert_eq!(code(&o), 2);
    no_panic(&o, "convert json");
    cleanup(&dir);
}

// ---------------------------------------------------------------------------------
// malformed input: exit 2, one line on stderr naming the file (and the line)

const GOOD_3X3: &str =
    "3 3\n0 0 1 1\n0 0 1 2\n0 0 2 1\n0 0 2 2\n0 1 3 1\n0 2 3 1\n0 1 3 2\n0 2 3 2\n3 3 3 3\n";

#[test]
fn good_3x3_is_fine() {
    let dir = scratch_dir("cli-good");
    let f = dir.join("good.txt");
    std::fs::write(&f, GOOD_3X3).unwrap();
    let o = plytile(&["solve", &s(&f), "--all", "-q"]);
    assert!(code(&o) == 0 || code(&o) == 1, "{}", stderr(&o));
    cleanup(&dir);
}

#[test]
fn malformed_puzzle_files() {
    let dir = scratch_dir("cli-bad");
    let lines: Vec<&str> = GOOD_3X3.lines().collect();
    let replace = |i: usize, with: &str| -> String {
        let mut v = lines.clone();
        v[i] = with;
        v.join("\n") + "\n"
    };
    let cases: Vec<(&str, Vec<u8>, Option<usize>)> = vec![
        ("truncated", replace(3, "0 0 2").into_bytes(), Some(4)),
        (
            "truncated_one_field",
            replace(9, "3").into_bytes(),
            Some(10),
        ),
        (
            "cut_mid_file",
            GOOD_3X3.as_bytes()[..GOOD_3X3.len() - 8].to_vec(),
            Some(9),
        ),
        ("five_fields", replace(5, "0 1 3 1 4").into_bytes(), Some(6)),
        ("not_a_number", replace(2, "0 0 x 2").into_bytes(), Some(3)),
        ("float", replace(2, "0 0 1.5 2").into_bytes(), Some(3)),
        ("negative", replace(6, "0 2 -3 1").into_bytes(), Some(7)),
        (
            "too_big_colour",
            replace(9, "3 3 256 3").into_bytes(),
            Some(10),
        ),
        (
            "huge_number",
            replace(9, "3 3 99999999999999999999999 3").into_bytes(),
            Some(10),
        ),
        ("bad_size", replace(0, "3 x").into_bytes(), Some(1)),
        ("size_too_small", replace(0, "1 9").into_bytes(), Some(1)),
        ("size_too_big", replace(0, "40 40").into_bytes(), Some(1)),
        ("size_negative", replace(0, "-3 3").into_bytes(), Some(1)),
        (
            "too_few_pieces",
            lines[..9].join("\n").into_bytes(),
            Some(9),
        ),
        (
            "too_many_pieces",
            format!("{GOOD_3X3}3 3 3 3\n").into_bytes(),
            Some(11),
        ),
        ("wrong_size_line", replace(0, "4 3").into_bytes(), Some(10)),
        (
            "hint_fields",
            format!("{GOOD_3X3}hint 0 0 0\n").into_bytes(),
            Some(11),
        ),
        (
            "hint_not_number",
            format!("{GOOD_3X3}hint 0 0 a 1\n").into_bytes(),
            Some(11),
        ),
        (
            "hint_negative",
            format!("{GOOD_3X3}hint 0 -1 0 1\n").into_bytes(),
            Some(11),
        ),
        (
            "hint_rotation_word",
            format!("{GOOD_3X3}hint 0 0 0 x\n").into_bytes(),
            Some(11),
        ),
        (
            "hint_outside",
            format!("{GOOD_3X3}hint 5 0 0 0\n").into_bytes(),
            None,
        ),
        (
            "hint_piece_range",
            format!("{GOOD_3X3}hint 0 0 9 0\n").into_bytes(),
            None,
        ),
        (
            "hint_rotation_range",
            format!("{GOOD_3X3}hint 0 0 0 4\n").into_bytes(),
            None,
        ),
        (
            "hint_wrong_rim",
            format!("{GOOD_3X3}hint 0 0 0 0\n").into_bytes(),
            None,
        ),
        (
            "hint_twice",
            format!("{GOOD_3X3}hint 1 1 8 0\nhint 1 1 8 1\n").into_bytes(),
            None,
        ),
        ("opposite_rims", replace(5, "0 1 0 1").into_bytes(), None),
        ("wrong_kinds", replace(5, "1 1 3 1").into_bytes(), None),
        ("empty", Vec::new(), None),
        (
            "only_comments",
            b"# nothing here\n\n   # really\n".to_vec(),
            None,
        ),
        ("only_size", b"3 3\n".to_vec(), None),
        (
            "random_bytes",
            (0..400u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect(),
            None,
        ),
        (
            "ascii_noise",
            b"@@@ !!! ???\nfoo bar baz qux\n".to_vec(),
            Some(1),
        ),
        ("nul_bytes", b"3 3\n\0\0\0\0\n".to_vec(), Some(2)),
        (
            "bom_utf16",
            vec![0xFF, 0xFE, b'3', 0, b' ', 0, b'3', 0],
            None,
        ),
    ];
    for (name, bytes, line) in &cases {
        let f = dir.join(format!("{name}.txt"));
        std::fs::write(&f, bytes).unwrap();
        let file = s(&f);
        let o = plytile(&["solve", &file]);
        assert_input_error(&o, &file, *line, name);
        // the same file is rejected the same way by the other puzzle readers
        let o = plytile(&["convert", &file, "-o", &s(&dir.join("out.ron"))]);
        assert_input_error(&o, &file, *line, &format!("convert {name}"));
        let o = plytile(&["verify", &file, &p("brendan/solutions_03x03.txt")]);
        assert_input_error(&o, &file, *line, &format!("verify {name}"));
    }
    // RON files
    let ron_cases: Vec<(&str, &str)> = vec![
        ("ron_truncated", "(\n    name: \"x\",\n    width: 3,\n"),
        (
            "ron_bad_type",
            "(\n    width: \"three\",\n    height: 3,\n    pieces: [],\n)\n",
        ),
        ("ron_garbage", "(((((("),
        // a misspelt field would otherwise drop the hints without a word
        (
            "ron_unknown_field",
            "(\n    width: 1,\n    height: 1,\n    pieces: [(0, 0, 0, 0)],\n    hint: [],\n)\n",
        ),
    ];
    for (name, text) in &ron_cases {
        let f = dir.join(format!("{name}.ron"));
        std::fs::write(&f, text).unwrap();
        let file = s(&f);
        let o = plytile(&["solve", &file]);
        assert_input_error(&o, &file, None, name);
    }
    let o = plytile(&["solve", &s(&dir.join("ron_unknown_field.ron"))]);
    assert!(
        stderr(&o).contains(":5: ") && stderr(&o).contains("hint"),
        "{}",
        stderr(&o)
    );
    // A bad piece or hint names the line its entry starts on, past strings and
    // comments that look like the list; a wrong count, the list's; a bad size, its own.
    let located = [
        (
            "ron_wrong_count",
            "(\n    width: 2,\n    height: 2,\n    pieces: [(0, 0, 1, 1)],\n)\n",
            4,
        ),
        (
            "ron_bad_height",
            "(\n    width: 2,\n    height: 40,\n    pieces: [(0, 0, 1, 1)],\n)\n",
            3,
        ),
        (
            "ron_bad_piece",
            "// pieces: [\n(\n  name: \"a [ (\",\n  width: 2, height: 2,\n  /* x\n  */ pieces: [\n    (0, 1, 1, 0), // (\n    (0, 0, 1, 1),\n    (1, 0, 0, 1), (0, 1, 0, 1),\n  ],\n)\n",
            9,
        ),
        (
            "ron_bad_hint",
            "(\n width: 2, height: 2,\n pieces: [(0,1,1,0),(0,0,1,1),(1,0,0,1),(1,1,0,0)],\n hints: [\n  (row: 0, col: 0, piece: 0, rotation: 0),\n  (row: 5, col: 0, piece: 1, rotation: 0),\n ],\n)\n",
            6,
        ),
    ];
    for (name, text, line) in located {
        let f = dir.join(format!("{name}.ron"));
        std::fs::write(&f, text).unwrap();
        let o = plytile(&["solve", &s(&f)]);
        assert_input_error(&o, &s(&f), Some(line), name);
    }
    // a byte that is no UTF-8, on line 3: named like every other error
    let f = dir.join("latin1.txt");
    std::fs::write(&f, b"2 2\n0 0 1 1\n0 0 1 \xff\n").unwrap();
    let o = plytile(&["solve", &s(&f)]);
    assert_input_error(&o, &s(&f), Some(3), "invalid UTF-8");
    // a file that does not exist
    let missing = s(&dir.join("missing.txt"));
    let o = plytile(&["solve", &missing]);
    assert_input_error(&o, &missing, None, "missing file");
    // a directory
    let o = plytile(&["solve", &s(&dir)]);
    assert_input_error(&o, &s(&dir), None, "directory");
    cleanup(&dir);
}

#[test]
fn malformed_hints_and_solution_files() {
    let dir = scratch_dir("cli-bad-aux");
    let e2 = p("e2/e2pieces.txt");
    let hint_cases: Vec<(&str, &str, Option<usize>)> = vec![
        ("hints_short", "I8 8 7 139\n", Some(1)),
        ("hints_zero_piece", "# c\nI8 8 7 0 2\n", Some(2)),
        ("hints_not_number", "I8 8 x 139 2\n", Some(1)),
        // Checked against the puzzle: the message still names the hints file's line.
        ("hints_outside", "I18 8 17 139 2\n", Some(1)),
        ("hints_wrong_rim", "A1 0 0 139 2\n", Some(1)),
        (
            "hints_no_such_piece",
            "I8 8 7 139 2\nC14 2 13 999 3\n",
            Some(2),
        ),
        ("hints_rotation", "\nI8 8 7 139 4\n", Some(2)),
        ("hints_same_cell", "I8 8 7 139 2\nI8 8 7 140 2\n", Some(2)),
        // The redundant fields must agree: the square label with the row and column,
        // the listed colours with the piece turned.
        ("hints_label", "I8 8 7 139 2\nC3 8 7 139 2\n", Some(2)),
        ("hints_colours", "I8 8 7 139 2 8 9 9 11\n", Some(1)),
        ("hints_fields", "I8 8 7 139 2 8 9 9\n", Some(1)),
        ("hints_lowercase", "i8 8 7 139 2\nc3 2 3 208 3\n", Some(2)),
        ("hints_no_label", "I8 8 7 139 2\n- 2 2 208 3\n", Some(2)),
    ];
    for (name, text, line) in &hint_cases {
        let f = dir.join(format!("{name}.txt"));
        std::fs::write(&f, text).unwrap();
        let o = plytile(&["solve", &e2, "--hints", &s(&f), "--max-nodes", "10"]);
        assert_input_error(&o, &s(&f), *line, name);
    }
    // A hints file numbers its pieces from 1, and so do the messages about its lines
    // (they said "piece 0" for the file's piece 1).
    let f = dir.join("hints_rim.txt");
    std::fs::write(&f, "A1 0 0 1 0\nB2 1 1 2 0\n").unwrap();
    let o = plytile(&["solve", &e2, "--hints", &s(&f), "--max-nodes", "10"]);
    assert_input_error(&o, &s(&f), Some(1), "hints_rim");
    assert!(
        stderr(&o).contains("the hint at row 0 column 0 (piece 1 turned 0) shows colour"),
        "{}",
        stderr(&o)
    );
    // Hints that pass one by one but not side by side: refused, on every thread count
    // (the search trusted them, reported a board the checker rejects, and hung on two).
    let text = std::fs::read_to_string(p("hinted/b7x5_col3.txt")).unwrap();
    assert!(text.contains("\nhint 1 3 30 2\n"));
    let f = dir.join("hints_apart.txt");
    std::fs::write(&f, text.replace("\nhint 1 3 30 2\n", "\nhint 1 3 30 0\n")).unwrap();
    for threads in ["1", "2"] {
        let o = plytile(&["solve", &s(&f), "--threads", threads, "--timeout", "20"]);
        assert_input_error(&o, &s(&f), Some(39), "hints_apart");
        assert!(stderr(&o).contains("do not fit together"), "{}", stderr(&o));
    }
    let puzzle = p("brendan/pieces_04x04.txt");
    let sol_cases: Vec<(&str, String, Option<usize>)> = vec![
        (
            "sol_brendan_bad",
            format!("4 4\n0 0 0\n1 x 0\n{}", "0 0 0\n".repeat(14)),
            Some(3),
        ),
        ("sol_brendan_count", "4 4\n0 0 0\n1 1 0\n".into(), None),
        (
            "sol_brendan_offboard",
            format!("4 4\n{}", "9 9 0\n".repeat(16)),
            Some(2),
        ),
        ("sol_list_short", "0 0\n1 1\n".into(), None),
        (
            "sol_list_bad",
            format!("{}0 0 0\n", "0 0\n".repeat(15)),
            Some(16),
        ),
        (
            "sol_list_piece_range",
            format!("{}99 0\n", "0 0\n".repeat(15)),
            Some(16),
        ),
        ("sol_json_bad", "{\"solutions\": [[1, 2]".into(), None),
        ("sol_json_empty", "{}".into(), None),
        ("sol_json_wrong_len", "[[0, 0]]".into(), None),
        ("sol_empty", String::new(), None),
    ];
    for (name, text, line) in &sol_cases {
        let f = dir.join(format!("{name}.txt"));
        std::fs::write(&f, text).unwrap();
        let o = plytile(&["verify", &puzzle, &s(&f)]);
        assert_input_error(&o, &s(&f), *line, name);
    }
    let o = plytile(&["verify", &puzzle, &s(&dir.join("nope.json"))]);
    assert_input_error(&o, "nope.json", None, "missing solution");
    // JSON that is not solve's, and a result that kept no board, say so (QA).
    for (name, text, says) in [
        (
            "bench",
            "{\"puzzles\": []}",
            "not solve's JSON (no `solutions` array)",
        ),
        (
            "keep0",
            "{\"solutions\": [], \"solutions_found\": 36}",
            "found 36 solution(s) but kept no board",
        ),
        (
            "none",
            "{\"solutions\": [], \"solutions_found\": 0}",
            "holds no solution",
        ),
    ] {
        let f = dir.join(format!("{name}.json"));
        std::fs::write(&f, text).unwrap();
        let o = plytile(&["verify", &puzzle, &s(&f)]);
        assert_input_error(&o, &s(&f), None, name);
        assert!(stderr(&o).contains(says), "{name}: {}", stderr(&o));
    }
    cleanup(&dir);
}

/// Bad flags and flag values: exit 2 and no panic.
#[test]
fn bad_flags_exit_2() {
    let puzzle = p("brendan/pieces_03x03.txt");
    let spectral_graph = p("spectral/eight.ron");
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", &puzzle, "--frobnicate"],
        vec!["solve", &puzzle, "--select", "bogus"],
        vec!["solve", &puzzle, "--select", ""],
        vec!["solve", &puzzle, "--timeout", "-1"],
        vec!["solve", &puzzle, "--timeout=-1"],
        vec!["solve", &puzzle, "--timeout", "0"],
        vec!["solve", &puzzle, "--timeout", "nan"],
        vec!["solve", &puzzle, "--timeout", "1e20"],
        vec!["compare", &puzzle, "--timeout", "1e300"],
        vec!["bench", &puzzle, "--timeout", "1e19"],
        vec!["bench", &puzzle, "--threads", "5000"],
        vec!["solve", &puzzle, "--select", "pmean:2:-0.0001"],
        vec!["solve", &puzzle, "--select", "pmean:2:-5000"],
        vec!["solve", &puzzle, "--timeout", "inf"],
        vec!["solve", &puzzle, "--max-nodes", "0"],
        vec!["solve", &puzzle, "--max-nodes", "-5"],
        vec!["solve", &puzzle, "--max-nodes", "1.5"],
        vec!["solve", &puzzle, "--max-nodes", "1e30"],
        vec!["predict", &puzzle, "--probes", "0e3"],
        // Days of probing without a word (QA, session 31).
        vec!["predict", &puzzle, "--probes", "1e12"],
        vec!["predict", &puzzle, "--stratified-probes", "20000000000"],
        vec!["solve", &puzzle, "--solutions", "0"],
        vec!["solve", &puzzle, "--keep", "-1"],
        vec!["solve", &puzzle, "--keep", "1.5"],
        vec!["merge", &puzzle, "--keep", "x"],
        vec!["solve", &puzzle, "--all", "--solutions", "3"],
        vec!["solve", &puzzle, "--edge-order", "ldru"],
        // A job file holds its puzzle: an edge order for it would be ignored.
        vec!["solve", "--job", &puzzle, "--edge-order", "blrt"],
        // Refused without --symmetry, which --job refuses (QA, session 32: accepted).
        vec!["solve", "--job", &puzzle, "--symmetry-parts", "pairs"],
        vec!["solve"],
        vec!["frobnicate"],
        vec![],
        vec!["gen", "--width", "x", "--height", "3", "--seed", "1"],
        // counts are kept per depth: an unbounded depth ate memory until it aborted
        vec!["spectral", &spectral_graph, "--depth", "10001"],
    ];
    // Counts are written alike in every flag that takes one (QA, session 32: --keep
    // took digits only).
    for keep in ["1e1", "0"] {
        let o = plytile(&["solve", &puzzle, "--all", "--keep", keep, "-q"]);
        assert_eq!(code(&o), 0, "--keep {keep}: {}", stderr(&o));
    }
    for args in &cases {
        let o = plytile(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        no_panic(&o, &format!("{args:?}"));
        assert!(!stderr(&o).trim().is_empty(), "{args:?}: says why");
    }
    // An output's format is its name's: another extension, or a --to that contradicts
    // it, is refused before anything is written.
    let dir = scratch_dir("cli-formats");
    let (json, txt) = (s(&dir.join("x.json")), s(&dir.join("x.txt")));
    for args in [
        vec![
            "gen", "--width", "4", "--height", "4", "--seed", "1", "-o", &json,
        ],
        vec!["convert", &puzzle, "-o", &txt, "--to", "ron"],
    ] {
        let o = plytile(&args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        no_panic(&o, &format!("{args:?}"));
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
    cleanup(&dir);
    // A negative value gets its flag's own message, not "unexpected argument '-1'".
    for (args, says) in [
        (
            vec!["solve", &puzzle, "--timeout", "-1"],
            "'--timeout <SECS>'",
        ),
        (vec!["predict", &puzzle, "--probes", "-3"], "'--probes <K>'"),
        (vec!["explain", &puzzle, "--ply", "-2"], "'--ply <PLY>'"),
        (
            vec!["explain", &puzzle, "--timeout", "-1"],
            "'--timeout <SECS>'",
        ),
        (
            vec!["explain", &puzzle, "--max-memory", "-1"],
            "'--max-memory <MIB>'",
        ),
        (
            vec!["solve", &puzzle, "--timeout", "-inf"],
            "'--timeout <SECS>'",
        ),
        (vec!["solve", &puzzle, "--shard", "-1/2"], "'--shard <I/N>'"),
        // Too large is not "not a whole number" (QA).
        (
            vec!["solve", &puzzle, "--max-nodes", "1e20"],
            "'1e20' is over 1.8e19",
        ),
        (
            vec!["solve", &puzzle, "--max-nodes", "99999999999999999999999"],
            "is over 1.8e19",
        ),
        (
            vec!["solve", &puzzle, "--max-nodes", "1.5"],
            "not a positive whole number",
        ),
        (
            vec!["solve", &puzzle, "--timeout", "--all"],
            "invalid value '--all' for '--timeout <SECS>'",
        ),
    ] {
        let o = plytile(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    // A bad choice names the choices.
    let o = plytile(&["predict", &puzzle, "--model", "foo"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("expected one of: analytic, sampled, all"),
        "{}",
        stderr(&o)
    );
    // Counts may be written as the README writes them.
    let big = p("brendan/pieces_06x06.txt");
    let o = plytile(&[
        "solve",
        &big,
        "--all",
        "--json",
        "--threads",
        "1",
        "--max-nodes",
        "2.5e3",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes"], 2500, "{}", stderr(&o));
}

/// The brief's contract: every input error, flags included, is one line on stderr.
/// clap's own usage errors are several lines (error, blank, tip/usage, "For more
/// information").
#[test]
fn bad_flags_one_line() {
    let puzzle = p("brendan/pieces_03x03.txt");
    for args in [
        vec!["solve", puzzle.as_str(), "--frobnicate"],
        vec!["solve", puzzle.as_str(), "--select", "bogus"],
        vec!["solve", puzzle.as_str(), "--timeout", "-1"],
        vec!["solve", puzzle.as_str(), "--timeout=-1"],
    ] {
        let o = plytile(&args);
        assert_eq!(code(&o), 2);
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {:?}", stderr(&o));
    }
}

#[test]
fn help_and_version_exit_0() {
    let o = plytile(&["--help"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("solve"));
    let o = plytile(&["solve", "--help"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("--select"));
    let o = plytile(&["--version"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains(env!("CARGO_PKG_VERSION")));
}

/// A byte-order mark, which some editors write first, is not part of the text.
#[test]
fn an_input_without_end_is_refused_not_read_until_memory_runs_out() {
    // A puzzle, and a checkpoint (read before the search), from a device that never ends.
    let want = "/dev/zero: cannot read: more than 1 GiB, so not a plytile input (a device or a stream without end?)";
    for args in [
        vec!["solve".to_string(), "/dev/zero".into()],
        vec![
            "solve".into(),
            p("brendan/pieces_04x04.txt"),
            "--checkpoint".into(),
            "/dev/zero".into(),
        ],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = plytile(&args);
        assert_input_error(&o, "/dev/zero", None, "an endless input");
        assert!(stderr(&o).contains(want), "{}", stderr(&o));
    }
}

#[test]
fn input_files_may_start_with_a_byte_order_mark() {
    let dir = scratch_dir("cli-bom");
    let with_bom = |rel: &str, name: &str| {
        let f = dir.join(name);
        let text = std::fs::read_to_string(p(rel)).unwrap();
        std::fs::write(&f, format!("\u{feff}{text}")).unwrap();
        s(&f)
    };
    let puzzle = with_bom("brendan/pieces_04x04.txt", "p44.txt");
    let o = plytile(&["solve", &puzzle, "--all", "--json", "--threads", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["solutions_found"], 36);
    let result = dir.join("r.json");
    std::fs::write(&result, format!("\u{feff}{}", stdout(&o))).unwrap();
    let o = plytile(&["verify", &puzzle, &s(&result)]);
    assert_eq!(code(&o), 0, "{} {}", stdout(&o), stderr(&o));
    let graph = with_bom("spectral/eight.ron", "eight.ron");
    let o = plytile(&["spectral", &graph]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    cleanup(&dir);
}

/// Lines may end in a lone CR (classic Mac) as well as LF or CRLF: a CR-only hints file
/// used to read as one comment line, its hints ignored without a word.
#[test]
fn files_with_cr_line_ends_read_as_their_lines() {
    let dir = scratch_dir("cli-cr");
    let puzzle = p("brendan/pieces_04x04.txt");
    let solutions = |extra: &[&str]| {
        let o = plytile(&[&["solve", &puzzle, "--all", "--json"], extra].concat());
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        v["solutions_found"].as_u64().unwrap()
    };
    let mut counts = Vec::new();
    for end in ["\n", "\r\n", "\r"] {
        let hints = dir.join("hints.txt");
        std::fs::write(&hints, ["# one hint", "A1 0 0 1 3", ""].join(end)).unwrap();
        let cr = dir.join("p.txt");
        let text = std::fs::read_to_string(&puzzle).unwrap();
        std::fs::write(&cr, text.replace('\n', end)).unwrap();
        counts.push((solutions(&["--hints", &s(&hints)]), solutions(&[]), {
            let o = plytile(&["solve", &s(&cr), "--all", "-q", "--json"]);
            assert_eq!(code(&o), 0, "{end:?}: {}", stderr(&o));
            serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap()["solutions_found"]
                .as_u64()
                .unwrap()
        }));
    }
    assert_eq!(counts, vec![(9, 36, 36); 3]);
    // A hints file with no hint in it is a mistake, not "no hints".
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n").unwrap();
    let o = plytile(&["solve", &puzzle, "--hints", &s(&empty)]);
    assert_input_error(&o, "empty.txt", None, "empty hints file");
    assert!(stderr(&o).contains("no hint lines"), "{}", stderr(&o));
    cleanup(&dir);
}

/// Text quoted from input never breaks an error's one line or reaches the terminal as
/// an escape sequence; a RON name with a line break is refused (convert wrote it on a
/// `#` line, where the rest became a puzzle line); gen's colour counts cannot wrap.
#[test]
fn quoted_input_and_huge_values_keep_errors_one_line() {
    let dir = scratch_dir("cli-quoted");
    let bad = dir.join("esc.txt");
    std::fs::write(&bad, "2 2\n0 1 1 \u{1b}[2J\n").unwrap();
    let o = plytile(&["solve", &s(&bad)]);
    assert_input_error(&o, "esc.txt", Some(2), "escape in a colour");
    assert!(!stderr(&o).contains('\u{1b}'), "{:?}", stderr(&o));
    assert!(stderr(&o).contains("\\u{1b}[2J"), "{:?}", stderr(&o));
    let ron = dir.join("p.ron");
    let o = plytile(&["convert", &p("brendan/pieces_04x04.txt"), "-o", &s(&ron)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&ron).unwrap();
    let name = text.lines().find(|l| l.contains("name:")).unwrap();
    let injected = text.replace(name, "    name: \"p\\nhint 0 0 0 3\",");
    std::fs::write(&ron, injected).unwrap();
    let o = plytile(&["convert", &s(&ron), "-o", &s(&dir.join("p.txt"))]);
    assert_input_error(&o, "p.ron", None, "name with a line break");
    assert!(
        stderr(&o).contains("name holds a control character"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("p.txt").exists());
    let huge = "18446744073709551615";
    for (flag, other) in [
        ("--inner-colours", "--rim-colours"),
        ("--rim-colours", "--inner-colours"),
    ] {
        let args = [
            "gen", "--width", "4", "--height", "4", "--seed", "1", flag, huge, other, "3",
        ];
        let o = plytile(&args);
        assert_input_error(&o, "gen", None, flag);
        assert!(stderr(&o).contains("at most 255 colours"), "{}", stderr(&o));
    }
    let hinted = dir.join("h.txt");
    let text = std::fs::read_to_string(p("brendan/pieces_04x04.txt")).unwrap();
    std::fs::write(&hinted, format!("{text}hint 0 0 {huge} 0\n")).unwrap();
    let o = plytile(&["solve", &s(&hinted)]);
    assert_input_error(&o, "h.txt", None, "huge hint piece");
    assert!(
        stderr(&o).contains("names piece 18446744073709551615, but the puzzle has 16 pieces"),
        "{}",
        stderr(&o)
    );
    cleanup(&dir);
}

/// `explain` at the root of 4x4: every site's placements, b and local tree, and the
/// site ply:2 picks (the first of the smallest b); on a full board, no site.
#[test]
fn explain_scores_every_site_and_names_the_choice() {
    let puzzle = p("brendan/pieces_04x04.txt");
    let o = plytile(&["explain", &puzzle, "--ply", "2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("ply 2, 16 empty sites\n"), "{text}");
    // A corner: 4 placements with 16 follow-ups in all below them (b = 4); an inner
    // cell: 16 placements and 35 follow-ups (b = 5.916...).
    let row = |cell: &str| {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(cell));
        line.unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("0")[3..], ["4", "4.000000000", "20"]);
    assert_eq!(row("5")[3..], ["16", "5.916079783", "51"]);
    assert!(
        text.ends_with("chosen site: cell 0 (row 0, column 0)\n"),
        "{text}"
    );
    // A full board (a solution) has no site left to choose.
    let dir = scratch_dir("cli-explain");
    let o = plytile(&["solve", &puzzle, "--json", "--threads", "1"]);
    let result = dir.join("r.json");
    std::fs::write(&result, stdout(&o)).unwrap();
    let o = plytile(&["explain", &puzzle, "--moves", &s(&result)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("0 empty sites"));
    assert!(stdout(&o).ends_with("the board is full: a solution, no site to choose\n"));
    // A run that found none: its deepest partial board.
    let o = plytile(&[
        "solve",
        &puzzle,
        "--json",
        "--threads",
        "1",
        "--max-nodes",
        "6",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let depth = r["deepest"]["depth"].as_u64().unwrap();
    assert!(depth > 0);
    std::fs::write(&result, stdout(&o)).unwrap();
    let o = plytile(&["explain", &puzzle, "--moves", &s(&result), "--ply", "2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let head = format!("ply 2, {} empty sites\n", 16 - depth);
    assert!(stdout(&o).starts_with(&head), "{}", stdout(&o));
    cleanup(&dir);
}

/// `explain --timeout` that runs out: every site is listed, those not scored with `-`,
/// a last line says so, no site is chosen, and the exit code is solve's for a stopped
/// run (3). (The unit tests of `Ply::scores` stop one part-way.)
#[test]
fn explain_stopped_by_its_timeout_lists_the_sites_it_did_not_score() {
    let puzzle = p("brendan/pieces_04x04.txt");
    let o = plytile(&["explain", &puzzle, "--ply", "4", "--timeout", "1e-9"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().skip(2).take(16).collect();
    assert_eq!(
        rows[0],
        "    0    0    0           4            -          -"
    );
    assert_eq!(
        rows[5],
        "    5    1    1          16            -          -"
    );
    assert!(rows.iter().all(|r| r.ends_with("            -          -")));
    assert!(
        text.ends_with("stopped (--timeout reached): 0 sites scored, the 16 marked - not, so no site is chosen\n"),
        "{text}"
    );
    // With time enough, the same sites scored as without a limit.
    let o = plytile(&["explain", &puzzle, "--ply", "2", "--timeout", "600"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        stdout(&plytile(&["explain", &puzzle, "--ply", "2"]))
    );
}

/// `explain --max-memory`: a site whose recorded local tree needs more stops the
/// scoring as `--timeout` does (the sites from it on marked `-`, a last line saying
/// why and what to do, exit 3); the sites before it are scored as without the cap.
#[test]
fn explain_stops_at_a_site_whose_local_tree_passes_max_memory() {
    let puzzle = p("brendan/pieces_04x04.txt");
    let args = ["explain", &puzzle, "--ply", "4", "--adj"];
    let full = stdout(&plytile(&args));
    // 0.01 MiB holds the record of a corner (4,934 nodes), not that of an edge cell.
    let o = plytile(&[&args[..], &["--max-memory", "0.01"]].concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let text = stdout(&o);
    let (lines, full_lines): (Vec<&str>, Vec<&str>) =
        (text.lines().collect(), full.lines().collect());
    assert_eq!(
        lines[..3],
        full_lines[..3],
        "the header and cell 0 as without a cap"
    );
    assert_eq!(
        lines[3],
        "    1    0    1           8            -          -"
    );
    assert_eq!(lines.len(), 2 + 16 + 1);
    assert!(lines[3..18]
        .iter()
        .all(|r| r.ends_with("            -          -")));
    assert_eq!(
        lines[18],
        "stopped (the local tree of cell 1 (row 0, column 1) takes more than --max-memory 0.01 MiB; give a larger --max-memory or a lower --ply): 1 site scored, the 15 marked - not, so no site is chosen"
    );
    // A cap that every record fits: the same output as the default's.
    let o = plytile(&[&args[..], &["--max-memory", "1"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), full);
}

// ---------------------------------------------------------------------------------
// outputs: where files go, and a failed write

/// A symlink is followed (the link stays, its target gets the data), a FIFO is
/// written into, not replaced by a regular file; neither leaves a temporary file.
#[cfg(unix)]
#[test]
fn outputs_follow_symlinks_and_write_into_fifos() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch_dir("cli-out-links");
    let puzzle = p("brendan/pieces_04x04.txt");
    let real = dir.join("real.svg");
    let link = dir.join("link.svg");
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink("real.svg", &link).unwrap();
    let o = plytile(&["show", &puzzle, "-o", &s(&link)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().contains("<svg"));
    // A dangling link gets its target created.
    let dangling = dir.join("dangling.txt");
    std::os::unix::fs::symlink("new.txt", &dangling).unwrap();
    let o = plytile(&["convert", &puzzle, "-o", &s(&dangling)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&dangling)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(dir.join("new.txt"))
        .unwrap()
        .contains("\n4 4\n"));

    let fifo = dir.join("fifo.svg");
    let c = std::ffi::CString::new(s(&fifo)).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = plytile(&["show", &puzzle, "-o", &s(&fifo)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(reader.join().unwrap().contains("<svg"));
    let t = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(t.is_fifo(), "the FIFO was replaced: {t:?}");
    let o = plytile(&["show", &puzzle, "-o", "/dev/null"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with('~'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    cleanup(&dir);
}

/// Runs plytile with stdout on /dev/full (a write fails with ENOSPC).
fn to_full_disk(args: &[&str]) -> Option<Output> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_LOG")
        .stdout(full)
        .output()
        .expect("run plytile");
    Some(o)
}

/// A failed write to stdout is one line naming stdout and exit 2: no panic (exit
/// 101), no silent exit 0. The output of every kind of command goes the same way.
#[test]
fn a_failed_write_to_stdout_is_an_error() {
    let puzzle = p("brendan/pieces_04x04.txt");
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", &puzzle, "--threads", "1", "--json"],
        vec!["solve", &puzzle],
        vec!["show", &puzzle],
        vec!["show", &puzzle, "--link"],
        vec!["show", &puzzle, "-o", "-"],
        vec!["convert", &puzzle, "-o", "-"],
        vec!["gen", "--width", "3", "--height", "3", "--seed", "1"],
        vec!["explain", &puzzle],
        vec!["compare", &puzzle, "--select", "scan"],
        vec!["bench", &puzzle, "--select", "scan", "--runs", "1"],
        vec![
            "bench",
            &puzzle,
            "--select",
            "scan",
            "--runs",
            "1",
            "--export-json",
            "-",
        ],
    ];
    for args in &cases {
        let Some(o) = to_full_disk(args) else {
            return; // no /dev/full here
        };
        no_panic(&o, &format!("{args:?}"));
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        // (bench's text for people goes to stderr when an export is on stdout; notes,
        // such as show's on the link of a partial board, are not errors.)
        let errors: Vec<String> = stderr(&o)
            .lines()
            .filter(|l| l.starts_with("plytile:") && !l.starts_with("plytile: note:"))
            .map(String::from)
            .collect();
        assert_eq!(errors.len(), 1, "{args:?}: {}", stderr(&o));
        assert!(
            errors[0].starts_with("plytile: stdout: cannot write: "),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// A closed pipe stays quiet: the program ends as `head` expects, with no message.
#[cfg(unix)]
#[test]
fn a_closed_pipe_is_quiet() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(["gen", "--width", "32", "--height", "32", "--seed", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    child.wait().unwrap();
    assert!(err.is_empty(), "{err}");
}

/// One `plytile:` line naming `file`, exit 2, nothing on stdout: the command stopped
/// at the up-front check of its outputs, before any run.
fn refused_up_front(o: &Output, file: &str, what: &str) {
    no_panic(o, what);
    assert_eq!(code(o), 2, "{what}: {}", stderr(o));
    assert_eq!(stderr(o).lines().count(), 1, "{what}: {}", stderr(o));
    assert!(
        stderr(o).starts_with(&format!("plytile: {file}: ")),
        "{what}: {}",
        stderr(o)
    );
    assert_eq!(stdout(o), "", "{what}: ran before the check");
}

/// bench checks every export path before its first run: a bad one no longer ends the
/// benchmark after the first puzzle with the other exports unwritten, and two exports
/// to one file are refused rather than one silently lost.
#[test]
fn bench_checks_its_exports_before_running() {
    let dir = scratch_dir("cli-bench-exports");
    let (p4, p5) = (p("brendan/pieces_04x04.txt"), p("brendan/pieces_05x05.txt"));
    let bad = s(&dir.join("missing/f.json"));
    let (csv, md) = (s(&dir.join("ok.csv")), s(&dir.join("ok.md")));
    let bench = ["bench", &p4, &p5, "--select", "scan", "--runs", "1"];
    let o = plytile(&[&bench[..], &["--export-csv", &csv, "--export-json", &bad]].concat());
    refused_up_front(&o, &bad, "a missing directory");
    assert!(!Path::new(&csv).exists(), "an export was left behind");
    let same = s(&dir.join("same.out"));
    let o = plytile(&[&bench[..], &["--export-json", &same, "--export-csv", &same]].concat());
    refused_up_front(&o, &same, "two exports to one file");
    assert!(!Path::new(&same).exists());
    let o = plytile(&[&bench[..], &["--export-csv", &p4]].concat());
    refused_up_front(&o, &p4, "an export over a puzzle");
    // Devices take several exports; good paths are written.
    let o = plytile(
        &[
            &bench[..],
            &["--export-json", "/dev/null", "--export-csv", "/dev/null"],
            &["--export-markdown", &md],
        ]
        .concat(),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(std::fs::read_to_string(&md).unwrap().contains("scan"));
    cleanup(&dir);
}

/// compare's and predict's --plot, show's and convert's -o are checked before the
/// work, and none may overwrite an input: the puzzle (also through a hard link or a
/// symlink), a solution file.
#[test]
fn outputs_are_checked_first_and_never_overwrite_an_input() {
    let dir = scratch_dir("cli-out-inputs");
    let victim = dir.join("victim.txt");
    let puzzle = std::fs::read(puzzle_path("brendan/pieces_04x04.txt")).unwrap();
    std::fs::write(&victim, &puzzle).unwrap();
    let v = s(&victim);
    let bad = s(&dir.join("missing/p.svg"));
    let o = plytile(&["compare", &v, "--select", "scan", "--plot", &bad]);
    refused_up_front(&o, &bad, "compare --plot in a missing directory");
    let o = plytile(&["predict", &v, "--plot", &bad]);
    refused_up_front(&o, &bad, "predict --plot in a missing directory");
    // a checkpoint too: it was found bad at the end of the search, result lost
    let o = plytile(&["solve", &v, "--all", "--checkpoint", &bad]);
    refused_up_front(&o, &bad, "solve --checkpoint in a missing directory");
    let hard = s(&dir.join("hard.txt"));
    std::fs::hard_link(&victim, &hard).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("victim.txt", dir.join("sym.txt")).unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["show", &v, "-o", &v],
        vec!["compare", &v, "--select", "scan", "--plot", &v],
        vec!["predict", &v, "--plot", &v],
        vec!["convert", &v, "-o", &v],
        vec!["convert", &v, "-o", &hard],
        vec!["solve", &v, "--all", "--checkpoint", &v],
    ];
    for args in &cases {
        let out = args.last().unwrap();
        refused_up_front(&plytile(args), out, &format!("{args:?}"));
    }
    #[cfg(unix)]
    {
        let sym = s(&dir.join("sym.txt"));
        refused_up_front(&plytile(&["show", &sym, "-o", &v]), &v, "through a symlink");
    }
    assert_eq!(
        std::fs::read(&victim).unwrap(),
        puzzle,
        "the puzzle was overwritten"
    );
    let result = dir.join("r.json");
    std::fs::write(&result, plytile(&["solve", &v, "--json"]).stdout).unwrap();
    let r = s(&result);
    let o = plytile(&["show", &v, "--json", &r, "-o", &r]);
    refused_up_front(&o, &r, "show over its board");
    assert!(stderr(&o).contains("is also an input"), "{}", stderr(&o));
    cleanup(&dir);
}

/// Hints pin pieces, so `--symmetry` has nothing to cut: the whole tree is searched,
/// and stderr says so.
#[test]
fn symmetry_on_a_hinted_board_searches_the_whole_tree_and_says_so() {
    let puzzle = p("hinted/b7x5_col3.txt");
    let o = plytile(&["solve", &puzzle, "--symmetry", "--all", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["symmetry"].as_u64(), v["solutions_found"].as_u64()),
        (Some(1), Some(3))
    );
    assert!(stderr(&o).contains("--symmetry is for boards without hints"));
}

/// `branching` takes the tree itself or a file holding it (the golden-ratio tree of "The
/// N-ply average local branching factor": b = 1.618...), and names what it cannot read.
#[test]
fn branching_reads_a_tree_or_a_file_of_one() {
    let golden = "b = 1.618033988749895 (ply 2, 2 level-1 moves, 3 level-2 nodes)\n";
    let tree = "[[[],[]],[[]]]";
    let o = plytile(&["branching", tree]);
    assert_eq!(
        (code(&o), stdout(&o)),
        (0, golden.to_string()),
        "{}",
        stderr(&o)
    );
    let dir = scratch_dir("cli-branching");
    let f = dir.join("tree.json");
    std::fs::write(&f, format!("{tree}\n")).unwrap();
    let o = plytile(&["branching", &s(&f)]);
    assert_eq!(
        (code(&o), stdout(&o)),
        (0, golden.to_string()),
        "{}",
        stderr(&o)
    );
    std::fs::write(&f, "[[").unwrap();
    assert_input_error(&plytile(&["branching", &s(&f)]), &s(&f), None, "cut short");
    let o = plytile(&["branching", "no-such-tree"]);
    assert_input_error(&o, "TREE", None, "neither");
    // A ply past 64 (a tree may be that high): one live child beside each dead end, b = 1.
    let deep = format!("{}[]{}", "[[],".repeat(80), "]".repeat(80));
    let o = plytile(&["branching", &deep, "--ply", "70"]);
    assert_eq!(
        stdout(&o),
        "b = 1 (ply 70, 2 level-1 moves, 2 level-70 nodes)\n"
    );
    cleanup(&dir);
}

/// A `--symmetry` run stopped while its estimates choose the trees searched nothing:
/// its JSON still has a root entry and a whole (empty) deepest board, which `show`
/// and `explain` read like any other.
#[test]
fn a_run_stopped_before_any_node_writes_a_readable_result() {
    let puzzle = p("brendan/pieces_07x07.txt");
    let args = ["solve", &puzzle, "--all", "--symmetry", "--json"];
    let o = plytile(&[&args[..], &["--timeout", "0.001"]].concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["nodes"], 0);
    assert_eq!(r["nodes_per_depth"], serde_json::json!([0]));
    assert_eq!(r["deepest"]["board"].as_array().unwrap().len(), 49);
    let dir = scratch_dir("cli-stopped-early");
    let result = dir.join("r.json");
    std::fs::write(&result, stdout(&o)).unwrap();
    let o = plytile(&["show", &puzzle, "--json", &s(&result)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = plytile(&["explain", &puzzle, "--moves", &s(&result)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("49 empty sites"), "{}", stdout(&o));
    cleanup(&dir);
}

/// A `--split-depth` deeper than the board is cut to the board, and says so.
#[test]
fn a_split_deeper_than_the_board_is_cut_with_a_note() {
    let puzzle = p("brendan/pieces_03x03.txt");
    let o = plytile(&["solve", &puzzle, "--all", "-q", "--split-depth", "20"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let note =
        "--split-depth 20 is deeper than the board's 9 empty cells; splitting at the full depth";
    assert!(stderr(&o).contains(note), "{}", stderr(&o));
    assert!(stdout(&o).contains("16 solution(s)"), "{}", stdout(&o));
}

/// `compare --symmetry` on a hinted board searches the whole tree with `solve`'s note,
/// not silently.
#[test]
fn compare_symmetry_on_a_hinted_board_says_it_searches_the_whole_tree() {
    let puzzle = p("hinted/b7x5_col3.txt");
    let o = plytile(&[
        "compare",
        &puzzle,
        "--symmetry",
        "--select",
        "scan",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "plytile: note: --symmetry is for boards without hints; searching the whole tree\n"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["results"][0]["symmetry"], 1);
}

/// `show -o` writes SVG, so a name promising another format is refused before any
/// file is written, as `convert -o` refuses one; `--plot` too.
#[test]
fn an_svg_output_named_otherwise_is_refused() {
    let dir = scratch_dir("cli-svg-name");
    let puzzle = p("brendan/pieces_04x04.txt");
    let png = s(&dir.join("board.png"));
    let o = plytile(&["show", &puzzle, "-o", &png]);
    assert_input_error(&o, &png, None, "show -o board.png");
    assert_eq!(
        stderr(&o),
        format!(
            "plytile: {png}: -o writes SVG only: give a name ending in .svg (or - for stdout)\n"
        )
    );
    assert!(!dir.join("board.png").exists(), "nothing written");
    let o = plytile(&["compare", &puzzle, "--select", "scan", "--plot", &png]);
    assert!(
        stderr(&o).contains("--plot writes SVG only"),
        "{}",
        stderr(&o)
    );
    assert_input_error(&o, &png, None, "compare --plot board.png");
    let o = plytile(&["show", &puzzle, "-o", &s(&dir.join("board.svg"))]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    cleanup(&dir);
}

/// The 3x3 solution list of the QA report: a viewer link converted to a puzzle and its
/// `piece rotation` list, in `dir`.
fn link_puzzle_and_list(dir: &Path) -> (String, String) {
    let txt = s(&dir.join("g33.txt"));
    let o = plytile(&[
        "gen", "--width", "3", "--height", "3", "--seed", "1", "-o", &txt,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let json = dir.join("g33.json");
    std::fs::write(&json, plytile(&["solve", &txt, "--all", "--json"]).stdout).unwrap();
    let o = plytile(&["show", &txt, "--json", &s(&json), "--link"]);
    let ron = s(&dir.join("fl.ron"));
    let o = plytile(&["convert", stdout(&o).trim(), "-o", &ron]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    (ron, s(&dir.join("fl.solution.txt")))
}

/// `--index` picks a solution of solve's JSON; a file of one board is refused with it,
/// as `show` refuses it, rather than ignoring it.
#[test]
fn verify_index_on_a_file_of_one_board_is_refused() {
    let dir = scratch_dir("cli-verify-index");
    let (ron, list) = link_puzzle_and_list(&dir);
    assert_eq!(code(&plytile(&["verify", &ron, &list])), 0);
    let o = plytile(&["verify", &ron, &list, "--index", "1"]);
    assert_input_error(&o, "--index", None, "verify --index on a list");
    assert_eq!(
        stderr(&o),
        format!("plytile: --index: picks a solution of solve's JSON; {list} holds one board: leave --index out\n")
    );
    cleanup(&dir);
}

/// One stray line of three fields in a `piece rotation` list is named as that, not
/// taken for a Brendan Owen header.
#[test]
fn a_stray_three_field_line_in_a_list_is_named_by_its_line() {
    let dir = scratch_dir("cli-verify-3f");
    let (ron, list) = link_puzzle_and_list(&dir);
    let text = std::fs::read_to_string(&list).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "1 0 5";
    let bad = s(&dir.join("s_3f.txt"));
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let o = plytile(&["verify", &ron, &bad]);
    assert_input_error(&o, &bad, Some(2), "a stray x y r line");
    assert_eq!(
        stderr(&o),
        format!("plytile: {bad}:2: a `piece rotation` line has 2 fields (`-` for an empty cell); this one has 3\n")
    );
    // One more line, which throws the count off: still that line, not the count.
    let extra = s(&dir.join("s_extra.txt"));
    std::fs::write(&extra, format!("{text}1 0 5\n")).unwrap();
    let o = plytile(&["verify", &ron, &extra]);
    let at = text.lines().count() + 1;
    assert_eq!(
        stderr(&o),
        format!("plytile: {extra}:{at}: a `piece rotation` line has 2 fields (`-` for an empty cell); this one has 3\n")
    );
    assert_eq!(code(&o), 2);
    cleanup(&dir);
}

/// RON -> txt -> RON keeps the name and source: the text writer puts them on
/// `# name: ` and `# source: ` lines, which the reader takes back. A plain comment
/// names nothing: the file is named after itself, as before.
#[test]
fn a_ron_txt_ron_round_trip_keeps_name_and_source() {
    let dir = scratch_dir("cli-round-trip");
    let (ron, txt, back) = (
        dir.join("g33.ron"),
        dir.join("g33b.txt"),
        dir.join("g33c.ron"),
    );
    let gen = [
        "gen",
        "--width",
        "3",
        "--height",
        "3",
        "--seed",
        "1",
        "-o",
        &s(&ron),
    ];
    assert_eq!(code(&plytile(&gen)), 0);
    assert_eq!(code(&plytile(&["convert", &s(&ron), "-o", &s(&txt)])), 0);
    assert_eq!(code(&plytile(&["convert", &s(&txt), "-o", &s(&back)])), 0);
    let original = std::fs::read_to_string(&ron).unwrap();
    assert!(original.contains("source: Some("), "{original}");
    assert_eq!(std::fs::read_to_string(&back).unwrap(), original);
    let head: Vec<String> = std::fs::read_to_string(&txt)
        .unwrap()
        .lines()
        .take(2)
        .map(String::from)
        .collect();
    assert_eq!(
        head,
        [
            "# name: gen-3x3-2+2-seed1",
            "# source: plytile gen --width 3 --height 3 --rim-colours 2 --inner-colours 2 --seed 1"
        ]
    );
    // The old writer's bare `# NAME` line is only a comment.
    let plain = dir.join("plain.txt");
    let body = std::fs::read_to_string(&txt).unwrap();
    std::fs::write(&plain, body.replacen("# name: ", "# ", 1)).unwrap();
    let p = read_puzzle(&plain, EdgeOrder::Urdl).unwrap();
    assert_eq!(p.name, "plain");
    // A name that RON would refuse (a tab) is refused here too, at its line, so that
    // what `convert` writes always reads back.
    let tab = s(&dir.join("tab.txt"));
    std::fs::write(&tab, body.replacen("# name: gen", "# name: g\ten", 1)).unwrap();
    let o = plytile(&["convert", &tab, "-o", &s(&dir.join("tab.ron"))]);
    assert_eq!(
        stderr(&o),
        format!("plytile: {tab}:1: the puzzle's name holds a control character (a tab or a line break?); write it on one line without them\n")
    );
    assert_eq!(code(&o), 2);
    assert!(!dir.join("tab.ron").exists());
    cleanup(&dir);
}

/// Options a file or board cannot use say so on stderr, and output names take their
/// extension in any case (QA).
#[test]
fn ignored_options_are_noted_and_extensions_take_any_case() {
    let dir = scratch_dir("cli-notes");
    let ron = s(&dir.join("b33.RON"));
    let o = plytile(&["convert", &p("brendan/pieces_03x03.txt"), "-o", &ron]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(std::fs::read_to_string(&ron)
        .unwrap()
        .trim_start()
        .starts_with('('));
    let txt = s(&dir.join("g.TXT"));
    let o = plytile(&[
        "gen", "--width", "3", "--height", "3", "--seed", "1", "-o", &txt,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(std::fs::read_to_string(&txt).unwrap().contains("\n3 3\n"));
    // --edge-order on a RON file: read as RON, with a note.
    let o = plytile(&["solve", &ron, "--all", "-q", "--edge-order", "blrt"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("solution(s), exhaustive"));
    assert_eq!(
        stderr(&o).trim(),
        format!("plytile: note: --edge-order is for text puzzle files; {ron} is RON, whose pieces are up right down left")
    );
    // --symmetry-parts on a board with W != H: its two halves, with a note.
    let b75 = p("brendan/pieces_07x05.txt");
    for how in ["anchor", "pairs"] {
        let o = plytile(&[
            "solve",
            &b75,
            "--all",
            "-q",
            "--symmetry",
            "--symmetry-parts",
            how,
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).contains("32 solution(s)"), "{}", stdout(&o));
        assert!(
            stderr(&o).contains("--symmetry-parts cuts square boards; this 7x5 board's"),
            "{}",
            stderr(&o)
        );
    }
    let o = plytile(&["solve", &b75, "--all", "-q", "--symmetry"]);
    assert_eq!(stderr(&o), "", "auto says nothing");
    cleanup(&dir);
}

/// `show --link -o -` would print the link and the SVG into one stdout: refused with
/// one line, exit 2.
#[test]
fn show_link_and_svg_on_stdout_are_refused() {
    let puzzle = p("brendan/pieces_04x04.txt");
    let o = plytile(&["show", &puzzle, "--link", "-o", "-"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o),
        "plytile: -o - and --link: only one output can go to stdout (-); write the other to a file\n"
    );
    let o = plytile(&["show", &puzzle, "-o", "-"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("<svg"));
}

// ---------------------------------------------------------------------------------
// Issue 43: a newcomer's first hour

/// A batch engine (GNU parallel, Slurm) counts every exit code but 0 as a failed
/// task: a shard or job exits 0 once its share is searched to the end, whether or not
/// it held solutions, and 3 when a limit stopped it first. Plain `solve` keeps its
/// codes (1: none exists).
#[test]
fn shards_and_jobs_exit_0_when_their_share_is_searched_to_the_end() {
    let puzzle = p("brendan/pieces_05x05.txt");
    let json = |o: &Output| -> serde_json::Value { serde_json::from_str(&stdout(o)).unwrap() };
    let mut empty = 0;
    let mut found = 0;
    for i in 0..16 {
        let shard = format!("{i}/16");
        let o = plytile(&[
            "solve",
            &puzzle,
            "--select",
            "scan",
            "--all",
            "--json",
            "--threads",
            "1",
            "--shard",
            &shard,
        ]);
        assert_eq!(code(&o), 0, "shard {shard}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(v["exhaustive"], true, "shard {shard}");
        let n = v["solutions_found"].as_u64().unwrap();
        empty += (n == 0) as usize;
        found += n;
    }
    assert_eq!(found, 16);
    assert!(empty > 0, "some shards hold no solution");
    // The same through job files.
    let dir = scratch_dir("cli-batch-exit");
    let out = dir.join("jobs");
    let o = plytile(&[
        "split",
        &puzzle,
        "--select",
        "scan",
        "--jobs",
        "16",
        "--out",
        &s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut jobs: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    jobs.sort();
    assert_eq!(jobs.len(), 16);
    let (mut empty, mut found) = (0, 0);
    for job in &jobs {
        let o = plytile(&[
            "solve",
            "--job",
            &s(job),
            "--all",
            "--json",
            "--threads",
            "1",
        ]);
        assert_eq!(code(&o), 0, "{}: {}", job.display(), stderr(&o));
        let n = json(&o)["solutions_found"].as_u64().unwrap();
        empty += (n == 0) as usize;
        found += n;
    }
    assert_eq!(found, 16);
    assert!(empty > 0, "some jobs hold no solution");
    cleanup(&dir);
    // Stopped by a limit before its share was done: 3, solutions or not.
    let big = p("brendan/pieces_10x10.txt");
    for stop in [["--max-nodes", "1000"], ["--timeout", "0.2"]] {
        let o = plytile(&[&["solve", &big, "--all", "-q", "--shard", "1/4"][..], &stop].concat());
        assert_eq!(code(&o), 3, "{stop:?}: {}", stderr(&o));
    }
    // A shard stopped at the --solutions K it asked for has done what it was asked.
    let o = plytile(&[
        "solve",
        &puzzle,
        "--select",
        "scan",
        "--solutions",
        "1",
        "--json",
        "--shard",
        "0/1",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)["stopped_by"], "solutions");
    // Plain solve: unchanged (0 found; 1 none exists is solve_exit_1_when_none_exists).
    let o = plytile(&["solve", &puzzle, "-q"]);
    assert_eq!(code(&o), 0);
    let o = plytile(&["solve", &big, "--max-nodes", "1000", "-q"]);
    assert_eq!(code(&o), 3);
    // The flags' help says so.
    let help = stdout(&plytile(&["solve", "--help"]));
    assert!(
        help.contains("Exit codes for batch engines (GNU parallel, Slurm): 0 when the shard's share was searched to the end, with or without solutions"),
        "{help}"
    );
    assert!(
        help.contains("Exit codes as for --shard: 0 when the job's share was searched to the end"),
        "{help}"
    );
}

/// A puzzle with a colour on an odd number of piece sides has no solution, and the
/// count shows it before any search: `solve` says so in one line and exits 1 at once
/// (a 10x10 with one mistyped side searched until its --timeout and exited 3), in
/// every mode; `compare` without --all and `bench --solutions` run nothing.
#[test]
fn a_puzzle_proven_unsolvable_exits_1_at_once() {
    let dir = scratch_dir("cli-odd-at-once");
    let text = std::fs::read_to_string(p("brendan/pieces_10x10.txt")).unwrap();
    // Mistype the first side of the first inner piece: its colour c becomes c + 1.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let k = (1..lines.len())
        .find(|&k| {
            let v: Vec<u32> = lines[k]
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            v.len() == 4 && v.iter().all(|&c| c != 0)
        })
        .unwrap();
    let mut v: Vec<u32> = lines[k]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let (was, now) = (v[0], v[0] + 1);
    v[0] = now;
    lines[k] = v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let f = dir.join("typo.txt");
    std::fs::write(&f, lines.join("\n") + "\n").unwrap();
    // Count the sides of each colour here, from the file.
    let mut sides = std::collections::BTreeMap::new();
    for l in &lines[1..] {
        for c in l.split_whitespace() {
            *sides.entry(c.parse::<u32>().unwrap()).or_insert(0usize) += 1;
        }
    }
    let (&c, &n) = sides.iter().find(|(c, n)| **c != 0 && *n % 2 == 1).unwrap();
    assert!(c == was || c == now);
    let why = format!(
        "colour {c} shows on {n} piece sides, an odd number, so no board matches them all: the puzzle has no solution (a piece mistyped or missing?)"
    );
    let file = s(&f);
    let start = std::time::Instant::now();
    for args in [
        vec!["solve", &file, "--timeout", "60"],
        vec!["solve", &file, "--all", "--threads", "2", "--timeout", "60"],
        vec!["solve", &file, "--shard", "0/4", "--all", "--timeout", "60"],
        vec!["solve", &file, "--symmetry", "--all", "--timeout", "60"],
    ] {
        let o = plytile(&args);
        assert_eq!(code(&o), 1, "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), format!("plytile: {file}: {why}\n"), "{args:?}");
    }
    let o = plytile(&["solve", &file, "--json"]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["solutions_found"], 0);
    assert_eq!(v["exhaustive"], true);
    assert_eq!(v["nodes"], 0);
    assert_eq!(
        v["unsolvable"],
        format!("colour {c} shows on {n} piece sides, an odd number")
    );
    let o = plytile(&["solve", &file]);
    assert!(
        stdout(&o).contains(&format!(
            "exhaustive  yes (proven before the search: colour {c} shows on {n} piece sides, an odd number)"
        )),
        "{}",
        stdout(&o)
    );
    // A checkpointed run: nothing to record, no lock left.
    let ck = dir.join("run.ck");
    let o = plytile(&["solve", &file, "--checkpoint", &s(&ck)]);
    assert_eq!(code(&o), 1);
    assert!(!dir.join("run.ck.lock").exists());
    // A job file of it.
    let jobs = dir.join("jobs");
    let o = plytile(&["split", &file, "--jobs", "2", "--out", &s(&jobs)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let job = s(&jobs.join("job-0000.ron"));
    let o = plytile(&["solve", "--job", &job, "--all"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(stderr(&o), format!("plytile: {job}: {why}\n"));
    // compare: nothing to compare without --all.
    let o = plytile(&["compare", &file, "--select", "scan,mrv"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!("plytile: {file}: {why}; nothing to compare (with --all, compare measures the whole tree of each heuristic)\n")
    );
    assert_eq!(stdout(&o), "");
    // bench --solutions: nothing to time.
    let o = plytile(&[
        "bench",
        &file,
        "--select",
        "scan",
        "--solutions",
        "1",
        "--runs",
        "1",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!("plytile: {file}: {why}; --solutions would time a search for solutions that do not exist (leave it out to time the whole tree)\n")
    );
    assert!(
        start.elapsed() < std::time::Duration::from_secs(30),
        "at once"
    );
    // compare --all of a small one compares the whole trees, with a note.
    let text = std::fs::read_to_string(p("brendan/pieces_03x03.txt")).unwrap();
    let g = dir.join("typo3.txt");
    std::fs::write(&g, text.replace("\n3 3 4 4\n", "\n3 5 4 4\n")).unwrap();
    let o = plytile(&["compare", &s(&g), "--select", "scan,mrv", "--all", "--json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).starts_with(&format!(
        "plytile: note: {}: colour 3 shows on 3 piece sides",
        s(&g)
    )));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
    assert!(v["results"][0]["nodes"].as_u64().unwrap() > 1);
    cleanup(&dir);
}

/// A run stopped early on several threads counts nodes that depend on the threads'
/// timing (Brendan's 7x7 to its first solution: 11.1M, 13.0M, 11.7M nodes in three
/// runs): the report says so in one line, with how to get the same count every run,
/// and JSON `nodes_depend_on_timing` says it too.
#[test]
fn a_count_that_depends_on_thread_timing_says_so() {
    let puzzle = p("brendan/pieces_06x06.txt");
    let run = |extra: &[&str]| plytile(&[&["solve", &puzzle][..], extra].concat());
    let flag = |extra: &[&str]| {
        let o = run(&[extra, &["--json"]].concat());
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        (
            v["nodes_depend_on_timing"].as_bool().unwrap(),
            v["threads"].as_u64().unwrap(),
            v["nodes"].as_u64().unwrap(),
        )
    };
    let threads_line = "reproduce   the node count depends on thread timing (2 threads stopped early); --threads 1 counts the same nodes every run";
    let clock_line = "reproduce   the node count depends on when the run was stopped; --max-nodes N --threads 1 counts the same nodes every run";
    // One thread: the same count every run, and no line.
    let (timing, _, a) = flag(&["--threads", "1"]);
    let (_, _, b) = flag(&["--threads", "1"]);
    assert!(!timing);
    assert_eq!(a, b, "--threads 1 counts the same nodes every run");
    assert!(!stdout(&run(&["--threads", "1"])).contains("reproduce"));
    // To the end on two threads: the same count as one.
    assert!(!flag(&["--threads", "2", "--all"]).0);
    // Stopped early on two threads (where the machine has them).
    let (timing, threads, _) = flag(&["--threads", "2"]);
    if threads == 2 {
        assert!(timing);
        let out = stdout(&run(&["--threads", "2"]));
        assert_eq!(
            out.lines().filter(|l| *l == threads_line).count(),
            1,
            "{out}"
        );
        assert!(flag(&["--threads", "2", "--all", "--max-nodes", "100000"]).0);
        assert!(flag(&["--threads", "2", "--solutions", "3"]).0);
    } else {
        eprintln!("one core only: the two-thread part is not checked");
    }
    // Stopped by a clock: not the same count on any number of threads.
    let big = p("brendan/pieces_10x10.txt");
    let o = plytile(&["solve", &big, "--threads", "1", "--timeout", "0.3"]);
    assert_eq!(code(&o), 3);
    assert_eq!(
        stdout(&o).lines().filter(|l| *l == clock_line).count(),
        1,
        "{}",
        stdout(&o)
    );
    // --max-nodes on one thread: exact, so no line.
    let o = plytile(&[
        "solve",
        &big,
        "--threads",
        "1",
        "--max-nodes",
        "1000",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes_depend_on_timing"], false);
    assert_eq!(v["nodes"], 1000);
}

/// The text boards come with a legend line that says how to read a cell.
#[test]
fn text_boards_come_with_a_legend() {
    let legend = "legend: each cell is 3 lines: its top colour; left colour, piece/rotation, right colour; its bottom colour (pieces numbered from 0 in file order, rotation = clockwise quarter turns, colour 0 = the rim, . = empty cell)";
    let o = plytile(&["solve", &p("brendan/pieces_04x04.txt"), "--all"]);
    let out = stdout(&o);
    // Three boards drawn, one legend under them.
    assert_eq!(
        out.lines().filter(|l| l.starts_with("solution ")).count(),
        3
    );
    assert_eq!(out.lines().filter(|l| *l == legend).count(), 1, "{out}");
    let at = out.lines().position(|l| l == legend).unwrap();
    assert!(
        out.lines().nth(at + 2).unwrap().starts_with("puzzle "),
        "{out}"
    );
    // A deepest partial board gets it too; no board, no legend.
    let o = plytile(&[
        "solve",
        &p("brendan/pieces_10x10.txt"),
        "--max-nodes",
        "500",
    ]);
    assert!(stdout(&o).contains("deepest partial board"));
    assert_eq!(stdout(&o).lines().filter(|l| *l == legend).count(), 1);
    let o = plytile(&["solve", &p("brendan/pieces_04x04.txt"), "-q"]);
    assert!(!stdout(&o).contains("legend"));
    // show, to a pipe: the plain board, then the legend, then the caption.
    let o = plytile(&[
        "show",
        &p("brendan/pieces_05x05.txt"),
        &p("brendan/solutions_05x05.txt"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[lines.len() - 2], legend, "{out}");
    assert!(lines[lines.len() - 1].starts_with("pieces_05x05 5x5: 40 of 40 inner edges matched"));
}

/// A mistyped subcommand or flag gets clap's suggestion, in the one line.
#[test]
fn a_mistyped_subcommand_or_flag_gets_did_you_mean() {
    let o = plytile(&["slove", "x.txt"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "plytile: unrecognized subcommand 'slove'; did you mean 'solve'? (see --help)\n"
    );
    let o = plytile(&["frobnicate"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "plytile: unrecognized subcommand 'frobnicate' (see --help)\n"
    );
    let puzzle = p("brendan/pieces_03x03.txt");
    let o = plytile(&["solve", &puzzle, "--thread", "2"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "plytile: unexpected argument '--thread' found; did you mean '--threads'? (see --help)\n"
    );
    // The other one-line forms, as before.
    for (args, want) in [
        (vec!["solve"], "plytile: the following required arguments were not provided: <PUZZLE> (see --help)\n"),
        (vec!["solve", &puzzle, "--all", "--solutions", "3"], "plytile: the argument '--all' cannot be used with '--solutions <K>' (see --help)\n"),
        (vec!["predict", &puzzle, "--model", "foo"], "plytile: invalid value 'foo' for '--model <MODEL>'; expected one of: analytic, sampled, all (see --help)\n"),
        (vec!["solve", &puzzle, "--timeout", "-1"], "plytile: invalid value '-1' for '--timeout <SECS>': '-1' is not a positive number of seconds (see --help)\n"),
    ] {
        let o = plytile(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(stderr(&o), want, "{args:?}");
    }
}
