//! Summary statistics over repeated runs and speed ratios (`report::export::stats`).

use plytile::report::export::stats::{geometric_mean, ratio, Summary};

#[test]
fn summary_by_hand() {
    let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
    assert_eq!(s.mean, 5.0);
    assert!((s.stddev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    assert_eq!((s.median, s.min, s.max), (4.5, 2.0, 9.0));
    let one = Summary::of(&[3.0]);
    assert_eq!((one.mean, one.stddev, one.median), (3.0, 0.0, 3.0));
    assert_eq!(Summary::of(&[]), Summary::default());
}

#[test]
fn ratio_carries_sigma_and_refuses_zero() {
    let (r, sd) = ratio(3.0, 0.3, 1.5, 0.15).unwrap();
    assert!((r - 2.0).abs() < 1e-12);
    assert!((sd - 2.0 * (0.02f64).sqrt()).abs() < 1e-12);
    assert_eq!(ratio(1.0, 0.0, 0.0, 0.0), None);
    assert_eq!(ratio(0.0, 0.0, 1.0, 0.0), None);
}

#[test]
fn geometric_mean_by_hand() {
    assert!((geometric_mean([1.0, 4.0]).unwrap() - 2.0).abs() < 1e-12);
    assert_eq!(geometric_mean([]), None);
}
