//! A deadpool-redis connection pool with every wait bounded, shared by the parts that
//! keep state in Redis (carts and stock, the live streams).

use std::time::Duration;

use deadpool_redis::{Config, Pool, Runtime};

/// A pool of at most `size` connections to the Redis at `url`; getting, creating and
/// recycling a connection each wait at most `timeout`. No connection is made yet. The
/// error is a sentence for the operator.
pub fn pool(url: &str, size: usize, timeout: Duration) -> Result<Pool, String> {
    Config::from_url(url)
        .builder()
        .map_err(|e| format!("not a Redis URL: {e}"))?
        .max_size(size)
        .wait_timeout(Some(timeout))
        .create_timeout(Some(timeout))
        .recycle_timeout(Some(timeout))
        .runtime(Runtime::Tokio1)
        .build()
        .map_err(|e| format!("cannot set up the connection pool: {e}"))
}
