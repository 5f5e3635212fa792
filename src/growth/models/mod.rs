//! Models of the tree of the edge-matching search from the piece set alone
//! ([`analytic`], [`owen`]) or from counts the probes gathered ([`sampled`]). Pure:
//! none of them runs the search (the probes are [`crate::search::estimate`]); the
//! prediction that runs them side by side with the measured tree is
//! [`crate::predict`].

pub mod analytic;
pub mod owen;
pub mod sampled;
