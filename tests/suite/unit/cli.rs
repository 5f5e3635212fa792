//! The command line's helpers (`cli`).

use plytile::cli::shell_line;

#[test]
fn shell_line_quotes_only_what_the_shell_would_change() {
    assert_eq!(
        shell_line(["plytile", "bench", "p/x_1.txt", "--select", "scan,mrv"]),
        "plytile bench p/x_1.txt --select scan,mrv"
    );
    assert_eq!(shell_line(["we,ird|\"name.txt"]), r#"'we,ird|"name.txt'"#);
    assert_eq!(shell_line(["it's", "", "a b"]), r"'it'\''s' '' 'a b'");
}
