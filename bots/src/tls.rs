//! TLS for bot connections (`wss://`): a server started with `--tls-cert` speaks only TLS, and a
//! bot's `hello` carries its account token, so it must never travel in clear (issue 16). rustls
//! with the ring provider, trusting Mozilla's roots (webpki-roots) and, with `--ca-cert`, the
//! certificates of one PEM file (a self-signed server's own certificate, or a private CA).

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject as _;
use rustls::{ClientConfig, RootCertStore};
use tokio_tungstenite::Connector;

/// The connector for `wss://` URLs: Mozilla's roots, plus every certificate in the PEM file
/// `ca_cert` when given. (`ws://` URLs ignore it.)
///
/// # Errors
/// The file cannot be read, holds no certificate or an unreadable one, or a certificate is not
/// a valid root.
pub fn connector(ca_cert: Option<&Path>) -> anyhow::Result<Connector> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_cert {
        let mut added = 0;
        for cert in CertificateDer::pem_file_iter(path)
            .with_context(|| format!("reading the CA certificates in {}", path.display()))?
        {
            let cert = cert.with_context(|| format!("a certificate in {}", path.display()))?;
            roots
                .add(cert)
                .with_context(|| format!("a certificate in {} is not a valid root", path.display()))?;
            added += 1;
        }
        anyhow::ensure!(added > 0, "no certificate in {}", path.display());
    }
    let config = ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .context("TLS protocol versions")?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Connector::Rustls(Arc::new(config)))
}
