//! Domain types shared by the server and the client: enumerations, the island kinds and the
//! page context.

pub mod context;
pub mod enums;
pub mod islands;
mod numeric_enum;
