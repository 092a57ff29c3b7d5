//! A real cluster for the tests: a NATS server with JetStream (Debian's `nats-server`,
//! installed by scripts/test.sh) on a free loopback port with its store in a temporary folder,
//! a real PostgreSQL ([`super::postgres`]), and nodes that are the server program itself
//! (`--cluster`, `--node-id`), each on its own loopback port.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::ServerProcess;
use super::postgres::Postgres;

/// A running `nats-server -js`; killed and its folder removed when dropped.
pub struct Nats {
    child: Option<Child>,
    dir: std::path::PathBuf,
    port: u16,
}

impl Nats {
    /// Starts one and waits until it takes connections; panics after 10 s.
    pub async fn start() -> Nats {
        let dir = std::env::temp_dir().join(format!("skirmish-nats-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let mut nats = Nats {
            child: None,
            dir,
            port: super::free_port(),
        };
        nats.resume().await;
        nats
    }

    /// Starts the server (again) on its port with its store, and waits until it takes
    /// connections; panics after 10 s.
    pub async fn resume(&mut self) {
        assert!(self.child.is_none(), "NATS is already running");
        // Debian puts it in /usr/sbin, which a user's PATH (under sudo) may not hold.
        let program = std::env::var("SKIRMISH_NATS_SERVER").unwrap_or_else(|_| {
            let debian = "/usr/sbin/nats-server";
            if std::path::Path::new(debian).exists() {
                debian
            } else {
                "nats-server"
            }
            .to_owned()
        });
        let mut child = Command::new(program)
            .args(["-js", "-a", "127.0.0.1", "-p", &self.port.to_string(), "-sd"])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server runs (apt-get install nats-server; scripts/test.sh)");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                self.child = Some(child);
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("nats-server never listened");
    }

    /// Kills the server (SIGKILL, as a crash would); its store stays for [`Nats::resume`].
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One cluster at a time in a test binary: each is a bus, a database and several server
/// processes, and the machines this runs on have two cores.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A bus, a database and `n` nodes.
pub struct TestCluster {
    _turn: tokio::sync::MutexGuard<'static, ()>,
    pub nats: Nats,
    pub pg: Postgres,
    pub database: String,
    pub nodes: Vec<Option<ServerProcess>>,
    pub ports: Vec<u16>,
    extra: Vec<String>,
    env: Vec<(String, String)>,
}

impl TestCluster {
    /// Starts the bus, the database and `n` nodes (`node1`...), each with the `extra` arguments.
    pub async fn start(n: usize, extra: &[&str]) -> TestCluster {
        TestCluster::start_with_env(n, extra, &[]).await
    }

    /// [`TestCluster::start`], with the variables `env` set for every node.
    pub async fn start_with_env(n: usize, extra: &[&str], env: &[(&str, &str)]) -> TestCluster {
        let turn = ONE_AT_A_TIME.lock().await;
        let nats = Nats::start().await;
        let pg = Postgres::start().await;
        let database = pg.database().await;
        let mut cluster = TestCluster {
            _turn: turn,
            nats,
            pg,
            database,
            nodes: Vec::new(),
            ports: (0..n).map(|_| super::free_port()).collect(),
            extra: extra.iter().map(|s| (*s).to_owned()).collect(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        };
        for i in 0..n {
            let node = cluster.spawn(i).await;
            cluster.nodes.push(Some(node));
        }
        cluster
    }

    async fn spawn(&self, i: usize) -> ServerProcess {
        let node = format!("node{}", i + 1);
        let url = self.nats.url();
        let mut args: Vec<&str> = vec!["--cluster", &url, "--node-id", &node];
        args.extend(self.extra.iter().map(String::as_str));
        let env: Vec<(&str, &str)> = self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        ServerProcess::start_with_env(self.ports[i], &self.database, &args, &env).await
    }

    /// Node `i`'s WebSocket URL.
    pub fn ws(&self, i: usize) -> String {
        format!("ws://127.0.0.1:{}/ws", self.ports[i])
    }

    /// Node `i`'s HTTP base URL.
    pub fn http(&self, i: usize) -> String {
        format!("http://127.0.0.1:{}", self.ports[i])
    }

    /// Kills node `i` with SIGKILL.
    pub fn kill(&mut self, i: usize) {
        if let Some(mut node) = self.nodes[i].take() {
            node.kill();
        }
    }

    /// Stops node `i` with SIGTERM; whether it exited cleanly.
    pub fn terminate(&mut self, i: usize) -> bool {
        self.nodes[i].take().is_some_and(|mut node| node.terminate())
    }

    /// Starts node `i` again, under its id and on its port.
    pub async fn restart(&mut self, i: usize) {
        let node = self.spawn(i).await;
        self.nodes[i] = Some(node);
    }
}
