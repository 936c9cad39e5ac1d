//! `npuzzle serve` end to end: the binary starts the web app, prints its address, answers the
//! API; a non-loopback `--host` prints a warning; a port in use is an error (exit 2).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};

/// The server process, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `npuzzle serve ARGS --port 0` and returns it with the stderr lines it printed up to
/// and including the "serving" line.
fn start(args: &[&str]) -> (Server, Vec<String>) {
    let pdb = std::env::temp_dir().join(format!("npuzzle-serve-test-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .arg("serve")
        .args(args)
        .args(["--port", "0", "--pdb-dir"])
        .arg(&pdb)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let stderr = child.stderr.take().unwrap();
    let server = Server(child);
    let mut lines = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.unwrap();
        let done = line.contains("serving the web app on");
        lines.push(line);
        if done {
            break;
        }
    }
    (server, lines)
}

/// `host:port` from `npuzzle: serving the web app on http://HOST:PORT/ (...)`.
fn address(line: &str) -> String {
    let rest = line.split("http://").nth(1).expect("an address");
    rest.split('/').next().unwrap().to_string()
}

/// One HTTP/1.1 request, the whole answer as text.
fn http(addr: &str, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_answers_the_api_on_the_printed_address() {
    let (_server, lines) = start(&[]);
    assert_eq!(lines.len(), 1, "no warning on loopback: {lines:?}");
    let addr = address(&lines[0]);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let body = r#"{"board": "1 2 3 4 5 6 0 7 8", "engine": "idastar"}"#;
    let answer = http(
        &addr,
        &format!(
            "POST /api/solve HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains(r#""length":2,"#) && answer.contains(r#""moves":"LL""#),
        "{answer}"
    );
    let page = http(
        &addr,
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(page.starts_with("HTTP/1.1 200") && page.contains("<title>npuzzle"));
}

#[test]
fn a_non_loopback_host_prints_a_warning() {
    let (_server, lines) = start(&["--host", "0.0.0.0", "--max-timeout", "5"]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("warning: listening on 0.0.0.0, which is not a loopback address"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("each up to 5 s"), "{}", lines[0]);
}

#[test]
fn a_port_in_use_is_an_error() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["serve", "--port", &port])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("error: cannot serve on 127.0.0.1:{port}: ")),
        "{err}"
    );
}
