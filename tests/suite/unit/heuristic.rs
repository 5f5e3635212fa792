//! The list of heuristics (`search::select::syntaxes`, `heuristic_list!`): the help, the
//! docs, the parser.

use plytile::search::select::{help, syntaxes, Heuristic};

/// `--help` lists the syntaxes as it did when the list was written out by hand.
#[test]
fn help_lists_the_table() {
    assert_eq!(
        help(),
        "scan, scan:rows, scan:columns, mrv, ply:N, ply:N:adj, order:spiral, order:hints, order:deep, order:FILE, pmean:N:p, ply:N@D, mrv@D (N = 1..=4, p from -1000 to -0.001, D placements beyond the hints; docs/guide.md, \"Heuristics\")"
    );
}

/// Every syntax has a row in the docs' table of heuristics (README.md
/// or a page under docs/), so that a new heuristic is documented with it.
#[test]
fn the_docs_list_every_heuristic() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut text = std::fs::read_to_string(format!("{root}/README.md")).unwrap_or_default();
    for page in std::fs::read_dir(format!("{root}/docs"))
        .into_iter()
        .flatten()
        .flatten()
    {
        if page.path().extension().is_some_and(|e| e == "md") {
            text += &std::fs::read_to_string(page.path()).unwrap_or_default();
        }
    }
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    for (syntax, _) in syntaxes() {
        let cell = format!("`{syntax}`");
        assert!(
            rows.iter().any(|r| r.contains(&cell)),
            "no table row in README.md or docs/*.md names {cell}"
        );
    }
}

/// Each syntax, with its N and p filled in, parses back to what it prints.
#[test]
fn every_row_parses() {
    let order = std::env::temp_dir().join(format!("plytile-order-{}.txt", std::process::id()));
    std::fs::write(&order, "0 0\n").unwrap();
    for (syntax, about) in syntaxes() {
        let example = syntax
            .replace('N', "2")
            .replace(":p", ":-4")
            .replace('D', "12")
            .replace("FILE", order.to_str().unwrap());
        let h: Heuristic = example.parse().unwrap();
        assert_eq!(h.to_string(), example.replace(":one", ""), "{syntax}");
        assert!(!about.is_empty());
    }
    let _ = std::fs::remove_file(order);
}
