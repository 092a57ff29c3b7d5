//! A real PostgreSQL for the tests: a throwaway cluster made with Debian's `postgresql` binaries
//! (`initdb`, `postgres` under /usr/lib/postgresql/<version>/bin, or the folder in
//! `SKIRMISH_PG_BIN`) in a temporary folder, listening on a free loopback port (its Unix socket
//! in the same folder), trust authentication for loopback only. Stopped (its whole process
//! group killed) and its folder removed when dropped. As root, the cluster runs as the
//! `postgres` user, since PostgreSQL refuses to run as root. scripts/test.sh installs the
//! package. The postmaster is started in a process group of its own; its children lead their
//! own (PostgreSQL calls `setsid` in each), so stopping and freezing signal each of them.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running PostgreSQL cluster; stopped (immediate shutdown, then SIGKILL) and removed when
/// dropped.
pub struct Postgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// The `postgres` user's (uid, gid) when the tests run as root.
    user: Option<(u32, u32)>,
    server: Option<Child>,
}

/// Debian's PostgreSQL binaries: `SKIRMISH_PG_BIN`, else the newest
/// /usr/lib/postgresql/<version>/bin.
fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SKIRMISH_PG_BIN") {
        return PathBuf::from(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .expect(
            "PostgreSQL's binaries under /usr/lib/postgresql (apt-get install postgresql; scripts/test.sh)",
        )
        .filter_map(|e| {
            let e = e.ok()?;
            let version = e.file_name().to_str()?.parse().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, bin)| bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions
        .pop()
        .expect("a PostgreSQL version with initdb under /usr/lib/postgresql")
        .1
}

/// The `postgres` user's (uid, gid), when running as root.
fn postgres_user() -> Option<(u32, u32)> {
    if !rustix::process::getuid().is_root() {
        return None;
    }
    let out = Command::new("id").args(["-u", "postgres"]).output().ok()?;
    let uid = String::from_utf8(out.stdout).ok()?.trim().parse().ok()?;
    let out = Command::new("id").args(["-g", "postgres"]).output().ok()?;
    let gid = String::from_utf8(out.stdout).ok()?.trim().parse().ok()?;
    Some((uid, gid))
}

impl Postgres {
    /// Makes a cluster in a fresh temporary folder and starts it; panics if it cannot.
    pub async fn start() -> Postgres {
        let bin = bin_dir();
        let dir = std::env::temp_dir().join(format!("skirmish-pg-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let user = postgres_user();
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).expect("the folder given to postgres");
        }
        let mut pg = Postgres {
            bin,
            dir,
            port: super::free_port(),
            user,
            server: None,
        };
        let status = pg
            .command("initdb")
            .args([
                "--auth=trust",
                "--username=skirmish",
                "--encoding=UTF8",
                "--no-sync",
                "-D",
            ])
            .arg(pg.data())
            .stdout(Stdio::null())
            .status()
            .expect("initdb runs");
        assert!(status.success(), "initdb failed");
        pg.resume().await;
        pg
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(self.bin.join(program));
        if let Some((uid, gid)) = self.user {
            command.uid(uid).gid(gid);
        }
        command.current_dir(&self.dir);
        command
    }

    /// Starts (again) the server on the cluster, on the same port, and waits until it takes
    /// connections; panics after 30 s.
    pub async fn resume(&mut self) {
        assert!(self.server.is_none(), "PostgreSQL is already running");
        let log = std::fs::File::create(self.dir.join(format!("postgres-{}.log", uuid::Uuid::new_v4())))
            .expect("a log file");
        if let Some((uid, gid)) = self.user {
            std::os::unix::fs::chown(&self.dir, Some(uid), Some(gid)).expect("the folder given to postgres");
        }
        let child = self
            .command("postgres")
            .arg("-D")
            .arg(self.data())
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-k"])
            .arg(&self.dir)
            // The defaults a deployment has: every commit flushed to the disk.
            .args([
                "-c",
                "fsync=on",
                "-c",
                "synchronous_commit=on",
                "-c",
                "max_connections=50",
            ])
            .stdout(Stdio::null())
            .stderr(log)
            .process_group(0)
            .spawn()
            .expect("postgres starts");
        self.server = Some(child);
        for _ in 0..600 {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                let ready = self
                    .command("pg_isready")
                    .args([
                        "-h",
                        "127.0.0.1",
                        "-p",
                        &self.port.to_string(),
                        "-U",
                        "skirmish",
                        "-d",
                        "postgres",
                    ])
                    .stdout(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success());
                if ready {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "PostgreSQL never took connections (log in {})",
            self.dir.display()
        );
    }

    /// Stops the server at once, as a crash would: SIGQUIT to the postmaster (PostgreSQL's
    /// immediate shutdown: every backend quits at once, no checkpoint, crash recovery at the next
    /// start), then SIGKILL to whatever of it is left. Connections to it fail until
    /// [`Postgres::resume`]. What it committed is on its disk.
    pub fn stop(&mut self) {
        let Some(mut child) = self.server.take() else {
            return;
        };
        let pids = cluster_pids(child.id());
        let _ = signal_pid(child.id(), rustix::process::Signal::CONT);
        let _ = signal_pid(child.id(), rustix::process::Signal::QUIT);
        for _ in 0..100 {
            if child.try_wait().ok().flatten().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        for pid in pids.into_iter().chain([child.id()]) {
            let _ = signal_pid(pid, rustix::process::Signal::KILL);
        }
        let _ = child.wait();
    }

    /// Freezes the server (SIGSTOP to the postmaster and every backend: PostgreSQL's children
    /// each lead a process group of their own): connections are taken by the kernel but nothing
    /// is answered, as with a hung machine or a network dropping packets, until
    /// [`Postgres::thaw`].
    pub fn freeze(&self) {
        self.signal_all(rustix::process::Signal::STOP);
    }

    /// Lets a frozen server go on (SIGCONT).
    pub fn thaw(&self) {
        self.signal_all(rustix::process::Signal::CONT);
    }

    fn signal_all(&self, signal: rustix::process::Signal) {
        let postmaster = self.server.as_ref().expect("PostgreSQL is running").id();
        for pid in [postmaster].into_iter().chain(cluster_pids(postmaster)) {
            let _ = signal_pid(pid, signal);
        }
    }

    /// Makes a new, empty database and returns its URL.
    pub async fn database(&self) -> String {
        let name = format!("skirmish_{}", uuid::Uuid::new_v4().simple());
        let status = self
            .command("createdb")
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "skirmish",
                &name,
            ])
            .status()
            .expect("createdb runs");
        assert!(status.success(), "createdb {name} failed");
        self.url(&name)
    }

    /// The URL of the database `name` on this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://skirmish@127.0.0.1:{}/{name}", self.port)
    }

    /// The folder the cluster lives in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// The processes whose parent is `postmaster` (its backends and auxiliary processes).
fn cluster_pids(postmaster: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| {
            let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // pid (comm) state ppid ...: the command may hold spaces, so read after its ')'.
            let ppid: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
            (ppid == postmaster).then_some(pid)
        })
        .collect()
}

fn signal_pid(pid: u32, signal: rustix::process::Signal) -> rustix::io::Result<()> {
    let pid = rustix::process::Pid::from_raw(i32::try_from(pid).expect("a pid")).expect("a pid");
    rustix::process::kill_process(pid, signal)
}

impl Drop for Postgres {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
