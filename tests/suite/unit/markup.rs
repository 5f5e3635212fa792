//! Tables for people and spreadsheets (`report::export::markup`).

use plytile::report::export::markup::{Csv, Markdown, Table, Text};

fn table() -> Table {
    let mut t = Table::new(&["select", ">nodes"]);
    t.push(vec!["mrv".into(), "12".into()]);
    t.push(vec!["a,\"b\"".into(), "3".into()]);
    t
}

#[test]
fn each_markup_renders_the_same_table() {
    assert_eq!(
        table().render(&Markdown),
        "| select | nodes |\n| :----- | ----: |\n| mrv    |    12 |\n| a,\"b\"  |     3 |\n"
    );
    assert_eq!(
        table().render(&Csv),
        "select,nodes\nmrv,12\n\"a,\"\"b\"\"\",3\n"
    );
    assert_eq!(
        table().render(&Text),
        "  select  nodes\n  ──────  ─────\n  mrv        12\n  a,\"b\"       3\n"
    );
}
