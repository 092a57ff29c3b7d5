//! Seats, viewers and audiences: who acts and who may see what.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A seat at a table, numbered from 0 in seat order (seat 0 attacks first in round 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index into per-seat data.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// All seats of a table of `count` seats, in seat order.
    pub fn all(count: usize) -> impl Iterator<Item = Seat> {
        (0..count).map(|i| Seat(u8::try_from(i).expect("seat count fits in u8")))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking: a player in a seat, or a spectator (who sees only public information).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Viewer {
    /// The player holding this seat.
    Seat(Seat),
    /// Anyone else: sees public information only.
    Spectator,
}

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Audience {
    /// Every player and spectator.
    Everyone,
    /// Only the player in this seat.
    Seat(Seat),
}

impl Audience {
    /// Whether `viewer` may see an event meant for this audience.
    pub fn includes(self, viewer: Viewer) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Seat(seat) => viewer == Viewer::Seat(seat),
        }
    }
}

/// One value per seat, indexed by [`Seat`]; serialized as a JSON array in seat order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PerSeat<T>(pub Vec<T>);

impl<T: Clone> PerSeat<T> {
    /// `count` copies of `value`.
    pub fn filled(count: usize, value: T) -> Self {
        PerSeat(vec![value; count])
    }
}

impl<T> PerSeat<T> {
    /// The number of seats.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no seats.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every seat, in seat order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<T> {
        Seat::all(self.0.len())
    }

    /// The value of `seat`, or `None` for a seat not at this table.
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    /// Each value, in seat order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }

    /// Each value, mutably, in seat order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.0.iter_mut()
    }

    /// Each seat with its value, in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, v)| (Seat(u8::try_from(i).expect("seat count fits in u8")), v))
    }
}

impl<T> Index<Seat> for PerSeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for PerSeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}
