"""Shared pieces of the `targeting serve` client tests: starting a server, reading its logs,
speaking HTTP over raw sockets, and comparing with `targeting resolve`.

Every test script imports this module, takes `--bin PATH` (the targeting binary), starts its
own servers with `--listen 127.0.0.1:0` and stops them when it ends, whatever happens.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "Rules"
PROFILES = REPO / "Examples" / "profiles"


class Failure(AssertionError):
    """A check that did not hold."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


def equal(actual, expected, what: str) -> None:
    if actual != expected:
        raise Failure(f"{what}: expected {expected!r}, got {actual!r}")


def arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bin", required=True, help="the targeting binary")
    parser.add_argument("--wrk", default="wrk", help="the wrk binary (load tests)")
    args = parser.parse_args()
    args.bin = str(Path(args.bin).resolve())
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"no executable targeting binary at {args.bin}")
    return args


def main(description: str, tests) -> None:
    """Runs `tests` (a list of (name, function(args))) and exits 1 on the first failure."""
    args = arguments(description)
    started = time.monotonic()
    for name, test in tests:
        t0 = time.monotonic()
        try:
            test(args)
        except Exception as error:  # a failed check or an unexpected error: both fail the script
            print(f"FAIL {name} ({time.monotonic() - t0:.1f}s): {type(error).__name__}: {error}", flush=True)
            sys.exit(1)
        print(f"ok   {name} ({time.monotonic() - t0:.1f}s)", flush=True)
    print(f"{len(tests)} checks passed in {time.monotonic() - started:.1f}s", flush=True)


# ---- the server process ----------------------------------------------------------------------


def rules_argument(rules: Path | str) -> str:
    """The shipped rules as `Rules`, relative to the repository (as explanations then name
    them), any other rules by their path."""
    return "Rules" if Path(rules) == RULES else str(rules)


class Server:
    """A running `targeting serve` on a free port, its stderr log lines gathered as they come."""

    def __init__(self, binary: str, *options: str, rules: Path | str = RULES, cwd: Path = REPO):
        command = [binary, "serve", "--rules", rules_argument(rules), "--listen", "127.0.0.1:0", *options]
        self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.logs: list[dict] = []
        self._raw: list[str] = []
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        first = self.process.stderr.readline().decode()
        try:
            self.listening = json.loads(first)
        except json.JSONDecodeError:
            self.stop()
            raise Failure(f"the server's first log line is not JSON: {first!r}")
        if self.listening.get("event") != "listening":
            self.stop()
            raise Failure(f"the server did not start: {first.strip()}")
        self.port = int(self.listening["port"])
        self.version = self.listening["rules"]
        self.logs.append(self.listening)
        self._reader = threading.Thread(target=self._read_logs, daemon=True)
        self._reader.start()

    def _read_logs(self) -> None:
        for line in self.process.stderr:
            text = line.decode(errors="replace")
            try:
                entry = json.loads(text)
            except json.JSONDecodeError:
                entry = {"event": "unparsed", "text": text}
            with self._arrived:
                self.logs.append(entry)
                self._arrived.notify_all()

    def events(self, name: str) -> list[dict]:
        with self._lock:
            return [entry for entry in self.logs if entry.get("event") == name]

    def wait_for_event(self, name: str, count: int = 1, timeout: float = 10.0) -> list[dict]:
        """Waits until at least `count` log lines with event `name` arrived."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                found = [entry for entry in self.logs if entry.get("event") == name]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failure(f"no {count} `{name}` log line(s) within {timeout}s; logs: {self.logs[-5:]}")
                self._arrived.wait(left)

    def alive(self) -> bool:
        return self.process.poll() is None

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def wait(self, timeout: float) -> int:
        return self.process.wait(timeout=timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


# ---- HTTP over raw sockets --------------------------------------------------------------------


class Response:
    def __init__(self, status: int, reason: str, headers: list[tuple[str, str]], body: bytes):
        self.status, self.reason, self.headers, self.body = status, reason, headers, body

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def json(self):
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"<{self.status} {self.reason} {self.body[:200]!r}>"


class Connection:
    """One client connection that reads answers itself, so that it can send any bytes at all."""

    def __init__(self, port: int, timeout: float = 15.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def read_response(self, head: bool = False) -> Response | None:
        """The next answer, or None when the server closed the connection before one began."""
        while b"\r\n\r\n" not in self.buffer:
            if not self._fill():
                if self.buffer:
                    raise Failure(f"connection closed inside an answer's head: {self.buffer[:200]!r}")
                return None
        head_bytes, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head_bytes.decode("latin-1").split("\r\n")
        version, status, *reason = lines[0].split(" ", 2)
        check(version == "HTTP/1.1", f"status line {lines[0]!r}")
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
        response = Response(int(status), reason[0] if reason else "", headers, b"")
        length = 0 if head or response.status in (204, 304) or 100 <= response.status < 200 \
            else int(response.header("Content-Length") or 0)
        while len(self.buffer) < length:
            if not self._fill():
                raise Failure(f"connection closed inside a body ({len(self.buffer)} of {length} bytes)")
        response.body, self.buffer = self.buffer[:length], self.buffer[length:]
        return response

    def closed_by_server(self, timeout: float) -> bool:
        """Whether the server closes the connection (EOF or reset) within `timeout` seconds."""
        self.sock.settimeout(timeout)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
                self.buffer += chunk
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def exchange(self, data: bytes, head: bool = False) -> Response:
        self.send(data)
        response = self.read_response(head=head)
        check(response is not None, "the server closed the connection instead of answering")
        return response

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def request_bytes(method: str, path: str, body: bytes | str | dict | None = None,
                  headers: dict[str, str] | None = None, close: bool = False) -> bytes:
    """A whole HTTP/1.1 request; a dict body is sent as JSON."""
    if isinstance(body, dict):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode()
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body is not None:
        lines.append("Content-Type: application/json")
        lines.append(f"Content-Length: {len(body)}")
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


def http(port: int, method: str, path: str, body=None, headers=None, timeout: float = 15.0) -> Response:
    """One request on a fresh connection."""
    connection = Connection(port, timeout)
    try:
        return connection.exchange(request_bytes(method, path, body, headers, close=True), head=method == "HEAD")
    finally:
        connection.close()


# ---- the reference: `targeting resolve` -------------------------------------------------------


def run(binary: str, *arguments: str, stdin: bytes | None = None, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *arguments], cwd=cwd, input=stdin, capture_output=True, timeout=60)


def resolve_json(binary: str, profiles: Path, *options: str, single: bool = False, rules: Path = RULES) -> list[dict]:
    """`targeting resolve --all --format json` for a JSON Lines file (or one JSON profile)."""
    flag = "--profile" if single else "--profiles"
    done = run(binary, "resolve", "--all", flag, str(profiles), "--rules", rules_argument(rules), "--format", "json", *options)
    check(done.returncode == 0, f"resolve failed ({done.returncode}): {done.stderr.decode()}")
    return [json.loads(line) for line in done.stdout.decode().splitlines() if line.strip()]


def example_profiles() -> list[dict]:
    """Every example profile: each line of all.jsonl, then base.json and pro_adult.json."""
    profiles = [json.loads(line) for line in (PROFILES / "all.jsonl").read_text().splitlines() if line.strip()]
    for name in ("base.json", "pro_adult.json"):
        profiles.append(json.loads((PROFILES / name).read_text()))
    return profiles


def example_decisions(binary: str) -> list[list[dict]]:
    """`resolve --all --format json` of every example profile at the current time: for each
    profile of `example_profiles()`, in that order, its decisions in placement order."""
    profiles = example_profiles()
    with tempfile.TemporaryDirectory() as scratch:
        lines = Path(scratch) / "profiles.jsonl"
        lines.write_text("".join(json.dumps(profile) + "\n" for profile in profiles))
        decisions = resolve_json(binary, lines)
    check(len(decisions) % len(profiles) == 0, f"{len(decisions)} decisions for {len(profiles)} profiles")
    per = len(decisions) // len(profiles)
    grouped = [decisions[i * per:(i + 1) * per] for i in range(len(profiles))]
    for profile, group in zip(profiles, grouped):
        equal({d["profile_id"] for d in group}, {profile["id"]}, "the profile of a group of decisions")
    return grouped


def placements(binary: str) -> list[str]:
    """The placements of the shipped rules, as the server's first log line lists them."""
    with Server(binary) as server:
        return list(server.listening["placements"])


def copy_rules(into: Path) -> Path:
    """A copy of the shipped .rules files (not their .tests, which name files beside them)."""
    target = into / "Rules"
    target.mkdir(parents=True)
    for source in RULES.glob("*.rules"):
        shutil.copy(source, target / source.name)
    return target


def replace_atomically(path: Path, text: str) -> None:
    """Writes `text` beside `path` and renames it over `path`, so a reader sees one or the other."""
    scratch = path.with_name("." + path.name + ".new")
    scratch.write_text(text)
    os.replace(scratch, path)


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of Prometheus text (0 when absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    pattern = re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)$"
    for line in text.splitlines():
        found = re.match(pattern, line)
        if found:
            return float(found.group(1))
    return 0.0


def readyz_version(port: int) -> str:
    response = http(port, "GET", "/readyz")
    equal(response.status, 200, "/readyz status")
    return response.json()["rules"]


def wait_until(predicate, timeout: float, what: str, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise Failure(f"{what} did not happen within {timeout}s")
