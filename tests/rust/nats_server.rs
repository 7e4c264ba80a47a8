//! A real `nats-server` with JetStream for tests: its own storage folder, a free port on
//! 127.0.0.1, and the outages tests need (stop, kill -9, restart on the same port and storage,
//! freeze and thaw). Missing nats-server fails the test: `.ci/deps` installs it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process};

/// How long the server may take to write its ports file.
const STARTUP: Duration = Duration::from_secs(10);

pub struct NatsServer {
    child: Option<Child>,
    dir: tempfile::TempDir,
    pub port: u16,
    /// `nats://127.0.0.1:PORT`.
    pub url: String,
    frozen: bool,
    extra: Vec<String>,
}

impl NatsServer {
    /// Starts a server with JetStream on a free port.
    pub fn start() -> NatsServer {
        Self::start_with(&[])
    }

    /// `start` with more nats-server options (e.g. `--auth TOKEN`), kept for restarts.
    pub fn start_with(extra: &[&str]) -> NatsServer {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        let (child, port) = spawn(dir.path(), None, &extra);
        NatsServer { child: Some(child), dir, port, url: format!("nats://127.0.0.1:{port}"), frozen: false, extra }
    }

    /// Where the server keeps its streams.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    fn pid(&self) -> Pid {
        let child = self.child.as_ref().expect("the server is running");
        Pid::from_raw(child.id() as i32).expect("a process id")
    }

    fn signal(&self, signal: Signal) {
        kill_process(self.pid(), signal).expect("signal nats-server");
    }

    /// SIGTERM, and waits for it to exit.
    pub fn stop(&mut self) {
        self.thaw();
        self.signal(Signal::TERM);
        self.child.take().expect("running").wait().expect("nats-server exits");
    }

    /// SIGKILL, and waits for it to be gone.
    pub fn kill9(&mut self) {
        self.signal(Signal::KILL);
        self.frozen = false;
        self.child.take().expect("running").wait().expect("nats-server is reaped");
    }

    /// Starts it again on the same port and storage (after `stop` or `kill9`).
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "restart a stopped server");
        let (child, _) = spawn(self.dir.path(), Some(self.port), &self.extra);
        self.child = Some(child);
    }

    /// SIGSTOP: the connection stays open and nothing answers. Returns once every thread of
    /// the server is stopped (a signal is delivered asynchronously).
    pub fn freeze(&mut self) {
        self.signal(Signal::STOP);
        self.frozen = true;
        let tasks = format!("/proc/{}/task", self.pid().as_raw_nonzero());
        let started = Instant::now();
        while !all_stopped(Path::new(&tasks)) {
            assert!(started.elapsed() < STARTUP, "nats-server did not stop within {STARTUP:?}");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// SIGCONT.
    pub fn thaw(&mut self) {
        if self.frozen {
            self.signal(Signal::CONT);
            self.frozen = false;
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            if self.frozen {
                let _ = kill_process(Pid::from_raw(child.id() as i32).expect("a pid"), Signal::CONT);
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Whether every thread under `/proc/PID/task` is in state T (stopped).
fn all_stopped(tasks: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(tasks) else { return false };
    entries.flatten().all(|task| {
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        // `pid (comm) STATE …`: the state follows the last ')'.
        stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('T'))
    })
}

fn binary() -> PathBuf {
    for candidate in ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"] {
        if Path::new(candidate).exists() {
            return PathBuf::from(candidate);
        }
    }
    PathBuf::from("nats-server")
}

/// Runs nats-server on `port` (a free one if `None`) and waits for its ports file.
fn spawn(dir: &Path, port: Option<u16>, extra: &[String]) -> (Child, u16) {
    let log = std::fs::OpenOptions::new().create(true).append(true).open(dir.join("server.log")).expect("server log");
    let port_arg = port.map_or("-1".to_string(), |p| p.to_string());
    let mut child = match Command::new(binary())
        .args(["-js", "-sd"])
        .arg(dir)
        .args(["-a", "127.0.0.1", "-p", &port_arg, "-m", "-1", "--ports_file_dir"])
        .arg(dir)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
    {
        Ok(child) => child,
        Err(e) => panic!("cannot run nats-server ({e}): install nats-server (.ci/deps)"),
    };
    let ports = dir.join(format!("nats-server_{}.ports", child.id()));
    let started = Instant::now();
    loop {
        if let Some(port) = std::fs::read_to_string(&ports).ok().and_then(|text| client_port(&text)) {
            return (child, port);
        }
        if let Ok(Some(status)) = child.try_wait() {
            let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
            panic!("nats-server exited ({status}) before it was ready:\n{log}");
        }
        if started.elapsed() > STARTUP {
            let _ = child.kill();
            panic!("nats-server wrote no ports file {} within {STARTUP:?}", ports.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The client port from a ports file: `{"nats":["nats://127.0.0.1:PORT"],…}`.
fn client_port(text: &str) -> Option<u16> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value["nats"][0].as_str()?.rsplit(':').next()?.parse().ok()
}
