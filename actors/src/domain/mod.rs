//! Domain types shared by the server and the client: enumerations and the page context.

pub mod context;
pub mod enums;
mod numeric_enum;
