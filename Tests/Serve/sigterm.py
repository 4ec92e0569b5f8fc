"""SIGTERM while `targeting serve` is under load: it stops accepting, answers what is in flight
(including a request whose body arrives a second after the signal), and exits 0 within about
10 s; no client sees an answer other than 200 (a refused or closed connection after the
listener closed is fine).
"""

from __future__ import annotations

import json
import signal
import socket
import threading
import time

from load import WrkResult, start_wrk
from serve_support import PROFILES, Connection, Server, check, equal, main

PROFILE = json.loads((PROFILES / "pro_adult.json").read_text())


class Looper(threading.Thread):
    """Asks /v1/resolve in a loop on keep-alive connections, opening a new one when the server
    closes one, until connections are refused; records every answer's status."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.statuses: list[int] = []
        self.failures: list[str] = []
        self.closes = 0
        self.refused = False
        self.error: Exception | None = None
        body = json.dumps({"profile": PROFILE}).encode()
        self.request = (b"POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: %d\r\n\r\n" % len(body)) + body
        self.start()

    def run(self) -> None:
        deadline = time.monotonic() + 30
        try:
            while time.monotonic() < deadline:
                try:
                    connection = Connection(self.port, timeout=12)
                except ConnectionRefusedError:
                    self.refused = True
                    return
                try:
                    while True:
                        try:
                            connection.send(self.request)
                            response = connection.read_response()
                        except (ConnectionResetError, BrokenPipeError):
                            response = None
                        if response is None:
                            self.closes += 1
                            break
                        self.statuses.append(response.status)
                        if response.status != 200:
                            self.failures.append(f"{response.status} {response.headers} {response.body[:200]!r}")
                        if (response.header("Connection") or "").lower() == "close":
                            self.closes += 1
                            break
                finally:
                    connection.close()
        except Exception as error:
            self.error = error


def stop_under_load(args) -> None:
    with Server(args.bin) as server:
        wrk = start_wrk(args, server.port, 8)
        loopers = [Looper(server.port) for _ in range(4)]
        time.sleep(2.5)
        # A request in flight: its head is sent before the signal, its body a second after.
        body = json.dumps({"profile": PROFILE}).encode()
        in_flight = Connection(server.port, timeout=15)
        in_flight.send(b"POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       b"Content-Length: %d\r\n\r\n" % len(body))
        time.sleep(0.1)
        signalled = time.monotonic()
        server.signal(signal.SIGTERM)
        time.sleep(1.0)
        in_flight.send(body)
        answer = in_flight.read_response()
        in_flight.close()
        check(answer is not None, "the request in flight got no answer")
        equal(answer.status, 200, "the request in flight")
        equal((answer.header("Connection") or "").lower(), "close", "Connection of an answer while stopping")
        equal(answer.json()["decisions"][0]["profile_id"], PROFILE["id"], "the answer in flight")

        status = server.wait(timeout=15)
        took = time.monotonic() - signalled
        equal(status, 0, "the exit status after SIGTERM")
        check(took <= 11.0, f"the server took {took:.1f}s to stop")
        # New connections are refused once it is gone.
        try:
            socket.create_connection(("127.0.0.1", server.port), timeout=2).close()
            check(False, "a connection was accepted after the server stopped")
        except ConnectionRefusedError:
            pass

        stdout, stderr = wrk.communicate(timeout=30)
        equal(wrk.returncode, 0, f"wrk's status ({stderr.decode()})")
        result = WrkResult(stdout.decode())
        check("Non-2xx or 3xx responses" not in result.output, f"wrk saw non-2xx answers:\n{result.output}")
        equal(set(result.statuses), {200}, "statuses wrk's script counted")
        check(result.requests > 1000, f"wrk made only {result.requests} requests")
        for looper in loopers:
            looper.join(timeout=30)
            check(looper.error is None, f"a looping client failed: {looper.error!r}")
            check(looper.statuses, "a looping client got no answer")
            check(not looper.failures, f"a looping client got {looper.failures[:2]}")

        events = [entry.get("event") for entry in server.logs]
        for event in ("stopping", "draining", "stopped"):
            check(event in events, f"no `{event}` log line: {events[-6:]}")
        equal(server.events("stopping")[0].get("signal"), "SIGTERM", "the signal logged")
        equal(server.events("stopped")[0].get("unfinished_connections"), 0, "connections left unfinished")
        print(f"     exit 0 after {took:.1f}s; wrk {result.requests} answers, "
              f"looping clients {sum(len(l.statuses) for l in loopers)}, all 200")


def interrupt_when_idle(args) -> None:
    with Server(args.bin) as server:
        idle = Connection(server.port)
        equal(idle.exchange(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status, 200, "before SIGINT")
        signalled = time.monotonic()
        server.signal(signal.SIGINT)
        equal(server.wait(timeout=15), 0, "the exit status after SIGINT")
        took = time.monotonic() - signalled
        check(took <= 11.0, f"the server took {took:.1f}s to stop with an idle connection open")
        check(idle.closed_by_server(2), "the idle connection stayed open")
        idle.close()
        equal(server.events("stopping")[0].get("signal"), "SIGINT", "the signal logged")


if __name__ == "__main__":
    main("SIGTERM and SIGINT while targeting serve works", [
        ("SIGTERM under load: in-flight answered, exit 0 within 11 s, no non-2xx", stop_under_load),
        ("SIGINT with an idle keep-alive connection", interrupt_when_idle),
    ])
