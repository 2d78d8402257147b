//! The real `veranda` binary as a child process, for tests that kill it (SIGKILL) at a
//! random moment and restart it on the same data dir.
//!
//! The binary is `$VERANDA_BIN` when set; otherwise it is brought up to date once per test
//! run (`cargo build -p veranda-server --bin veranda`), so a stale binary is never tested.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use veranda_actors::accounts::{SessionRecord, SESSION_COOKIE};
use veranda_actors::store::{SledStore, Store, Tree};

pub use crate::crumbs::{crumb_of, crumb_with};
use crate::wait::{eventually, until_ready_or_exited, Started};
use crate::{demo_site_dir, repo_root};

/// The `veranda` binary to start.
pub fn veranda_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            if let Some(bin) = std::env::var_os("VERANDA_BIN") {
                return PathBuf::from(bin);
            }
            let status = Command::new(env!("CARGO"))
                .args(["build", "-q", "-p", "veranda-server", "--bin", "veranda"])
                .current_dir(repo_root())
                .status()
                .expect("cargo runs");
            assert!(status.success(), "cargo build -p veranda-server --bin veranda failed");
            // Test binaries run from target/<profile>/deps/; the server is in target/<profile>/.
            let exe = std::env::current_exe().expect("the test binary's path");
            let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>");
            profile_dir.join(format!("veranda{}", std::env::consts::EXE_SUFFIX))
        })
        .clone()
}

/// Runs `command` with `stdin` written to its input and gives its output. A command that
/// refuses before reading its input closes the pipe: that is not a failure here.
pub fn output_with_stdin(command: &mut Command, stdin: &str) -> Output {
    let mut child =
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("veranda starts");
    let _ = child.stdin.take().expect("piped stdin").write_all(stdin.as_bytes());
    child.wait_with_output().expect("veranda finishes")
}

/// How many times a server is started on fresh ports when one it was given was taken.
const PORT_TRIES: usize = 3;

/// A server process started from `command(port, ops_port)` (its standard output dropped,
/// its standard error in a log file) on two ports `free_port` found free, once
/// `/health/ready` on `ops_port` answers 200 (at most `within`): the process, its log and
/// the two ports.
///
/// A port `free_port` found free can be taken before the server binds it (by another
/// test's server, or as the local port of any outgoing connection): the server then exits
/// at once saying so, and is started again on fresh ports, up to [`PORT_TRIES`] times. A
/// server that exits for another reason, or is not ready in time, fails the test with
/// the end of what it wrote.
pub async fn spawn_ready(
    within: Duration,
    what: &str,
    mut command: impl FnMut(u16, u16) -> Command,
) -> (Child, tempfile::NamedTempFile, u16, u16) {
    let mut tries = 1;
    loop {
        let (port, ops_port) = (free_port(), free_port());
        let (log, stderr) = server_log();
        let mut child =
            command(port, ops_port).stdout(Stdio::null()).stderr(stderr).spawn().expect("the server starts");
        let ready = format!("http://127.0.0.1:{ops_port}/health/ready");
        match until_ready_or_exited(&ready, within, what, log.path(), &mut child).await {
            Started::Ready => return (child, log, port, ops_port),
            Started::Exited(written) if tries < PORT_TRIES && written.contains("Address already in use") => {
                tries += 1;
            }
            Started::Exited(written) => panic!("the server exited before {what}{written}"),
        }
    }
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// The `veranda` binary run from the repository root without this process's `RUST_LOG` or
/// `VERANDA_*` variables; add the subcommand and its arguments.
pub fn veranda_command() -> Command {
    let mut command = Command::new(veranda_binary());
    command.current_dir(repo_root()).env_remove("RUST_LOG");
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("VERANDA_")) {
        command.env_remove(key);
    }
    command
}

/// `veranda serve` on `port` and `ops_port` for the site in `site` and the store in `data`,
/// run from the repository root without this process's `RUST_LOG` or `VERANDA_*` variables;
/// add arguments and spawn it.
pub fn serve_command(site: &Path, data: &Path, port: u16, ops_port: u16) -> Command {
    let mut command = veranda_command();
    command
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--ops-listen", &format!("127.0.0.1:{ops_port}")])
        .arg("--site")
        .arg(site)
        .arg("--data-dir")
        .arg(data);
    command
}

/// A number in `0..n` that differs from run to run (no cryptographic need).
pub fn random_below(n: u64) -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    u64::from(nanos.wrapping_mul(2_654_435_761)) % n
}

/// GET `path` on the server at `address` with the session `session_id`'s cookie.
pub async fn get_in_session(
    client: &reqwest::Client,
    address: &str,
    path: &str,
    session_id: &str,
) -> reqwest::Response {
    client
        .get(format!("{address}{path}"))
        .header("cookie", format!("{SESSION_COOKIE}={session_id}"))
        .send()
        .await
        .expect("answered")
}

/// Stores a signed-in owner session under `session_id` in the store at `data`, before
/// the server opens it (sled is single-process).
pub async fn store_owner_session(data: &Path, session_id: &str) {
    let store = SledStore::open(data).expect("the store opens");
    let record = SessionRecord {
        account_id: "owner".into(),
        owner: true,
        roles: Vec::new(),
        member: false,
        expires_at: i64::MAX,
    };
    let bytes = serde_json::to_vec(&record).expect("a session serialises");
    store.put(Tree::Sessions, session_id.as_bytes(), &bytes).await.expect("session stored");
    store.close().expect("the store closes");
}

/// A temporary file for a server's standard error, and the handle the server writes to.
pub fn server_log() -> (tempfile::NamedTempFile, Stdio) {
    let log = tempfile::NamedTempFile::new().expect("a log file");
    let stderr = log.reopen().expect("the log file opens again");
    (log, Stdio::from(stderr))
}

/// A running `veranda serve`; SIGKILLed when dropped.
pub struct ServerProcess {
    child: Child,
    /// Where the server's standard error goes, shown when it never becomes ready.
    _log: tempfile::NamedTempFile,
    /// `http://127.0.0.1:<port>` of the public listener.
    pub address: String,
    /// `http://127.0.0.1:<port>` of the ops listener.
    pub ops_address: String,
}

impl ServerProcess {
    /// Starts the binary on the demo site and `data`, with no `VERANDA_*` variable of
    /// this process; returns once `/health/ready` answers 200 (at most 30 s).
    pub async fn start(data: &Path) -> ServerProcess {
        ServerProcess::start_with_site(&demo_site_dir(), data).await
    }

    /// Starts the binary on the site in `site` and `data`.
    pub async fn start_with_site(site: &Path, data: &Path) -> ServerProcess {
        ServerProcess::start_with_env(site, data, &[]).await
    }

    /// Starts the binary on the site in `site` and `data`, with the `VERANDA_*`
    /// variables of `env` (e.g. `("VERANDA_COMMERCE", "{checkout_burst = 1000}")`).
    pub async fn start_with_env(site: &Path, data: &Path, env: &[(&str, &str)]) -> ServerProcess {
        let what = "the server to become ready";
        let (child, log, port, ops_port) = spawn_ready(Duration::from_secs(30), what, |port, ops_port| {
            let mut command = serve_command(site, data, port, ops_port);
            command.envs(env.iter().copied());
            command
        })
        .await;
        ServerProcess {
            child,
            _log: log,
            address: format!("http://127.0.0.1:{port}"),
            ops_address: format!("http://127.0.0.1:{ops_port}"),
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no shutdown hook, no final flush.
    pub fn kill_9(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// Lets `tasks` (which watch `stop`) send requests for `delay`, SIGKILLs the server
    /// with their requests in flight, then sets `stop` and waits for each task to finish.
    pub async fn kill_9_amid(self, delay: Duration, stop: &AtomicBool, tasks: Vec<actix_rt::task::JoinHandle<()>>) {
        tokio::time::sleep(delay).await;
        self.kill_9();
        stop.store(true, Ordering::Relaxed);
        for task in tasks {
            task.await.expect("a task finishes without a failed check");
        }
    }

    /// SIGTERM, then asserts a clean exit.
    pub fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs").success());
        let status = self.child.wait().expect("reaped");
        assert!(status.success(), "a clean stop: {status:?}");
    }
}

/// A child process that is killed and reaped when dropped, so a failed test leaves
/// nothing running.
pub struct Spawned(pub Child);

impl Spawned {
    /// Waits up to `within` for the process to exit by itself and returns its status;
    /// fails the test naming `what` (and kills the process) when it is still running.
    pub async fn exit_within(&mut self, within: Duration, what: &str) -> std::process::ExitStatus {
        let child = &mut self.0;
        eventually(within, what, || std::future::ready(child.try_wait().expect("the child can be waited on"))).await
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
