//! [`Ring`]: a fixed number of consecutive time buckets of equal width (hours or UTC
//! days), each reused once its bucket has left the window, so a series costs the same
//! memory whatever the traffic.

/// `N` buckets of `width_ms` each; a slot holds its bucket number and its value.
#[derive(Debug)]
pub struct Ring<T, const N: usize> {
    /// How long one bucket lasts (ms); bucket `b` starts at `b * width_ms` (unix ms).
    width_ms: u64,
    /// `(bucket number, value)` per slot, slot = bucket % N; `None` until first used.
    slots: [(Option<u64>, T); N],
}

impl<T: Default, const N: usize> Ring<T, N> {
    /// An empty ring of buckets `width_ms` long.
    pub fn new(width_ms: u64) -> Ring<T, N> {
        Ring { width_ms, slots: std::array::from_fn(|_| (None, T::default())) }
    }

    /// How long one bucket lasts (ms).
    pub fn width_ms(&self) -> u64 {
        self.width_ms
    }

    /// The value of the bucket holding `now` (unix ms), emptied first when its slot held an
    /// older bucket; `None` when the slot holds a newer bucket (a clock that went back).
    pub fn at(&mut self, now: u64) -> Option<&mut T> {
        let bucket = now / self.width_ms;
        let slot = &mut self.slots[(bucket % N as u64) as usize];
        match slot.0 {
            Some(held) if held > bucket => return None,
            Some(held) if held == bucket => {}
            _ => *slot = (Some(bucket), T::default()),
        }
        Some(&mut slot.1)
    }

    /// Every bucket counted in, in no order: its start (unix ms) and its value.
    pub fn filled(&self) -> impl Iterator<Item = (u64, &T)> + '_ {
        self.slots.iter().filter_map(move |(bucket, value)| bucket.map(|b| (b * self.width_ms, value)))
    }

    /// The `N` buckets up to and including the one holding `now`, oldest first: each
    /// bucket's start (unix ms) and its value (`None` when nothing was counted in it).
    pub fn window(&self, now: u64) -> impl Iterator<Item = (u64, Option<&T>)> + '_ {
        let current = now / self.width_ms;
        let first = (current + 1).saturating_sub(N as u64);
        (first..=current).map(move |bucket| {
            let slot = &self.slots[(bucket % N as u64) as usize];
            (bucket * self.width_ms, (slot.0 == Some(bucket)).then_some(&slot.1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR_MS: u64 = 3_600_000;

    #[test]
    fn a_bucket_is_reused_once_it_leaves_the_window() {
        let mut ring: Ring<u64, 3> = Ring::new(HOUR_MS);
        let start = 100 * HOUR_MS;
        *ring.at(start).expect("current") += 1;
        *ring.at(start + HOUR_MS - 1).expect("same hour") += 1;
        *ring.at(start + 2 * HOUR_MS).expect("two hours on") += 5;
        let seen: Vec<_> = ring.window(start + 2 * HOUR_MS).map(|(at, n)| (at, n.copied())).collect();
        assert_eq!(seen, vec![(start, Some(2)), (start + HOUR_MS, None), (start + 2 * HOUR_MS, Some(5))]);
        // Three hours on, the first hour's slot is emptied for the new hour.
        *ring.at(start + 3 * HOUR_MS).expect("rolled over") += 1;
        let seen: Vec<_> = ring.window(start + 3 * HOUR_MS).map(|(_, n)| n.copied()).collect();
        assert_eq!(seen, vec![None, Some(5), Some(1)]);
        // A clock that went back does not overwrite the newer hour.
        assert!(ring.at(start).is_none());
        assert_eq!(ring.window(start + 3 * HOUR_MS).last().and_then(|(_, n)| n.copied()), Some(1));
    }

    #[test]
    fn the_window_starts_at_zero_near_the_epoch() {
        let ring: Ring<u64, 24> = Ring::new(HOUR_MS);
        assert_eq!(ring.window(HOUR_MS).count(), 2);
    }
}
