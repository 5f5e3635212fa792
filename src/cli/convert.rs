//! `plytile convert`.

use super::{write_output, PuzzleArgs};
use crate::error::{InputError, Result};
use crate::puzzle::formats;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Output file; its extension chooses the format (.ron or .txt); `-` for stdout.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Output format when writing to stdout: ron or txt.
    #[arg(long, default_value = "ron")]
    pub to: String,
}

pub fn run(a: ConvertArgs) -> Result<u8> {
    let p = a.input.load()?;
    let fmt = match a.output.extension().and_then(|e| e.to_str()) {
        Some(e) => e.to_string(),
        None => a.to.clone(),
    };
    let text = match fmt.as_str() {
        "ron" => formats::to_ron(&p),
        "txt" => formats::to_text(&p),
        other => return Err(InputError::new(
            "--output",
            format!(
                "unknown format '{other}'; use a .ron or .txt file name (or --to ron|txt with -)"
            ),
        )),
    };
    write_output(&a.output, &text)?;
    Ok(0)
}
