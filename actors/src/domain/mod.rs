//! Domain types shared by the server and the client: enumerations and the island kinds (the page
//! context is [`crate::context`]).

pub mod enums;
pub mod islands;
mod numeric_enum;
