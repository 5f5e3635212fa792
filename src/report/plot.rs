//! Growth plots: nodes per depth of several series on a log scale, as a standalone
//! SVG. Shared by `compare --plot` and `predict --plot`; it reads finished results and
//! never reruns a search. Hand-written SVG (no plotting crate): no fonts or system
//! libraries are needed, and the file is small and diff-able.

use std::fmt::Write;

/// One curve: a name for the legend and a value per depth (index = depth). Values
/// <= 0 are gaps (log scale).
pub struct Series<'a> {
    pub name: &'a str,
    pub values: &'a [f64],
}

/// A readable, colour-blind-safe palette (Okabe-Ito).
const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

/// Renders the series as an SVG line chart, y on a log10 scale.
pub fn growth_svg(title: &str, y_label: &str, series: &[Series]) -> String {
    let (w, h) = (800.0, 480.0);
    let (left, right, top, bottom) = (80.0, 180.0, 40.0, 50.0);
    let depth_max = series
        .iter()
        .map(|s| s.values.len())
        .max()
        .unwrap_or(1)
        .max(2)
        - 1;
    let positive = series
        .iter()
        .flat_map(|s| s.values.iter())
        .copied()
        .filter(|v| *v > 0.0);
    let (lo, hi) = positive.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let (lo_e, hi_e) = if lo.is_finite() {
        (
            lo.log10().floor(),
            hi.log10().ceil().max(lo.log10().floor() + 1.0),
        )
    } else {
        (0.0, 1.0)
    };
    let px = |d: f64| left + d / depth_max as f64 * (w - left - right);
    let py = |v: f64| top + (hi_e - v.log10()) / (hi_e - lo_e) * (h - top - bottom);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>
"##,
        (left + w - right) / 2.0,
        escape(title)
    );
    // Grid: one line per power of ten, depth ticks every few levels.
    let mut e = lo_e;
    while e <= hi_e {
        let y = py(10f64.powf(e));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">1e{e}</text>"##,
            w - right,
            left - 6.0,
            y + 4.0
        );
        e += 1.0;
    }
    let step = (depth_max / 16).max(1);
    for d in (0..=depth_max).step_by(step) {
        let x = px(d as f64);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="#eee"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{d}</text>"##,
            h - bottom,
            h - bottom + 16.0
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">depth</text><text x="16" y="{:.1}" transform="rotate(-90 16 {:.1})" text-anchor="middle">{}</text>"##,
        (left + w - right) / 2.0,
        h - 12.0,
        (top + h - bottom) / 2.0,
        (top + h - bottom) / 2.0,
        escape(y_label)
    );
    for (i, ser) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let mut path = String::new();
        let mut pen_down = false;
        for (d, &v) in ser.values.iter().enumerate() {
            if v > 0.0 {
                let _ = write!(
                    path,
                    "{}{:.1},{:.1} ",
                    if pen_down { "L" } else { "M" },
                    px(d as f64),
                    py(v)
                );
                pen_down = true;
            } else {
                pen_down = false;
            }
        }
        let dash = if i >= PALETTE.len() {
            r#" stroke-dasharray="6 3""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r##"<path d="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}><title>{}</title></path>"##,
            path.trim_end(),
            escape(ser.name)
        );
        let ly = top + 10.0 + 18.0 * i as f64;
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"##,
            w - right + 12.0,
            w - right + 36.0,
            w - right + 42.0,
            ly + 4.0,
            escape(ser.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Escapes text for SVG.
pub fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
