//! The transposition table: proven bounds on each position's best final score, shared by all
//! threads, with a fixed memory cap.

use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;

use super::key::Key;

/// Proven bounds on the best final score of a position: `lo <= value <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: u8,
    pub hi: u8,
}

/// Bytes one entry may take, counting the hash map's spare capacity; used to turn a memory cap
/// into an entry count that the table never exceeds.
pub const BYTES_PER_ENTRY: usize = 96;

pub struct Table {
    map: DashMap<Key, Bounds, ahash::RandomState>,
    len: AtomicUsize,
    cap: usize,
}

impl Table {
    /// A table that holds at most `mb` mebibytes of entries.
    pub fn with_megabytes(mb: usize) -> Table {
        Table {
            map: DashMap::with_hasher(ahash::RandomState::new()),
            len: AtomicUsize::new(0),
            cap: mb.saturating_mul(1 << 20) / BYTES_PER_ENTRY,
        }
    }

    /// A copy of the bounds stored for `key` (no reference into the map outlives this call).
    #[inline]
    pub fn get(&self, key: &Key) -> Option<Bounds> {
        self.map.get(key).map(|r| *r)
    }

    /// Records that the position's value is at least `lo`.
    #[inline]
    pub fn raise_lower(&self, key: Key, lo: u8, perfect: u8) {
        self.update(key, |b| b.lo = b.lo.max(lo), Bounds { lo, hi: perfect });
    }

    /// Records that the position's value is at most `hi`.
    #[inline]
    pub fn lower_upper(&self, key: Key, hi: u8) {
        self.update(key, |b| b.hi = b.hi.min(hi), Bounds { lo: 0, hi });
    }

    fn update(&self, key: Key, change: impl FnOnce(&mut Bounds), fresh: Bounds) {
        match self.map.entry(key) {
            Entry::Occupied(mut e) => change(e.get_mut()),
            Entry::Vacant(e) => {
                if self.len.load(Ordering::Relaxed) < self.cap {
                    e.insert(fresh);
                    self.len.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Most entries the cap allows.
    pub fn capacity(&self) -> usize {
        self.cap
    }
}
