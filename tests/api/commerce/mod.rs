//! Commerce: the cart's JSON API, hostile input, checkout pages and orders, the order
//! listing, joining a member area, a crash harness, and several instances sharing one Redis.

mod cart;
mod checkout;
mod crash;
mod fullstory;
mod installments;
mod join;
mod orders_list;
mod plain;
pub(crate) mod redis;
pub(crate) mod support;
