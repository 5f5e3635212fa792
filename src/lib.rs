//! plytile: an exact edge-matching puzzle solver.
