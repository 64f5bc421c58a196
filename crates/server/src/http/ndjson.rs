//! NDJSON responses, one helper for every stream: one JSON value a line,
//! an empty line after a silence (clients and proxies otherwise take a
//! quiet stream for a dead one), closed when the source ends or the client
//! hangs up.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use futures_util::{Stream, StreamExt as _};
use tokio::sync::mpsc;

use crate::base::metrics;

/// Lines waiting for a slow client before the source waits too.
const BUFFERED_LINES: usize = 64;

/// Streams what `source` yields, each item's lines in order, with an empty
/// line after each `keepalive` of silence, until `closed` (the server
/// shuts down: the client reconnects, as to any stream that ends).
pub fn stream<S, C>(keepalive: Duration, source: S, closed: C) -> Response
where
    S: Stream<Item = Vec<Bytes>> + Send + 'static,
    C: std::future::Future<Output = ()> + Send + 'static,
{
    let (lines, rx) = mpsc::channel::<Bytes>(BUFFERED_LINES);
    tokio::spawn(async move {
        let _open = metrics::socket(metrics::STREAM);
        let mut source = std::pin::pin!(source);
        let mut closed = std::pin::pin!(closed);
        let start = tokio::time::Instant::now() + keepalive;
        let mut quiet = tokio::time::interval_at(start, keepalive);
        loop {
            // `next` is cancel-safe: a source's unfinished item stays in it.
            let out = tokio::select! {
                next = source.next() => match next {
                    Some(out) => out,
                    None => return,
                },
                _ = quiet.tick() => vec![Bytes::from_static(b"\n")],
                _ = lines.closed() => return,
                () = &mut closed => return,
            };
            quiet.reset();
            for bytes in out {
                if lines.send(bytes).await.is_err() {
                    return;
                }
            }
        }
    });
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|bytes| (Ok::<_, std::convert::Infallible>(bytes), rx))
    });
    (
        [(CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(body),
    )
        .into_response()
}

/// A JSON value as its line.
pub fn line(value: &serde_json::Value) -> Bytes {
    Bytes::from(format!("{value}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn lines_go_out_in_order_and_a_silence_gets_a_blank_line() {
        let (go, wait) = tokio::sync::oneshot::channel::<()>();
        let source =
            futures_util::stream::iter([vec![line(&json!({"a": 1})), line(&json!({"b": 2}))]])
                .chain(futures_util::stream::once(async move {
                    let _ = wait.await;
                    vec![line(&json!({"c": 3}))]
                }));
        let mut body = stream(Duration::from_millis(20), source, std::future::pending())
            .into_body()
            .into_data_stream();
        let mut text = String::new();
        // The source is silent until a blank line has gone out.
        while let Some(chunk) = body.next().await {
            let chunk = chunk.unwrap();
            text.push_str(std::str::from_utf8(&chunk).unwrap());
            if &chunk[..] == b"\n" {
                break;
            }
        }
        go.send(()).unwrap();
        // The stream ends with its source.
        while let Some(chunk) = body.next().await {
            text.push_str(std::str::from_utf8(&chunk.unwrap()).unwrap());
        }
        assert!(text.starts_with("{\"a\":1}\n{\"b\":2}\n\n"), "{text:?}");
        assert!(text.ends_with("\n{\"c\":3}\n"), "{text:?}");
        let values: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(values, ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]);
    }

    #[tokio::test]
    async fn a_stream_ends_when_the_server_closes() {
        let (close, closed) = tokio::sync::oneshot::channel::<()>();
        let source = futures_util::stream::once(async { vec![line(&json!({"a": 1}))] })
            .chain(futures_util::stream::pending());
        let closed = async move {
            let _ = closed.await;
        };
        let mut body = stream(Duration::from_secs(60), source, closed)
            .into_body()
            .into_data_stream();
        assert_eq!(&body.next().await.unwrap().unwrap()[..], b"{\"a\":1}\n");
        close.send(()).unwrap();
        assert!(body.next().await.is_none(), "the stream ends");
    }
}
