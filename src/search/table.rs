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
        Table::with_entries(mb.saturating_mul(1 << 20) / BYTES_PER_ENTRY)
    }

    /// A table that holds at most `cap` entries.
    pub fn with_entries(cap: usize) -> Table {
        Table {
            map: DashMap::with_hasher(ahash::RandomState::new()),
            len: AtomicUsize::new(0),
            cap,
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
        let key = match self.map.entry(key) {
            Entry::Occupied(mut e) => {
                change(e.get_mut());
                return;
            }
            Entry::Vacant(e) => {
                if self.len.load(Ordering::Relaxed) < self.cap {
                    e.insert(fresh);
                    self.len.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                e.into_key()
            }
        };
        // Full: start afresh, keeping the memory. A long search's newest positions are worth
        // more than the table's oldest, and forgetting a proven bound is never wrong.
        if self.cap > 0 {
            self.map.clear();
            self.len.store(0, Ordering::Relaxed);
            self.map.insert(key, fresh);
            self.len.fetch_add(1, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> Key {
        Key::from_slice(&[i])
    }

    #[test]
    fn bounds_only_narrow() {
        let t = Table::with_entries(10);
        t.raise_lower(key(1), 20, 25);
        t.lower_upper(key(1), 23);
        t.raise_lower(key(1), 18, 25);
        t.lower_upper(key(1), 24);
        assert_eq!(t.get(&key(1)), Some(Bounds { lo: 20, hi: 23 }));
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn a_full_table_starts_afresh_and_updates_never_clear_it() {
        let t = Table::with_entries(3);
        for i in 0..3 {
            t.lower_upper(key(i), 10);
        }
        // Updating what is stored keeps everything.
        for i in 0..3 {
            t.raise_lower(key(i), 5, 25);
        }
        assert_eq!(t.len(), 3);
        assert_eq!(t.get(&key(0)), Some(Bounds { lo: 5, hi: 10 }));
        // A new position in a full table: the old ones go, the new one stays.
        t.lower_upper(key(3), 7);
        assert_eq!(t.len(), 1);
        assert_eq!(t.get(&key(0)), None);
        assert_eq!(t.get(&key(3)), Some(Bounds { lo: 0, hi: 7 }));
        // A table with no room stores nothing.
        let none = Table::with_entries(0);
        none.lower_upper(key(1), 3);
        assert!(none.is_empty() && none.get(&key(1)).is_none());
    }
}
