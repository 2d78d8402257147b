//! The recency lists of a [`BoundedTable`](super::BoundedTable): doubly linked lists
//! threaded through the table's slots by index, so moving an entry to the front or taking
//! it out touches a few `u32`s and allocates nothing. Each slot is in two lists at once,
//! the whole table's ([`ALL`]) and its address's ([`OWN`]).

/// No slot: the end of a recency list.
pub(super) const NONE: u32 = u32::MAX;
/// The whole table's recency list, in [`Links`].
pub(super) const ALL: usize = 0;
/// The entry's address's recency list, in [`Links`].
pub(super) const OWN: usize = 1;

/// A slot's neighbours in one recency list.
#[derive(Debug, Clone, Copy)]
pub(super) struct Link {
    /// The slot used more recently, or [`NONE`].
    newer: u32,
    /// The slot used less recently, or [`NONE`].
    older: u32,
}

impl Link {
    pub(super) const DETACHED: Link = Link { newer: NONE, older: NONE };
}

/// A slot's neighbours in the whole table's list and in its address's.
pub(super) type Links = [Link; 2];

/// The ends of one recency list and its length.
#[derive(Debug, Clone, Copy)]
pub(super) struct Chain {
    /// The most recently used slot, or [`NONE`].
    pub(super) newest: u32,
    /// The least recently used slot, or [`NONE`].
    pub(super) oldest: u32,
    /// How many slots the list holds.
    pub(super) len: usize,
}

impl Chain {
    pub(super) const EMPTY: Chain = Chain { newest: NONE, oldest: NONE, len: 0 };

    /// Takes slot `at` out of list `list`.
    pub(super) fn unlink(&mut self, links: &mut [Links], list: usize, at: u32) {
        let Link { newer, older } = links[at as usize][list];
        match newer {
            NONE => self.newest = older,
            n => links[n as usize][list].older = older,
        }
        match older {
            NONE => self.oldest = newer,
            o => links[o as usize][list].newer = newer,
        }
        links[at as usize][list] = Link::DETACHED;
        self.len -= 1;
    }

    /// Puts slot `at` first (most recently used) in list `list`.
    pub(super) fn push_newest(&mut self, links: &mut [Links], list: usize, at: u32) {
        links[at as usize][list] = Link { newer: NONE, older: self.newest };
        match self.newest {
            NONE => self.oldest = at,
            n => links[n as usize][list].newer = at,
        }
        self.newest = at;
        self.len += 1;
    }

    /// The slots of list `list`, most recently used first.
    pub(super) fn newest_first<'a>(&self, links: &'a [Links], list: usize) -> impl Iterator<Item = u32> + 'a {
        let slot = |at: u32| Some(at).filter(|&at| at != NONE);
        std::iter::successors(slot(self.newest), move |&at| slot(links[at as usize][list].older))
    }

    /// Makes slot `at` the most recently used of list `list`.
    pub(super) fn promote(&mut self, links: &mut [Links], list: usize, at: u32) {
        if self.newest != at {
            self.unlink(links, list, at);
            self.push_newest(links, list, at);
        }
    }
}
