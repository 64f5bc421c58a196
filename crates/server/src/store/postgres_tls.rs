//! How we reach PostgreSQL: over rustls, as libpq does from the same URL.
//! `sslmode` is one of libpq's: `disable`, `prefer` (the default: TLS when
//! the server offers it), `require` (TLS, the certificate unchecked unless
//! `sslrootcert` is given), `verify-ca` (the certificate chains to a trusted
//! root) and `verify-full` (and names the host). `sslrootcert=FILE` adds a
//! PEM CA to the system's roots. tokio-postgres knows only the first three,
//! so the last two are taken out of the URL here.

use std::path::PathBuf;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use tokio_postgres::config::SslMode;
use tokio_postgres::tls::MakeTlsConnect;
use tokio_postgres::{Client, Socket};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::StoreError;
use crate::base::tls;

/// A session's connection, to be polled for it to make progress.
pub type Connection =
    tokio_postgres::Connection<Socket, <MakeRustlsConnect as MakeTlsConnect<Socket>>::Stream>;

/// How much of the server's certificate is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Nothing,
    Chain,
    ChainAndHost,
}

/// A URL's TLS settings, and the URL left for tokio-postgres.
#[derive(Debug, PartialEq, Eq)]
struct Settings {
    url: String,
    mode: SslMode,
    check: Check,
    root_cert: Option<PathBuf>,
}

fn settings(url: &str) -> Result<Settings, StoreError> {
    let (address, query) = url.split_once('?').unwrap_or((url, ""));
    let mut kept = form_urlencoded::Serializer::new(String::new());
    let (mut mode, mut root_cert) = (None, None);
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match &*key {
            "sslmode" => mode = Some(value.into_owned()),
            "sslrootcert" if value == "system" => {}
            "sslrootcert" => root_cert = Some(PathBuf::from(&*value)),
            _ => {
                kept.append_pair(&key, &value);
            }
        }
    }
    let (mode, check) = match mode.as_deref().unwrap_or("prefer") {
        "disable" => (SslMode::Disable, Check::Nothing),
        "prefer" | "allow" => (SslMode::Prefer, Check::Nothing),
        // As libpq: `require` with a root certificate checks the chain.
        "require" if root_cert.is_some() => (SslMode::Require, Check::Chain),
        "require" => (SslMode::Require, Check::Nothing),
        "verify-ca" => (SslMode::Require, Check::Chain),
        "verify-full" => (SslMode::Require, Check::ChainAndHost),
        other => {
            return Err(StoreError::Config(format!(
                "sslmode `{other}`: one of disable, prefer, require, verify-ca, verify-full"
            )))
        }
    };
    let kept = kept.finish();
    Ok(Settings {
        url: if kept.is_empty() {
            address.to_string()
        } else {
            format!("{address}?{kept}")
        },
        mode,
        check,
        root_cert,
    })
}

/// Whether `url` can be used as it is written (`parity serve --db`
/// checks it before connecting): its TLS settings and the rest, as
/// tokio-postgres reads it.
pub fn check_url(url: &str) -> Result<(), StoreError> {
    let settings = settings(url)?;
    settings.url.parse::<tokio_postgres::Config>()?;
    Ok(())
}

/// Opens a session on the database of `url`; its connection must be
/// polled (spawned) for the client to work.
pub(crate) async fn connect(url: &str) -> Result<(Client, Connection), StoreError> {
    let settings = settings(url)?;
    let mut config: tokio_postgres::Config = settings.url.parse()?;
    config.ssl_mode(settings.mode);
    let tls = MakeRustlsConnect::new(client_config(settings.check, settings.root_cert)?);
    Ok(config.connect(tls).await?)
}

fn client_config(
    check: Check,
    root_cert: Option<PathBuf>,
) -> Result<rustls::ClientConfig, StoreError> {
    let bad = |e: tls::TlsError| StoreError::Config(e.to_string());
    let provider = tls::provider();
    let verifier: Arc<dyn ServerCertVerifier> = match check {
        Check::Nothing => Arc::new(Unchecked(provider.clone())),
        Check::Chain | Check::ChainAndHost => {
            let roots = tls::roots(root_cert.as_deref()).map_err(bad)?;
            let full =
                WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                    .build()
                    .map_err(|e| StoreError::Config(format!("TLS roots: {e}")))?;
            if check == Check::Chain {
                Arc::new(AnyHost(full))
            } else {
                full
            }
        }
    };
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(e.into()))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

/// `prefer` and `require`: encrypted, the certificate taken as it comes
/// (libpq's meaning of these modes); the handshake is still verified.
#[derive(Debug)]
struct Unchecked(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca`: the chain is checked, the name in the certificate is not.
#[derive(Debug)]
struct AnyHost(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyHost {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libpq_modes_are_read_and_taken_out_of_the_url() {
        let read = settings(
            "postgres://u@db.example:5432/games?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=parity",
        )
        .unwrap();
        assert_eq!(
            read.url,
            "postgres://u@db.example:5432/games?application_name=parity"
        );
        assert_eq!(
            (read.mode, read.check),
            (SslMode::Require, Check::ChainAndHost)
        );
        assert_eq!(read.root_cert, Some(PathBuf::from("/etc/ca.pem")));

        let plain = settings("postgres://u@h/games").unwrap();
        assert_eq!(plain.url, "postgres://u@h/games");
        assert_eq!((plain.mode, plain.check), (SslMode::Prefer, Check::Nothing));
        let required = settings("postgres://u@h/g?sslmode=require").unwrap();
        assert_eq!(
            (required.mode, required.check),
            (SslMode::Require, Check::Nothing)
        );
        let with_root = settings("postgres://u@h/g?sslmode=require&sslrootcert=ca.pem").unwrap();
        assert_eq!(with_root.check, Check::Chain);
        let ca = settings("postgres://u@h/g?sslmode=verify-ca&sslrootcert=system").unwrap();
        assert_eq!((ca.check, ca.root_cert), (Check::Chain, None));
        assert_eq!(
            settings("postgres://u@h/g?sslmode=disable").unwrap().mode,
            SslMode::Disable
        );
    }

    #[test]
    fn a_url_is_checked_before_any_connection() {
        assert!(check_url("postgres://u@h:5432/g?sslmode=verify-full&sslrootcert=/ca.pem").is_ok());
        let bad_mode = check_url("postgres://u@h/g?sslmode=sometimes").unwrap_err();
        assert!(bad_mode.to_string().contains("sometimes"), "{bad_mode}");
        let bad_option = check_url("postgres://u@h/g?colour=blue").unwrap_err();
        assert!(bad_option.to_string().contains("colour"), "{bad_option}");
    }

    #[test]
    fn an_unknown_mode_or_a_missing_root_file_is_a_clear_error() {
        let mode = settings("postgres://u@h/g?sslmode=verify-everything").unwrap_err();
        assert!(mode.to_string().contains("verify-everything"), "{mode}");
        let missing =
            client_config(Check::ChainAndHost, Some("/nonexistent/ca.pem".into())).unwrap_err();
        assert!(
            missing.to_string().contains("/nonexistent/ca.pem"),
            "{missing}"
        );
    }
}
