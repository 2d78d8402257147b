//! Domain types shared by the server and the client: enumerations (the page context is
//! [`crate::context`]).

pub mod enums;
mod numeric_enum;
