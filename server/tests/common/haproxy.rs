//! The cluster's load balancer for the tests: the real HAProxy (Debian's `haproxy`, installed by
//! scripts/test.sh) with `deploy/haproxy.cfg`, and a backend whose checks are `deploy/nodes.cfg`'s,
//! word for word, in front of loopback nodes (what scripts/cluster.sh writes).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

/// A running HAProxy; killed and its folder removed when dropped.
pub struct Haproxy {
    _child: Child,
    dir: PathBuf,
    /// Where it listens.
    pub port: u16,
}

/// The lines of `deploy/nodes.cfg`'s backend that decide how nodes are checked and balanced
/// (`balance`, `option httpchk`, `http-check`, `default-server`), without Docker's resolver.
fn shipped_backend() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/nodes.cfg");
    let text = std::fs::read_to_string(&path).expect("deploy/nodes.cfg");
    text.lines()
        .map(str::trim)
        .filter(|l| {
            ["balance ", "option httpchk", "http-check ", "default-server "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(|l| match l.find(" resolvers ") {
            Some(at) => l[..at].to_owned(),
            None => l.to_owned(),
        })
        .collect()
}

impl Haproxy {
    /// Starts HAProxy on a free port in front of the nodes on `ports`, and waits until it listens.
    pub async fn start(ports: &[u16]) -> Haproxy {
        let dir = std::env::temp_dir().join(format!("skirmish-haproxy-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let mut backend = String::from("backend nodes\n");
        for line in shipped_backend() {
            backend.push_str(&format!("    {line}\n"));
        }
        assert!(
            backend.contains("http-check"),
            "deploy/nodes.cfg checks its nodes: {backend}"
        );
        for (k, port) in ports.iter().enumerate() {
            backend.push_str(&format!("    server node{} 127.0.0.1:{port}\n", k + 1));
        }
        let nodes = dir.join("nodes.cfg");
        std::fs::write(&nodes, backend).expect("the nodes' file");
        let port = super::free_port();
        let program = if Path::new("/usr/sbin/haproxy").exists() {
            "/usr/sbin/haproxy"
        } else {
            "haproxy"
        };
        let child = Command::new(program)
            .arg("-f")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/haproxy.cfg"))
            .arg("-f")
            .arg(&nodes)
            .env("SKIRMISH_LB_BIND", format!("127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("haproxy runs (apt-get install haproxy; scripts/test.sh installs it)");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Haproxy {
                    _child: child,
                    dir,
                    port,
                };
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("HAProxy never listened on {port}");
    }

    /// Its WebSocket URL.
    pub fn ws(&self) -> String {
        format!("ws://127.0.0.1:{}/ws", self.port)
    }

    /// Its HTTP base URL.
    pub fn http(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
