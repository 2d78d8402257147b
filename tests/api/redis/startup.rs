//! Start-up with `--redis-url`: every tree is in Redis and sled is not opened; a Redis
//! that could lose acknowledged writes is refused by default, naming the Redis settings,
//! and only warned about with `[redis] require_durable = false`; `veranda user add
//! --redis-url` (or `VERANDA_REDIS_URL`) writes the account to the shared store.

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use veranda_actors::accounts::{find_by_email, Email};
use veranda_actors::store::redis_store::RedisSettings;
use veranda_actors::store::RedisStore;
use veranda_tests::process::{output_with_stdin, veranda_binary};
use veranda_tests::{demo_site_copy, eventually};

use crate::commerce::redis::harness::{Instance, Redis};

/// Starts `veranda serve` on `redis` with `env` and waits (at most 60 s) for it to exit;
/// its standard error.
async fn refused(redis: &Redis, env: &[(&str, &str)]) -> String {
    let site = demo_site_copy(|_| {});
    let data = tempfile::tempdir().expect("a data dir");
    let (mut command, _, _) = Instance::command(site.path(), data.path(), &redis.url());
    let mut child =
        command.envs(env.iter().copied()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("starts");
    let status = eventually(Duration::from_secs(60), "veranda to refuse to start", || {
        let status = child.try_wait().expect("waits");
        async move { status }
    })
    .await;
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("reads");
    assert!(!status.success(), "exits with an error: {stderr}");
    stderr
}

#[actix_rt::test]
async fn a_redis_that_could_lose_acknowledged_writes_is_refused_naming_its_settings() {
    let Some(redis) = Redis::if_installed().await else { return };
    assert_eq!(redis.cli(&["CONFIG", "SET", "appendfsync", "everysec"]), "OK");
    let stderr = refused(&redis, &[]).await;
    for needed in ["appendfsync \"everysec\"", "appendfsync always", "require_durable", &redis.url()] {
        assert!(stderr.contains(needed), "names {needed}: {stderr}");
    }
    assert_eq!(redis.cli(&["CONFIG", "SET", "appendfsync", "always"]), "OK");
    assert_eq!(redis.cli(&["CONFIG", "SET", "appendonly", "no"]), "OK");
    let stderr = refused(&redis, &[]).await;
    assert!(stderr.contains("appendonly \"no\""), "{stderr}");
}

#[actix_rt::test]
async fn require_durable_false_starts_with_a_warning_and_a_durable_redis_starts_without_sled() {
    let Some(redis) = Redis::if_installed().await else { return };
    let site = demo_site_copy(|_| {});
    // A durable Redis: every tree there, the data directory untouched by sled.
    let durable = Instance::start(site.path(), &redis.url()).await;
    let log = std::fs::read_to_string(durable.log.path()).expect("reads the log");
    assert!(log.contains("every tree is in Redis") && !log.contains("appendfsync"), "no warning: {log}");
    let sled_files: Vec<_> = std::fs::read_dir(durable._data.path())
        .expect("lists")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|name| ["db", "conf", "blobs", "snap"].iter().any(|s| name.starts_with(s)))
        .collect();
    assert_eq!(sled_files, Vec::<String>::new(), "sled is not opened");
    drop(durable);

    assert_eq!(redis.cli(&["CONFIG", "SET", "appendfsync", "everysec"]), "OK");
    let lenient =
        Instance::start_with_env(site.path(), &redis.url(), &[("VERANDA_REDIS", "{require_durable = false}")]).await;
    let log = std::fs::read_to_string(lenient.log.path()).expect("reads the log");
    let warned = log.lines().any(|line| line.contains("WARN") && line.contains("everysec"));
    assert!(warned, "warns: {log}");
}

fn user_add(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut command = Command::new(veranda_binary());
    command.args(["user", "add"]).args(args).envs(env.iter().copied()).current_dir(dir.path());
    let output = output_with_stdin(&mut command, stdin);
    assert!(std::fs::read_dir(dir.path()).expect("lists").next().is_none(), "no data directory is made");
    output
}

#[actix_rt::test]
async fn user_add_writes_the_account_to_the_shared_store() {
    let Some(redis) = Redis::if_installed().await else { return };
    let url = redis.url();
    let by_flag =
        user_add(&["--email", "ann@example.com", "--role", "owner", "--redis-url", &url], &[], "porch swing\n");
    assert_eq!(by_flag.status.code(), Some(0), "{}", String::from_utf8_lossy(&by_flag.stderr));
    let by_env =
        user_add(&["--email", "bo@example.com", "--role", "member"], &[("VERANDA_REDIS_URL", &url)], "swing\n");
    assert_eq!(by_env.status.code(), Some(0), "{}", String::from_utf8_lossy(&by_env.stderr));
    let again = user_add(&["--email", "ANN@example.com", "--role", "admin"], &[("VERANDA_REDIS_URL", &url)], "x\n");
    assert_eq!(again.status.code(), Some(2), "a duplicate in the shared store is refused");

    let store = RedisStore::connect(&url, &RedisSettings::default()).await.expect("connects");
    let ann = find_by_email(&store, &Email::parse("ann@example.com").expect("valid")).expect("reads").expect("stored");
    assert!(ann.owner && ann.password_hash.verify("porch swing"));
    let bo = find_by_email(&store, &Email::parse("bo@example.com").expect("valid")).expect("reads").expect("stored");
    assert!(bo.member && bo.password_hash.verify("swing"));

    assert_eq!(redis.cli(&["CONFIG", "SET", "appendonly", "no"]), "OK");
    let lossy = user_add(&["--email", "cy@example.com", "--role", "member", "--redis-url", &url], &[], "x\n");
    assert_eq!(lossy.status.code(), Some(2), "the same durability check as the server");
    assert!(String::from_utf8_lossy(&lossy.stderr).contains("appendonly"));
}
