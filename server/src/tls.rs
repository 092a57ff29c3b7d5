//! Built-in TLS (issue 16: resume tokens, bot tokens and keys travel in every `hello`, so they must
//! not cross the network in clear). With `--tls-cert` and `--tls-key` the listener speaks TLS
//! (rustls, HTTP/1.1 over ALPN) on every connection, so the web client is served over `https:` and
//! follows with `wss:`.
//!
//! The certificate is reloaded without a restart: every `--tls-reload-ms` the files' modification
//! times are compared with the ones loaded, and a changed pair is read again (as a renewal by
//! certbot or any ACME client leaves it). Connections already open keep the certificate they
//! started with; a pair that does not load (half written, a key that does not match) is logged and
//! the certificate in use stays.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::crypto::ring;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::{ClientHello, ResolvesServerCert};
use tokio_rustls::rustls::sign::CertifiedKey;
use tokio_util::sync::CancellationToken;

/// Where the certificate chain and its key are read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, PEM, the server's own certificate first.
    pub cert: PathBuf,
    /// Its private key, PEM (PKCS#8, PKCS#1 or SEC1).
    pub key: PathBuf,
}

/// Reads a certificate chain and its key.
///
/// # Errors
/// A file that cannot be read or holds no certificate or key, or a key that rustls cannot use or
/// that does not match the certificate.
pub fn load(files: &TlsFiles) -> std::io::Result<CertifiedKey> {
    let invalid = |what: &Path, err: &dyn std::fmt::Display| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {err}", what.display()),
        )
    };
    let certs = CertificateDer::pem_file_iter(&files.cert)
        .and_then(Iterator::collect::<Result<Vec<_>, _>>)
        .map_err(|e| invalid(&files.cert, &e))?;
    if certs.is_empty() {
        return Err(invalid(&files.cert, &"no certificate in the file"));
    }
    let key = PrivateKeyDer::from_pem_file(&files.key).map_err(|e| invalid(&files.key, &e))?;
    CertifiedKey::from_der(certs, key, &ring::default_provider()).map_err(|e| invalid(&files.key, &e))
}

/// The certificate in use, swapped when its files change.
#[derive(Debug)]
struct Reloading {
    files: TlsFiles,
    current: RwLock<(Arc<CertifiedKey>, Stamp)>,
}

/// The files' modification times when they were loaded.
type Stamp = (Option<SystemTime>, Option<SystemTime>);

fn stamp(files: &TlsFiles) -> Stamp {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    (modified(&files.cert), modified(&files.key))
}

impl ResolvesServerCert for Reloading {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current.read().expect("not poisoned").0.clone())
    }
}

impl Reloading {
    /// Loads the files again if they changed since they were loaded.
    fn reload_if_changed(&self) {
        let now = stamp(&self.files);
        if self.current.read().expect("not poisoned").1 == now {
            return;
        }
        match load(&self.files) {
            Ok(key) => {
                *self.current.write().expect("not poisoned") = (Arc::new(key), now);
                tracing::info!(cert = %self.files.cert.display(), "TLS certificate reloaded");
            }
            Err(err) => {
                tracing::warn!(cause = %err, "the TLS certificate's files changed but do not load; the one in use stays");
            }
        }
    }
}

/// A TLS acceptor for `files`, whose certificate is reloaded every `every` when its files change,
/// until `shutdown`.
///
/// # Errors
/// As [`load`], for the files as they are now.
pub fn acceptor(
    files: TlsFiles,
    every: Duration,
    shutdown: CancellationToken,
) -> std::io::Result<TlsAcceptor> {
    let key = load(&files)?;
    let stamped = stamp(&files);
    let resolver = Arc::new(Reloading {
        files,
        current: RwLock::new((Arc::new(key), stamped)),
    });
    let mut config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(std::io::Error::other)?
        .with_no_client_auth()
        .with_cert_resolver(resolver.clone());
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                _ = ticks.tick() => resolver.reload_if_changed(),
            }
        }
    });
    Ok(TlsAcceptor::from(Arc::new(config)))
}
