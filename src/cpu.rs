//! The instruction-set extensions this binary was compiled for.
//!
//! `.cargo/config.toml` compiles for the CPU of the machine that builds
//! (`target-cpu=native`): with AVX2 the bitset loops of the generic driver take 4 words
//! per instruction, which cuts the instructions per node of `ply:2` on Eternity II (16
//! words per bitset) by a third. Rates measured by builds for different CPUs are not
//! comparable, so reports and benchmark exports record [`compiled_string`].
//!
//! Such a binary dies of an illegal instruction on a CPU without those extensions, and
//! it cannot check first: with LTO the standard library's start-up code is compiled for
//! the same CPU and runs before `main`, and `is_x86_feature_detected!` answers true at
//! compile time for every extension compiled in. The README says how to build a
//! portable binary instead.

/// The extensions that are reported: those a `target-cpu` can switch on and the
/// search's loops can use.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
macro_rules! reported {
    ($($f:tt)*) => {
        /// The reported extensions this binary was compiled for.
        pub fn compiled() -> Vec<&'static str> {
            let mut v = Vec::new();
            $(if cfg!(target_feature = $f) { v.push($f); })*
            v
        }
    };
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
reported!("sse3" "ssse3" "sse4.1" "sse4.2" "popcnt" "avx" "avx2" "bmi1" "bmi2" "fma" "lzcnt"
    "movbe" "f16c" "avx512f" "avx512cd" "avx512bw" "avx512dq" "avx512vl");

/// Other architectures: none reported.
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
pub fn compiled() -> Vec<&'static str> {
    Vec::new()
}

/// [`compiled`] as one space-separated string, for reports and benchmark exports.
pub fn compiled_string() -> String {
    compiled().join(" ")
}
