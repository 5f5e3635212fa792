//! Prediction of nodes per depth of the edge-matching search, several ways, side by side
//! with the measured tree (`plytile predict`).
//!
//! | model | from | classes | matrices |
//! |---|---|---|---|
//! | `analytic` | the piece set alone ([`analytic`]) | colour the next cell must show on its left, along scan's order (row-major; run on [`Puzzle::along`], so column-major when wider than tall or with `scan:columns`) | one per depth (cell kind, constrained sides, pool and colour depletion); spectrum of the stationary inner-cell matrix |
//! | `sampled` | random probes of the real search, any heuristic ([`sampled`]) | (kind of the chosen cell, legal placements there, bucketed) | one per depth from the probes; spectrum of the pooled matrix |
//! | `knuth` | the same probes | — | mean product of branching factors (Knuth 1975) |
//! | `stratified` | the `scan` heuristics' own probes ([`probe::estimate_per_depth`]); the others' on the generic state ([`probe::stratified_generic`]) | — | Knuth's estimate with the top levels counted exactly and the probes shared among the nodes below them |
//! | `owen` | the piece set alone ([`owen`]) | — | Owen's expected count of partial solutions along scan's order |
//!
//! `analytic` and `owen` model the static order of `scan` (row-major of [`Puzzle::along`], along the lines of the scan asked for); for another heuristic
//! they still predict scan's tree, and the report says so. Everything here is pure except
//! [`crate::search::estimate`], which walks the real search through its public API.
//!
//! Models without a class matrix (`knuth`, `stratified`, `owen`) report as their "spectrum" the single
//! eigenvalue of their 1×1 growth: the geometric-mean growth `n(peak)^(1/peak)` up to the
//! depth of their largest level.

use crate::growth::models::{analytic, owen, sampled};
use crate::search::estimate as probe;

use crate::growth::eigen::{self, C64};
use crate::growth::spectral::spectral_radius;
use crate::puzzle::Puzzle;
use crate::search::symmetric::Part;
use crate::search::{Heuristic, Stop};
use nalgebra::DMatrix;
use probe::Stopped;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Which of the two new models to run (the baselines `knuth` and `owen` always run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelChoice {
    Analytic,
    Sampled,
    All,
}

/// Options of one prediction.
#[derive(Debug, Clone)]
pub struct Options {
    pub select: Heuristic,
    pub model: ModelChoice,
    pub probes: usize,
    /// Probes of the `stratified` model of the scan heuristics (cheap: they run on
    /// scan's tables); the others' take `probes`.
    pub stratified_probes: usize,
    pub seed: u64,
}

/// One model's prediction.
#[derive(Debug, Clone, Serialize)]
pub struct ModelPrediction {
    pub name: String,
    /// Expected nodes per depth, index 0 = root.
    pub per_depth: Vec<f64>,
    /// Eigenvalues (`[re, im]`, by decreasing modulus) of the stationary / pooled matrix.
    pub eigenvalues: Vec<[f64; 2]>,
    pub spectral_radius: Option<f64>,
    /// Names of the rows/columns of that matrix.
    pub classes: Vec<String>,
    pub notes: Vec<String>,
}

/// Per-model comparison with the measured tree.
#[derive(Debug, Clone, Serialize)]
pub struct ModelSummary {
    pub predicted_total: f64,
    pub predicted_solutions: f64,
    /// predicted / measured total nodes.
    pub ratio_total: Option<f64>,
    /// predicted / measured solutions (`None` when none were measured).
    pub ratio_solutions: Option<f64>,
    /// Mean of |log10(predicted / measured)| over the depths where both are positive.
    pub mean_abs_log10_ratio: Option<f64>,
    /// Depths where exactly one of predicted and measured is zero.
    pub zero_mismatch_depths: usize,
    /// `n(peak)^(1/peak)` of the prediction.
    pub growth: Option<f64>,
}

/// Everything `plytile predict` prints; `--json` is this struct.
#[derive(Debug, Clone, Serialize)]
pub struct PredictReport {
    pub puzzle: String,
    pub width: usize,
    pub height: usize,
    pub select: Heuristic,
    pub probes: usize,
    /// `--stratified-probes`: the `stratified` model's (and `estimated_total`'s) probes.
    pub stratified_probes: usize,
    pub seed: u64,
    pub models: Vec<String>,
    /// Model name → expected nodes per depth (index 0 = root).
    pub predicted_per_depth: BTreeMap<String, Vec<f64>>,
    /// Measured nodes per depth (with `--measure`), padded to the full depth.
    pub measured_per_depth: Option<Vec<u64>>,
    /// False when a limit or Ctrl-C stopped the measured run (the counts are then
    /// partial; `measured_stopped_by` says which).
    pub measured_exhaustive: Option<bool>,
    /// What stopped the measured run early, as `solve --json`'s `stopped_by`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured_stopped_by: Option<Stop>,
    pub measured_total: Option<u64>,
    pub measured_solutions: Option<u64>,
    /// `n(peak)^(1/peak)` of the measured tree.
    pub measured_growth: Option<f64>,
    /// Model name → spectral radius of its stationary / pooled matrix.
    pub spectral_radius: BTreeMap<String, Option<f64>>,
    /// Model name → eigenvalues `[re, im]`.
    pub eigenvalues: BTreeMap<String, Vec<[f64; 2]>>,
    /// Model name → class names of its matrix.
    pub classes: BTreeMap<String, Vec<String>>,
    pub summary: BTreeMap<String, ModelSummary>,
    pub notes: Vec<String>,
    /// With `--symmetry`: the trees `solve --symmetry --all` searches, one after
    /// another. The per-depth figures above are then their sums (depth = pieces beyond
    /// the fixed corners, the same in each), and the spectra those of the largest tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<PartPrediction>>,
    /// With `--symmetry`: the sum of the trees' stratified Knuth estimates, the
    /// figure `solve` chose them by ([`probe::estimate`]; far more probes than `knuth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_total: Option<f64>,
    /// Ctrl-C or `--timeout` stopped the probes: the models that need them are left
    /// out (absent when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub probes_stopped: bool,
}

/// One tree of a `--symmetry` cut in [`PredictReport::parts`].
#[derive(Debug, Clone, Serialize)]
pub struct PartPrediction {
    /// `[row, col, piece, rotation]` of each corner piece fixed in it.
    pub corners: Vec<[usize; 4]>,
    /// The heuristic it is searched with (scan along its own lines).
    pub select: Heuristic,
    /// Its stratified Knuth estimate, when one was made to choose it.
    pub estimate: Option<f64>,
    /// Model name → predicted total nodes.
    pub predicted_total: BTreeMap<String, f64>,
    pub measured_total: Option<u64>,
}

/// Eigenvalues as `[re, im]` pairs and the spectral radius. Without `spectral`'s
/// limits: the models' matrices are small by construction (the sampled model's
/// [`sampled::CLASSES`] classes, the analytic model's at most 255 colours).
pub fn spectrum(m: &DMatrix<f64>) -> (Vec<[f64; 2]>, Option<f64>) {
    if m.nrows() == 0 {
        return (Vec::new(), Some(0.0));
    }
    match eigen::eigenvalues(m) {
        Ok(v) => (
            v.iter().map(|z: &C64| [z.re, z.im]).collect(),
            Some(spectral_radius(&v)),
        ),
        Err(_) => (Vec::new(), None),
    }
}

/// `n(peak)^(1/peak)`, peak = the depth of the largest level (`None` if the peak is the root).
pub fn growth(per_depth: &[f64]) -> Option<f64> {
    let (peak, &top) = per_depth
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    (peak > 0 && top > 0.0)
        .then(|| (top / per_depth[0].max(f64::MIN_POSITIVE)).powf(1.0 / peak as f64))
}

/// The 1×1 "matrix" of a model without classes: its geometric-mean growth.
fn scalar_model(name: &str, per_depth: Vec<f64>, notes: Vec<String>) -> ModelPrediction {
    let g = growth(&per_depth);
    ModelPrediction {
        name: name.into(),
        per_depth,
        eigenvalues: g.map(|g| vec![[g, 0.0]]).unwrap_or_default(),
        spectral_radius: g,
        classes: vec!["all".into()],
        notes,
    }
}

/// What the analytic and Owen models follow.
const SCAN_ORDER: &str = "models the order of scan (its lines: rows, columns when wider than tall; those of scan:rows or scan:columns when asked)";

/// Owen's model as a prediction, along the row-major order of `rows` (the puzzle as
/// scan fills it: [`Puzzle::along`]).
pub fn owen_model(rows: &Puzzle) -> ModelPrediction {
    scalar_model("owen", owen::owen_per_depth(rows), vec![SCAN_ORDER.into()])
}

/// The analytic model as a prediction (with colour depletion), along the row-major
/// order of `rows` as [`owen_model`].
pub fn analytic_model(rows: &Puzzle) -> ModelPrediction {
    let a = analytic::analytic(rows, false);
    let (eigenvalues, rho) = spectrum(&a.stationary);
    ModelPrediction {
        name: "analytic".into(),
        per_depth: a.per_depth,
        eigenvalues,
        spectral_radius: rho,
        classes: a
            .stationary_classes
            .iter()
            .map(|c| format!("left={c}"))
            .collect(),
        notes: vec![format!(
            "{SCAN_ORDER}; spectrum = generic inner cell, full piece pool"
        )],
    }
}

/// The sampled class model from probe statistics.
pub fn sampled_model(stats: &sampled::ProbeStats) -> ModelPrediction {
    let (per_depth, _) = stats.class_model();
    let (m, seen) = stats.pooled();
    let (eigenvalues, rho) = spectrum(&m);
    ModelPrediction {
        name: "sampled".into(),
        per_depth,
        eigenvalues,
        spectral_radius: rho,
        classes: seen.into_iter().map(sampled::class_name).collect(),
        notes: vec!["spectrum = matrix pooled over all depths".into()],
    }
}

/// Knuth's estimate from probe statistics.
pub fn knuth_model(stats: &sampled::ProbeStats) -> ModelPrediction {
    scalar_model("knuth", stats.knuth(), Vec::new())
}

/// The stratified Knuth estimate: the `scan` heuristics' from
/// `opts.stratified_probes` probes on their tables ([`probe::estimate_per_depth`],
/// what `solve --symmetry` chooses trees by), the others' from `opts.probes` on the
/// generic state ([`probe::stratified_generic`]); None once `stopped()`.
pub fn stratified_model(
    puzzle: &Puzzle,
    opts: &Options,
    stopped: &Stopped<'_>,
) -> Option<ModelPrediction> {
    let (h, seed) = (opts.select, opts.seed);
    let (per_depth, whole) = match h.is_scan() {
        true => (
            probe::per_depth_until(puzzle, h, opts.stratified_probes, seed, stopped)?,
            false,
        ),
        false => probe::stratified_generic(puzzle, h, opts.probes, seed, stopped)?,
    };
    let how = match whole {
        true => "the whole tree walked: exact",
        false => "top levels counted exactly, the probes shared among the nodes below them",
    };
    Some(scalar_model("stratified", per_depth, vec![how.into()]))
}

/// Compare one prediction with measured counts (`measured` padded or not).
pub fn summarize(pred: &[f64], measured: Option<&[u64]>) -> ModelSummary {
    let total: f64 = pred.iter().sum();
    let solutions = pred.last().copied().unwrap_or(0.0);
    let mut s = ModelSummary {
        predicted_total: total,
        predicted_solutions: solutions,
        ratio_total: None,
        ratio_solutions: None,
        mean_abs_log10_ratio: None,
        zero_mismatch_depths: 0,
        growth: growth(pred),
    };
    if let Some(m) = measured {
        let mt: u64 = m.iter().sum();
        s.ratio_total = (mt > 0).then(|| total / mt as f64);
        let ms = if m.len() == pred.len() {
            m.last().copied().unwrap_or(0)
        } else {
            0
        };
        s.ratio_solutions = (ms > 0).then(|| solutions / ms as f64);
        let (mut sum, mut k) = (0.0, 0usize);
        for d in 0..pred.len().max(m.len()) {
            let p = pred.get(d).copied().unwrap_or(0.0);
            let q = m.get(d).copied().unwrap_or(0) as f64;
            match (p > 0.0, q > 0.0) {
                (true, true) => {
                    sum += (p / q).log10().abs();
                    k += 1;
                }
                (false, false) => {}
                _ => s.zero_mismatch_depths += 1,
            }
        }
        s.mean_abs_log10_ratio = (k > 0).then(|| sum / k as f64);
    }
    s
}

/// The note on a measured run that `stop` ended early.
fn partial_note(stop: Stop) -> String {
    format!(
        "the measured run stopped early ({}): measured counts are partial",
        crate::search::limits::stop_text(stop)
    )
}

/// The note of [`PredictReport::stopped_choosing_trees`].
pub const TREES_STOPPED_NOTE: &str = "stopped (Ctrl-C or --timeout) while choosing the trees \
    of --symmetry: nothing was predicted or measured";

const PROBES_STOPPED_NOTE: &str =
    "the probes were stopped (Ctrl-C or --timeout): the models that need them are left out";

/// A measured run: its nodes per depth, and what stopped it early (None: it searched
/// the whole tree).
pub type Measured = (Vec<u64>, Option<Stop>);

/// Run the models (and the probes they need) and assemble the report. `measured` is
/// the run of the same heuristic, when there is one.
pub fn predict(puzzle: &Puzzle, opts: &Options, measured: Option<Measured>) -> PredictReport {
    predict_until(puzzle, opts, || measured, &|| false)
}

/// [`predict`], with the probes given up once `stopped()` says so: the report then
/// has the models that need no probes (`probes_stopped`). The models run first and
/// `measure` (the measured run, if any) after them, so that a deadline the run would
/// use up leaves the probes, cheap beside it, their share.
pub fn predict_until(
    puzzle: &Puzzle,
    opts: &Options,
    measure: impl FnOnce() -> Option<Measured>,
    stopped: &Stopped<'_>,
) -> PredictReport {
    let mut preds = Vec::new();
    let mut notes = Vec::new();
    let wants = |m: ModelChoice| opts.model == m || opts.model == ModelChoice::All;
    // The static models follow the lines of the scan asked for, else scan's default.
    let rows = puzzle.along(opts.select.lines_columns(puzzle.width, puzzle.height));
    if wants(ModelChoice::Analytic) {
        preds.push(analytic_model(&rows));
    }
    let mut probes_stopped = false;
    match probe::probes_until(puzzle, opts.select, opts.probes, opts.seed, stopped) {
        Some(stats) => {
            if wants(ModelChoice::Sampled) {
                preds.push(sampled_model(&stats));
            }
            preds.push(knuth_model(&stats));
        }
        None => probes_stopped = true,
    }
    if !probes_stopped {
        match stratified_model(puzzle, opts, stopped) {
            Some(m) => preds.push(m),
            None => probes_stopped = true,
        }
    }
    preds.push(owen_model(&rows));
    if probes_stopped {
        notes.push(PROBES_STOPPED_NOTE.into());
    }
    if !opts.select.is_scan() {
        notes.push(format!(
            "analytic and owen model scan's static order, not {}",
            opts.select
        ));
    }
    let depth = puzzle.free_cells();
    let measured = measure().map(|(mut m, stop)| {
        m.resize(depth + 1, 0);
        (m, stop)
    });
    if let Some((_, Some(stop))) = measured {
        notes.push(partial_note(stop));
    }
    let mut report = PredictReport {
        models: preds.iter().map(|p| p.name.clone()).collect(),
        notes,
        probes_stopped,
        ..PredictReport::blank(puzzle, opts)
    };
    for mut p in preds {
        p.per_depth.resize(depth + 1, 0.0);
        report
            .spectral_radius
            .insert(p.name.clone(), p.spectral_radius);
        report.eigenvalues.insert(p.name.clone(), p.eigenvalues);
        report.classes.insert(p.name.clone(), p.classes);
        report
            .notes
            .extend(p.notes.iter().map(|n| format!("{}: {n}", p.name)));
        report.predicted_per_depth.insert(p.name, p.per_depth);
    }
    report.set_measured(measured);
    report
}

impl PredictReport {
    /// A report of `puzzle` with no model and no measured run yet.
    fn blank(puzzle: &Puzzle, opts: &Options) -> PredictReport {
        PredictReport {
            puzzle: puzzle.name.clone(),
            width: puzzle.width,
            height: puzzle.height,
            select: opts.select,
            probes: opts.probes,
            stratified_probes: opts.stratified_probes,
            seed: opts.seed,
            models: Vec::new(),
            predicted_per_depth: BTreeMap::new(),
            measured_per_depth: None,
            measured_exhaustive: None,
            measured_stopped_by: None,
            measured_total: None,
            measured_solutions: None,
            measured_growth: None,
            spectral_radius: BTreeMap::new(),
            eigenvalues: BTreeMap::new(),
            classes: BTreeMap::new(),
            summary: BTreeMap::new(),
            notes: Vec::new(),
            parts: None,
            estimated_total: None,
            probes_stopped: false,
        }
    }

    /// The report of a `--symmetry` prediction that Ctrl-C or `--timeout` stopped
    /// while the estimates chose the trees: nothing predicted or measured, no model,
    /// `probes_stopped` (those estimates are probes) and a note saying so.
    pub fn stopped_choosing_trees(puzzle: &Puzzle, opts: &Options) -> PredictReport {
        PredictReport {
            notes: vec![TREES_STOPPED_NOTE.into()],
            probes_stopped: true,
            parts: Some(Vec::new()),
            ..PredictReport::blank(puzzle, opts)
        }
    }

    /// Takes in the measured run (nodes per depth padded to the full depth) and
    /// compares every model with it (`summary`).
    fn set_measured(&mut self, measured: Option<Measured>) {
        let m = measured.as_ref().map(|m| &m.0);
        self.measured_exhaustive = measured.as_ref().map(|m| m.1.is_none());
        self.measured_stopped_by = measured.as_ref().and_then(|m| m.1);
        self.measured_total = m.map(|m| m.iter().sum());
        self.measured_solutions = m.map(|m| *m.last().unwrap_or(&0));
        self.measured_growth =
            m.and_then(|m| growth(&m.iter().map(|&x| x as f64).collect::<Vec<_>>()));
        self.measured_per_depth = measured.map(|m| m.0);
        for (name, per_depth) in &self.predicted_per_depth {
            let s = summarize(per_depth, self.measured_per_depth.as_deref());
            self.summary.insert(name.clone(), s);
        }
    }
}

/// The prediction of the trees of a `--symmetry` cut (`parts`, named `name`), each
/// with its own run by `measure` (after that tree's models) when measured: every
/// tree is predicted on its own
/// ([`predict`], with its heuristic) and the nodes per depth, predicted and measured,
/// are summed. Spectra and classes are the largest tree's: a sum has none.
pub fn predict_parts(
    name: &str,
    parts: &[Part],
    opts: &Options,
    measure: &dyn Fn(&Part) -> Option<Measured>,
    stopped: &Stopped<'_>,
) -> PredictReport {
    let reports: Vec<PredictReport> = parts
        .iter()
        .map(|part| {
            let opts = Options {
                select: part.select,
                ..opts.clone()
            };
            predict_until(&part.puzzle, &opts, || measure(part), stopped)
        })
        .collect();
    let size = |i: usize| {
        let knuth = reports[i].summary.get("knuth");
        parts[i]
            .estimate
            .unwrap_or(knuth.map_or(0.0, |s| s.predicted_total))
    };
    let largest = (0..parts.len())
        .max_by(|&a, &b| size(a).total_cmp(&size(b)))
        .expect("a cut has a tree");
    let mut r = reports[largest].clone();
    r.puzzle = name.to_string();
    r.select = opts.select;
    // Probes stopped in one tree stop them in every later one: sum only the models
    // every tree has.
    r.probes_stopped = reports.iter().any(|x| x.probes_stopped);
    r.models.retain(|m| {
        reports
            .iter()
            .all(|x| x.predicted_per_depth.contains_key(m))
    });
    r.spectral_radius.retain(|m, _| r.models.contains(m));
    r.eigenvalues.retain(|m, _| r.models.contains(m));
    r.classes.retain(|m, _| r.models.contains(m));
    r.predicted_per_depth.retain(|m, _| r.models.contains(m));
    r.summary.clear();
    for m in r.models.clone() {
        let per_depth = sum_per_depth(reports.iter().map(|x| &x.predicted_per_depth[&m][..]));
        r.predicted_per_depth.insert(m, per_depth);
    }
    let measured = reports
        .iter()
        .map(|x| x.measured_per_depth.as_deref())
        .collect::<Option<Vec<_>>>()
        .map(|all| {
            let stop = reports.iter().find_map(|x| x.measured_stopped_by);
            (sum_per_depth(all.into_iter()), stop)
        });
    r.set_measured(measured);
    for x in &reports {
        for n in &x.notes {
            if !r.notes.contains(n) {
                r.notes.push(n.clone());
            }
        }
    }
    if parts.len() > 1 {
        r.notes.push(format!(
            "{} trees, summed; spectra, classes and rho are those of the largest, tree {}",
            parts.len(),
            largest + 1
        ));
    }
    r.estimated_total = parts.iter().map(|p| p.estimate).sum();
    r.parts = Some(
        parts
            .iter()
            .zip(&reports)
            .map(|(part, x)| PartPrediction {
                corners: part.corners(),
                select: part.select,
                estimate: part.estimate,
                predicted_total: x
                    .summary
                    .iter()
                    .map(|(m, s)| (m.clone(), s.predicted_total))
                    .collect(),
                measured_total: x.measured_total,
            })
            .collect(),
    );
    r
}

/// Entry-by-entry sum of equally long per-depth counts.
fn sum_per_depth<'a, T>(mut rows: impl Iterator<Item = &'a [T]>) -> Vec<T>
where
    T: Copy + std::ops::AddAssign + 'a,
{
    let mut total = rows.next().map(<[T]>::to_vec).unwrap_or_default();
    for row in rows {
        for (t, &v) in total.iter_mut().zip(row) {
            *t += v;
        }
    }
    total
}

fn num(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() >= 1e6 || x.abs() < 1e-2 {
        format!("{x:.3e}")
    } else {
        format!("{x:.2}")
    }
}

fn opt(x: Option<f64>) -> String {
    x.map(num).unwrap_or_else(|| "-".into())
}

/// The text report: a per-depth table and a summary per model.
pub fn render_text(r: &PredictReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "puzzle  {} ({}x{}), select {}, {} probes, seed {}",
        r.puzzle, r.width, r.height, r.select, r.probes, r.seed
    );
    let _ = write!(s, "{:>5} {:>12}", "depth", "measured");
    for m in &r.models {
        let _ = write!(s, " {:>11} {:>7}", m, "ratio");
    }
    s.push('\n');
    let depth = r
        .predicted_per_depth
        .values()
        .map(|v| v.len())
        .max()
        .unwrap_or(0);
    for d in 0..depth {
        let meas = r.measured_per_depth.as_ref().map(|m| m[d]);
        let _ = write!(
            s,
            "{d:>5} {:>12}",
            meas.map(|m| m.to_string()).unwrap_or_else(|| "-".into())
        );
        for m in &r.models {
            let p = r.predicted_per_depth[m][d];
            let ratio = meas.filter(|&m| m > 0).map(|m| p / m as f64);
            let _ = write!(s, " {:>11} {:>7}", num(p), opt(ratio));
        }
        s.push('\n');
    }
    s.push('\n');
    let _ = writeln!(
        s,
        "{:<10} {:>12} {:>8} {:>12} {:>8} {:>8} {:>8} {:>8}",
        "model", "total", "ratio", "solutions", "ratio", "|log10|", "rho", "growth"
    );
    if let Some(total) = r.measured_total {
        let _ = writeln!(
            s,
            "{:<10} {:>12} {:>8} {:>12} {:>8} {:>8} {:>8} {:>8}",
            if r.measured_exhaustive == Some(true) {
                "measured"
            } else {
                "partial"
            },
            total,
            "",
            r.measured_solutions.unwrap_or(0),
            "",
            "",
            "",
            opt(r.measured_growth)
        );
    }
    for m in &r.models {
        let x = &r.summary[m];
        let _ = writeln!(
            s,
            "{:<10} {:>12} {:>8} {:>12} {:>8} {:>8} {:>8} {:>8}",
            m,
            num(x.predicted_total),
            opt(x.ratio_total),
            num(x.predicted_solutions),
            opt(x.ratio_solutions),
            x.mean_abs_log10_ratio
                .map(|v| format!("{v:.3}"))
                .unwrap_or("-".into()),
            opt(r.spectral_radius[m]),
            opt(x.growth),
        );
    }
    if let Some(parts) = &r.parts {
        let _ = writeln!(
            s,
            "trees (solve --symmetry searches them one after another):"
        );
        for (i, t) in parts.iter().enumerate() {
            let fixed: Vec<String> = t
                .corners
                .iter()
                .map(|[row, col, piece, _]| format!("piece {piece} at ({row},{col})"))
                .collect();
            let models: Vec<String> = r
                .models
                .iter()
                .map(|m| format!("{m} {}", num(t.predicted_total[m])))
                .collect();
            let _ = writeln!(
                s,
                "  {}. {}, {}: estimate {}; {}{}",
                i + 1,
                fixed.join(" and "),
                t.select,
                opt(t.estimate),
                models.join(", "),
                t.measured_total
                    .map_or(String::new(), |n| format!("; measured {n}"))
            );
        }
        if let Some(e) = r.estimated_total {
            let _ = writeln!(
                s,
                "estimate of all trees: {} nodes (stratified Knuth, as solve chose them)",
                num(e)
            );
        }
    }
    for n in &r.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}
