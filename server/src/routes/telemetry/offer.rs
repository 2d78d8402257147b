//! Helpers the telemetry handlers share: the client's IP and handing work to an actor.

use std::net::IpAddr;

use actix::{Actor, Addr, Handler, Message};
use actix_web::HttpRequest;
use veranda_actors::telemetry::metrics::Queue;

use super::ingest::IngestError;

/// The client's IP: the peer's, or the forwarded one when the peer is a trusted proxy
/// (see [`crate::security::proxy`]; a client cannot forge it).
pub fn client_ip(req: &HttpRequest) -> Option<IpAddr> {
    crate::security::proxy::ClientInfo::ip_of(req)
}

/// Sends `msg` without waiting, on the actor's bounded mailbox: full → 503, counted as
/// `queue` being full.
pub fn offer<A, M>(addr: &Addr<A>, msg: M, queue: Queue) -> Result<(), IngestError>
where
    A: Actor<Context = actix::Context<A>> + Handler<M>,
    M: Message<Result = ()> + Send + 'static,
{
    addr.try_send(msg).map_err(|_| IngestError::Busy(queue))
}
