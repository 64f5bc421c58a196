//! TLS where we are the client: `parity bot` and `parity loadtest` over
//! https and wss, and PostgreSQL (`store/postgres_tls.rs`). rustls with
//! aws-lc-rs, trusting the system's roots and, when given, a CA file (a
//! private CA, or a test's self-signed certificate).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::CertificateDer;

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{path}: {message}")]
    CaFile { path: PathBuf, message: String },
    #[error("TLS: {0}")]
    Rustls(#[from] rustls::Error),
}

/// The system's roots, plus every certificate of `ca_file` (PEM) when
/// given.
pub fn roots(ca_file: Option<&Path>) -> Result<rustls::RootCertStore, TlsError> {
    let mut roots = rustls::RootCertStore::empty();
    // A system without a root store still reaches a server of `ca_file`.
    let (_, _) = roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    if let Some(path) = ca_file {
        let bad = |message: String| TlsError::CaFile {
            path: path.to_path_buf(),
            message,
        };
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
            .map_err(|e| bad(e.to_string()))?
            .collect::<Result<_, _>>()
            .map_err(|e| bad(e.to_string()))?;
        if certs.is_empty() {
            return Err(bad("no PEM certificate in it".into()));
        }
        for cert in certs {
            roots.add(cert)?;
        }
    }
    Ok(roots)
}

/// The one crypto provider of our TLS clients.
pub fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// A client configuration trusting [`roots`].
pub fn client_config(ca_file: Option<&Path>) -> Result<rustls::ClientConfig, TlsError> {
    Ok(rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots(ca_file)?)
        .with_no_client_auth())
}

/// An HTTP client for `http://` and `https://` servers.
pub fn http_client(ca_file: Option<&Path>) -> Result<reqwest::ClientBuilder, TlsError> {
    Ok(reqwest::Client::builder().tls_backend_preconfigured(client_config(ca_file)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_must_hold_a_certificate() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let error = client_config(Some(&empty)).unwrap_err().to_string();
        assert!(error.contains("no PEM certificate"), "{error}");
        let missing = client_config(Some(&dir.path().join("none.pem"))).unwrap_err();
        assert!(missing.to_string().contains("none.pem"), "{missing}");
        assert!(client_config(None).is_ok());
    }
}
