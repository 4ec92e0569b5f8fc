"""Hostile clients against `targeting serve`: a slow client, a huge body, 2,000 connections at
once, random bytes, a request split at every byte, pipelined requests.

Throughout, a well-behaved keep-alive client (the watcher) asks /v1/resolve every 50 ms on a
connection opened before the attacks; every one of its answers must be a 200 that came quickly,
and the server must stay up.
"""

from __future__ import annotations

import json
import random
import resource
import selectors
import socket
import threading
import time

from serve_support import (PROFILES, Connection, Failure, Server, check, equal, http, main, metric, request_bytes)

NOW = "2026-11-29T12:00:00Z"
PROFILE = json.loads((PROFILES / "pro_adult.json").read_text())
RESOLVE = request_bytes("POST", "/v1/resolve", {"profile": PROFILE, "now": NOW})


class Watcher(threading.Thread):
    """A keep-alive client asking every 50 ms; it records every answer and how long it took."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.connection = Connection(port, timeout=5)
        self.halt = threading.Event()
        self.lock = threading.Lock()
        self.answers: list[tuple[float, int, float]] = []  # (when, status, seconds taken)
        self.error: Exception | None = None
        self.start()

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                started = time.monotonic()
                response = self.connection.exchange(RESOLVE)
                with self.lock:
                    self.answers.append((started, response.status, time.monotonic() - started))
                time.sleep(0.05)
        except Exception as error:
            self.error = error

    def answered_since(self, moment: float) -> int:
        """How many 200 answers it got for requests sent after `moment`; fails on anything else."""
        check(self.error is None and self.is_alive(), f"the watcher stopped: {self.error!r}")
        with self.lock:
            recent = [a for a in self.answers if a[0] >= moment]
        bad = [a for a in recent if a[1] != 200]
        check(not bad, f"the watcher got {bad[:3]}")
        slowest = max((a[2] for a in recent), default=0.0)
        check(slowest <= 2.0, f"the watcher waited {slowest:.1f}s for an answer")
        return len(recent)

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=10)
        self.connection.close()


def with_watcher(attack):
    """Runs `attack(args, server, watcher)` on a fresh server with a watcher, then checks that
    the watcher was answered during the attack and that the server is up."""
    def test(args) -> None:
        with Server(args.bin) as server:
            watcher = Watcher(server.port)
            try:
                time.sleep(0.2)
                started = time.monotonic()
                attack(args, server, watcher)
                time.sleep(0.2)
                answered = watcher.answered_since(started)
                check(answered >= 3, f"the watcher got only {answered} answers during the attack")
                check(server.alive(), "the server died")
                equal(http(server.port, "GET", "/healthz").status, 200, "a new connection after the attack")
            finally:
                watcher.stop()
    return test


def slow_client(args, server: Server, watcher: Watcher) -> None:
    request = RESOLVE
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.setblocking(False)
    first = time.monotonic()
    received = b""
    closed = False
    sent = 0
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    try:
        while time.monotonic() - first < 20 and not closed:
            if sent < len(request):
                try:
                    sock.send(request[sent:sent + 1])
                    sent += 1
                except (BrokenPipeError, ConnectionResetError):
                    pass
            moment = time.monotonic()
            while time.monotonic() - moment < 1.0 and not closed:
                if selector.select(timeout=1.0 - (time.monotonic() - moment)):
                    try:
                        chunk = sock.recv(65536)
                    except ConnectionResetError:
                        chunk = b""
                    if chunk:
                        received += chunk
                    else:
                        closed = True
            if 3 <= sent <= 5:  # others are answered while it trickles
                watcher.answered_since(first)
    finally:
        sock.close()
    took = time.monotonic() - first
    check(closed, "the slow connection was not closed within 20 s")
    check(received.startswith(b"HTTP/1.1 408 "), f"the slow client got {received[:80]!r}")
    check(b'"request_timeout"' in received, f"408 without request_timeout: {received!r}")
    check(9.0 <= took <= 13.0, f"the slow client was cut off after {took:.1f}s, not about 10 s")
    check(watcher.answered_since(first) >= 50, "the watcher was not answered while the slow client trickled")
    print(f"     408 after {took:.1f}s and {sent} bytes")


def huge_body(args, server: Server, watcher: Watcher) -> None:
    size = 10 * 1024 * 1024
    connection = Connection(server.port)
    try:
        connection.send(f"POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {size}\r\n\r\n".encode())
        connection.send(b"{" + b" " * 65536)
        response = connection.read_response()
        check(response is not None, "no answer to a 10 MiB Content-Length")
        equal(response.status, 413, "a 10 MiB body")
        equal(response.json()["error"]["code"], "payload_too_large", "413 code")
        # The rest of the body goes nowhere; sending it must not hurt the server.
        try:
            connection.send(b" " * size)
        except (BrokenPipeError, ConnectionResetError):
            pass
        check(connection.closed_by_server(5), "the connection stayed open after 413")
    finally:
        connection.close()
    # The same body in chunks, without Content-Length.
    connection = Connection(server.port)
    status = None
    try:
        connection.send(b"POST /v1/resolve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n" % 65536 + b" " * 65536 + b"\r\n"
        for _ in range(size // 65536):
            connection.send(chunk)
        connection.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        response = connection.read_response()
        status = response.status if response else None
    except (ConnectionResetError, Failure):
        status = None
    finally:
        connection.close()
    check(status in (413, None), f"a 10 MiB chunked body got {status}")


def many_connections(args, server: Server, watcher: Watcher) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    check(soft >= 2200, f"the open file limit {soft} is too low for 2,000 connections")
    count = 2000
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", server.port))
            sockets.append(sock)
        opened = time.monotonic()
        # Every connection past the limit is answered 503 and closed; the others stay open.
        selector = selectors.DefaultSelector()
        for index, sock in enumerate(sockets):
            selector.register(sock, selectors.EVENT_READ, index)
        answers: dict[int, bytes] = {}
        ended: set[int] = set()
        while time.monotonic() - opened < 4:
            for key, _ in selector.select(timeout=0.5):
                try:
                    chunk = key.fileobj.recv(65536)
                except (ConnectionResetError, BlockingIOError):
                    chunk = b""
                if chunk:
                    answers[key.data] = answers.get(key.data, b"") + chunk
                else:
                    ended.add(key.data)
                    selector.unregister(key.fileobj)
        selector.close()
        refused = [i for i, data in answers.items() if data.startswith(b"HTTP/1.1 503 ")]
        other = {i: data[:60] for i, data in answers.items() if not data.startswith(b"HTTP/1.1 503 ")}
        check(not other, f"connections got other answers: {list(other.values())[:3]}")
        check(len(refused) >= count - 1024, f"only {len(refused)} of {count} connections were refused")
        sample = answers[refused[0]]
        check(b'"too_many_connections"' in sample and b"Retry-After: 1" in sample, f"a 503 answer: {sample!r}")
        # The connections kept open are served.
        kept = [i for i in range(count) if i not in answers and i not in ended]
        check(len(kept) >= 900, f"only {len(kept)} connections were kept")
        for index in kept[:20]:
            sock = sockets[index]
            sock.setblocking(True)
            sock.settimeout(10)
            sock.sendall(request_bytes("GET", "/healthz"))
            check(sock.recv(65536).startswith(b"HTTP/1.1 200 "), "a kept connection was not served")
        watcher.answered_since(opened)
    finally:
        for sock in sockets:
            sock.close()
    # Once they are closed, new connections are served again.
    def open_connections() -> float:
        return metric(watcher_metrics(server), "targeting_open_connections")
    deadline = time.monotonic() + 10
    while open_connections() > 5 and time.monotonic() < deadline:
        time.sleep(0.1)
    check(open_connections() <= 5, f"{open_connections()} connections still open after closing them")
    for _ in range(50):
        equal(http(server.port, "POST", "/v1/resolve", {"profile": PROFILE}).status, 200, "a new connection")
    metrics = watcher_metrics(server)
    equal(metric(metrics, "targeting_refused_connections_total"), float(len(refused)), "refused connections counted")
    print(f"     {len(refused)} refused with 503, {len(kept)} kept and served")


def watcher_metrics(server: Server) -> str:
    response = http(server.port, "GET", "/metrics")
    equal(response.status, 200, "/metrics")
    return response.body.decode()


def random_bytes(args, server: Server, watcher: Watcher) -> None:
    generator = random.Random(20261207)
    payloads = [
        bytes(generator.randrange(256) for _ in range(n)) for n in (1, 7, 64, 512, 4096, 20000)
    ] + [
        bytes(generator.choice(b"GETPOST /:\r\n HTTP1.{}\"") for _ in range(n)) for n in (16, 300, 3000)
    ] + [
        b"GET / HTTP/1.1\r\n" + bytes(generator.randrange(256) for _ in range(200)) + b"\r\n\r\n",
        b"POST /v1/resolve HTTP/1.1\r\nContent-Length: 12\r\n\r\n" + bytes(generator.randrange(256) for _ in range(12)),
        b"POST /v1/resolve HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n" + bytes(range(256)),
        b"GET /healthz HTTP/9.9\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        b"\x00" * 1000,
        b"\r\n" * 5000,
        b"GET /" + b"%" * 3000 + b" HTTP/1.1\r\n\r\n",
    ]
    results: list[tuple[bytes, str, float]] = [None] * len(payloads)  # type: ignore[list-item]

    def attack(index: int) -> None:
        started = time.monotonic()
        try:
            connection = Connection(server.port, timeout=15)
        except OSError as error:
            results[index] = (payloads[index][:40], f"cannot connect: {error!r}", 0.0)
            return
        try:
            try:
                connection.send(payloads[index])
            except (BrokenPipeError, ConnectionResetError):
                pass
            outcome = "closed"
            try:
                response = connection.read_response()
                if response is not None:
                    outcome = str(response.status)
                    check(connection.closed_by_server(12) or 400 <= response.status < 500,
                          f"payload {index} left open after {response.status}")
            except ConnectionResetError:
                pass
            except socket.timeout:
                outcome = "hang"
            results[index] = (payloads[index][:40], outcome, time.monotonic() - started)
        except Exception as error:
            results[index] = (payloads[index][:40], f"error: {error!r}", time.monotonic() - started)
        finally:
            connection.close()

    threads = [threading.Thread(target=attack, args=(i,)) for i in range(len(payloads))]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    watcher.answered_since(started)
    check(None not in results, "an attack did not finish")
    for payload, outcome, took in results:
        check(outcome == "closed" or (outcome.isdigit() and 400 <= int(outcome) < 600 and int(outcome) != 500),
              f"random payload {payload!r} got {outcome}")
        check(outcome != "hang" and took < 13, f"random payload {payload!r} hung for {took:.1f}s")
        check(not outcome.startswith("5") or outcome in ("501", "505"), f"random payload {payload!r} got {outcome}")
    print("     " + ", ".join(sorted({outcome for _, outcome, _ in results})) + " answers")


def split_everywhere(args, server: Server, watcher: Watcher) -> None:
    reference = http(server.port, "POST", "/v1/resolve", {"profile": PROFILE, "now": NOW})
    equal(reference.status, 200, "the whole request")
    request = RESOLVE
    failures: list[str] = []
    lanes = 4

    def lane(offset: int) -> None:
        connection = Connection(server.port)
        try:
            for k in range(1 + offset, len(request), lanes):
                connection.send(request[:k])
                time.sleep(0.003)
                connection.send(request[k:])
                response = connection.read_response()
                if response is None or response.status != 200 or response.body != reference.body:
                    failures.append(f"split at {k}: {response!r}")
                    return
        except Exception as error:
            failures.append(f"lane {offset}: {error!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=lane, args=(i,)) for i in range(lanes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    check(not failures, "; ".join(failures[:3]))
    print(f"     {len(request) - 1} split points, each the same 200")


def pipelined(args, server: Server, watcher: Watcher) -> None:
    base = json.loads((PROFILES / "base.json").read_text())
    requests = [
        request_bytes("GET", "/healthz"),
        request_bytes("POST", "/v1/resolve", {"profile": PROFILE, "now": NOW}),
        request_bytes("HEAD", "/readyz"),
        request_bytes("POST", "/v1/resolve", {"profile": base, "now": NOW, "placements": ["main_paywall"]}),
        request_bytes("POST", "/ofrep/v1/evaluate/flags/main_paywall", {"context": {"targetingKey": "u1", "country": "US"}}),
        request_bytes("GET", "/nowhere"),
        request_bytes("POST", "/v1/resolve", "{broken"),
        request_bytes("GET", "/readyz"),
    ]
    expected = []
    for data in requests:
        connection = Connection(server.port)
        try:
            expected.append(connection.exchange(data, head=data.startswith(b"HEAD")))
        finally:
            connection.close()
    # All of them in one send, then the same 100 times over in one send.
    for repeat in (1, 100):
        connection = Connection(server.port)
        try:
            connection.send(b"".join(requests) * repeat)
            for round_ in range(repeat):
                for data, want in zip(requests, expected):
                    got = connection.read_response(head=data.startswith(b"HEAD"))
                    check(got is not None, f"the connection closed after {round_} rounds")
                    equal((got.status, got.body), (want.status, want.body), f"pipelined {data.split(b' ')[:2]}")
        finally:
            connection.close()
    # A request with `Connection: close` in the middle ends the connection there, answered.
    connection = Connection(server.port)
    try:
        connection.send(requests[0] + request_bytes("GET", "/readyz", close=True) + requests[0])
        equal(connection.read_response().status, 200, "first pipelined")
        last = connection.read_response()
        equal((last.status, (last.header("Connection") or "").lower()), (200, "close"), "the closing request")
        check(connection.closed_by_server(5), "the connection stayed open after `Connection: close`")
        equal(connection.buffer, b"", "bytes after the closing answer")
    finally:
        connection.close()


def raise_file_limit() -> None:
    """Lets this process and the servers it starts hold 2,000 connections."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


if __name__ == "__main__":
    raise_file_limit()
    main("hostile clients against targeting serve", [
        ("a client sending a byte a second gets 408 after about 10 s", with_watcher(slow_client)),
        ("a 10 MiB body gets 413", with_watcher(huge_body)),
        ("2,000 connections at once: 503 past the limit, the rest served", with_watcher(many_connections)),
        ("random bytes get 4xx or a closed connection", with_watcher(random_bytes)),
        ("a request split at every byte gets the same answer", with_watcher(split_everywhere)),
        ("pipelined requests are answered in order", with_watcher(pipelined)),
    ])
