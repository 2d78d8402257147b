//! Helpers of the security suite: raw requests that send a body
//! while reading the answer (so a server that answers 413 early is still heard).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use veranda_tests::TestApp;

/// How a raw request sends its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// With a `Content-Length` header.
    Length,
    /// `Transfer-Encoding: chunked`, no `Content-Length`.
    Chunked,
}

/// An answer read off the wire.
#[derive(Debug)]
pub struct RawAnswer {
    /// The status code (0 when nothing readable came back).
    pub status: u16,
    /// Everything after the header block.
    pub body: String,
}

/// Sends `method path` with `headers` and `body`, framed as `framing`, writing the body
/// while the answer is read. The connection is closed after one answer.
pub async fn raw(
    app: &TestApp,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: Vec<u8>,
    framing: Framing,
) -> RawAnswer {
    let stream = TcpStream::connect(("127.0.0.1", app.port)).await.expect("connects");
    let (mut reader, mut writer) = tokio::io::split(stream);
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n", app.port);
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    match framing {
        Framing::Length => head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len())),
        Framing::Chunked => head.push_str("Transfer-Encoding: chunked\r\n\r\n"),
    }
    let write = tokio::spawn(async move {
        writer.write_all(head.as_bytes()).await?;
        for piece in body.chunks(16 * 1024) {
            match framing {
                Framing::Length => writer.write_all(piece).await?,
                Framing::Chunked => {
                    writer.write_all(format!("{:x}\r\n", piece.len()).as_bytes()).await?;
                    writer.write_all(piece).await?;
                    writer.write_all(b"\r\n").await?;
                }
            }
        }
        if framing == Framing::Chunked {
            writer.write_all(b"0\r\n\r\n").await?;
        }
        writer.flush().await?;
        // Keep the write half open until the answer is read.
        tokio::time::sleep(Duration::from_secs(15)).await;
        Ok::<_, std::io::Error>(())
    });
    let mut response = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let read = async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => response.extend_from_slice(&buf[..n]),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), read).await;
    write.abort();
    let text = String::from_utf8_lossy(&response).to_string();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    RawAnswer { status, body }
}
