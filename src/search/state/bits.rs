//! Placement bitsets (`words` plain `u64`s, bit `o` of word `o / 64`; the module
//! doc of [`super`]): their lengths as constants, their counts, and the unchecked
//! reads and writes of the state's word loops.

/// Evaluates `$body` with the const `$n` set to `$words` when that is a common bitset
/// length (1-4 words: boards up to 8x8; 16: 16x16), else to 0 (the length is read at
/// run time): code generic over N (see [`State::place_w`](super::State::place_w)) is compiled once per common
/// length, so the state's word loops unroll.
macro_rules! with_words {
    ($words:expr, $n:ident => $body:expr) => {
        $crate::search::state::with_words!(@lengths $words, $n, $body, 1 2 3 4 16)
    };
    (@lengths $words:expr, $n:ident, $body:expr, $($k:literal)*) => {
        match $words {
            $($k => {
                const $n: usize = $k;
                $body
            })*
            _ => {
                const $n: usize = 0;
                $body
            }
        }
    };
}
pub(crate) use with_words;

/// Removes the lowest oriented piece from the placement bitset `set` and returns it:
/// the order in which every search tries the placements at a site.
#[inline]
pub fn pop_lowest(set: &mut [u64]) -> Option<u32> {
    let k = set.iter().position(|&w| w != 0)?;
    let bit = set[k].trailing_zeros();
    set[k] &= set[k] - 1;
    Some((k * 64) as u32 + bit)
}

/// The oriented pieces of the placement bitset `set`, lowest first.
pub fn ones(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            let bit = (w != 0).then(|| w.trailing_zeros() as usize)?;
            w &= w - 1;
            Some(k * 64 + bit)
        })
    })
}

/// Number of oriented pieces in the placement bitset `set`.
#[inline]
pub fn popcount(set: &[u64]) -> u32 {
    count_words(set.len(), |i| set[i])
}

/// Bits set in each nibble value: one piece's orientations within a word.
pub(super) const NIBBLE_BITS: [u16; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// `NIBBLE_KEY[h][b]`: bits set in nibble h (0 low, 1 high) of byte b, moved to the
/// count field of a key `count << 16 | cell`: one load per cell in `put`.
pub(super) const NIBBLE_KEY: [[u32; 256]; 2] = {
    let mut t = [[0; 256]; 2];
    let mut b = 0;
    while b < 256 {
        t[0][b] = ((b & 0xF) as u32).count_ones() << 16;
        t[1][b] = ((b >> 4) as u32).count_ones() << 16;
        b += 1;
    }
    t
};

/// The bytes of `v` in memory order.
#[inline(always)]
pub(super) fn bytes(v: &[u64]) -> &[u8] {
    // SAFETY: any u64 memory is valid as u8s, and u8 needs no alignment.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), v.len() * 8) }
}

/// Whether `count_ones` is one instruction. Baseline x86-64 has no POPCNT, so
/// `.cargo/config.toml` turns it on (every x86-64 CPU since 2008 has it); a build
/// without it (RUSTFLAGS set, say) counts bits per byte instead.
const HW_POPCOUNT: bool = !cfg!(target_arch = "x86_64") || cfg!(target_feature = "popcnt");

/// Per-byte bit counts of `x` (each byte 0..=8): without a hardware popcount,
/// summing these over up to 31 words before one horizontal add ([`byte_sum`]) is
/// much cheaper than a software `count_ones` per word.
#[inline(always)]
fn byte_counts(x: u64) -> u64 {
    let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// Sum of the bytes of `acc` (each at most 248: up to 31 words of [`byte_counts`]),
/// in 16-bit lanes so that it cannot overflow.
#[inline(always)]
fn byte_sum(acc: u64) -> u32 {
    let pairs = (acc & 0x00ff_00ff_00ff_00ff) + ((acc >> 8) & 0x00ff_00ff_00ff_00ff);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// Number of set bits of the words `word(0..n)`.
#[inline(always)]
pub(super) fn count_words(n: usize, word: impl Fn(usize) -> u64) -> u32 {
    if HW_POPCOUNT {
        return (0..n).map(|i| word(i).count_ones()).sum();
    }
    let (mut total, mut start) = (0, 0);
    // Runs of 31 words (boards need one or two).
    while start < n {
        let end = n.min(start + 31);
        total += byte_sum((start..end).map(|i| byte_counts(word(i))).sum());
        start = end;
    }
    total
}

/// Number of set bits of `a & b` (equal-length bitsets).
#[inline(always)]
pub(super) fn count_and(a: &[u64], b: &[u64]) -> u32 {
    let b = &b[..a.len()];
    count_words(a.len(), |i| a[i] & b[i])
}

/// Unchecked read; every caller indexes within the bounds its invariants keep.
#[inline(always)]
pub(super) fn get<T: Copy>(v: &[T], i: usize) -> T {
    debug_assert!(i < v.len());
    // SAFETY: callers keep i < v.len() (checked in debug builds).
    unsafe { *v.get_unchecked(i) }
}

/// Unchecked element for writing, under the contract of [`get`].
#[inline(always)]
pub(super) fn slot<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len());
    // SAFETY: callers keep i < v.len() (checked in debug builds).
    unsafe { v.get_unchecked_mut(i) }
}

/// Unchecked `&v[i..i + n]`, under the contract of [`get`].
#[inline(always)]
pub(super) fn words_at(v: &[u64], i: usize, n: usize) -> &[u64] {
    debug_assert!(i + n <= v.len());
    // SAFETY: callers keep i + n <= v.len() (checked in debug builds).
    unsafe { v.get_unchecked(i..i + n) }
}

/// Unchecked `&mut v[i..i + n]`, under the contract of [`get`].
#[inline(always)]
pub(super) fn words_at_mut(v: &mut [u64], i: usize, n: usize) -> &mut [u64] {
    debug_assert!(i + n <= v.len());
    // SAFETY: callers keep i + n <= v.len() (checked in debug builds).
    unsafe { v.get_unchecked_mut(i..i + n) }
}
