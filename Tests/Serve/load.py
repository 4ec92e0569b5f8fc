"""Load on `targeting serve` with wrk, first on fixed rules, then while the rules change under it.

The rules change five times (each change written beside the file and renamed over it); one of
the five has a `check` error and must never be served. Answers are collected by wrk's Lua
`response` callback (every answer's status and rules version) and by a Python client asking
in a loop, whose answers must each come wholly from one valid version.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from serve_support import (PROFILES, Connection, Server, check, copy_rules, equal, http, main,
                           readyz_version, replace_atomically, request_bytes, run)

LUA = Path(__file__).resolve().parent / "resolve.lua"
TYPICAL = PROFILES / "pro_adult.json"


def start_wrk(args, port: int, seconds: int) -> subprocess.Popen:
    command = [args.wrk, "-t2", "-c64", f"-d{seconds}s", "--latency", "-s", str(LUA), f"http://127.0.0.1:{port}/"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "TARGETING_WRK_PROFILE": str(TYPICAL)})


class WrkResult:
    def __init__(self, output: str):
        self.output = output
        found = re.search(r"(\d+) requests in", output)
        check(found is not None, f"no request count in wrk's output:\n{output}")
        self.requests = int(found.group(1))
        self.statuses = {int(s): int(n) for s, n in re.findall(r"^status (\d+) (\d+)$", output, re.M)}
        self.versions = {v: int(n) for v, n in re.findall(r"^rules ([0-9a-f]+) (\d+)$", output, re.M)}
        rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
        self.rate = float(rate.group(1)) if rate else 0.0

    def assert_clean(self, what: str) -> None:
        socket_errors = re.search(r"Socket errors:.*", self.output)
        check(socket_errors is None, f"{what}: wrk saw {socket_errors.group(0) if socket_errors else ''}\n{self.output}")
        non2xx = re.search(r"Non-2xx or 3xx responses: \d+", self.output)
        check(non2xx is None, f"{what}: wrk saw {non2xx.group(0) if non2xx else ''}\n{self.output}")
        check(self.requests > 1000, f"{what}: only {self.requests} requests")
        equal(set(self.statuses), {200}, f"{what}: statuses the Lua script counted")
        equal(sum(self.statuses.values()), self.requests, f"{what}: answers the Lua script counted")
        equal(sum(self.versions.values()), self.requests, f"{what}: answers naming a rules version")


def finish_wrk(process: subprocess.Popen, timeout: float) -> WrkResult:
    stdout, stderr = process.communicate(timeout=timeout)
    check(process.returncode == 0, f"wrk failed ({process.returncode}): {stderr.decode()}")
    return WrkResult(stdout.decode())


def steady_load(args) -> None:
    with Server(args.bin) as server:
        result = finish_wrk(start_wrk(args, server.port, 20), timeout=60)
        result.assert_clean("20 s at 64 connections")
        equal(set(result.versions), {server.version}, "rules versions answered")
        check(server.alive(), "the server died under load")
        equal(http(server.port, "GET", "/healthz").status, 200, "healthy after the load")
        print(f"     {result.requests} requests, {result.rate:.0f}/s, every one 200")


class Hammer(threading.Thread):
    """A keep-alive client asking /v1/resolve for `main_paywall` of u_base in a loop,
    recording each answer's status, rules version and destination."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.stop = threading.Event()
        self.answers: list[tuple[float, int, str | None, str | None]] = []
        self.error: Exception | None = None
        profile = json.loads((PROFILES / "base.json").read_text())
        self.request = request_bytes("POST", "/v1/resolve", {"profile": profile, "placements": ["main_paywall"]})

    def run(self) -> None:
        connection = Connection(self.port)
        try:
            while not self.stop.is_set():
                response = connection.exchange(self.request)
                if response.status == 200:
                    body = response.json()
                    self.answers.append((time.monotonic(), 200, body["rules"], body["decisions"][0]["id"]))
                else:
                    self.answers.append((time.monotonic(), response.status, None, None))
        except Exception as error:
            self.error = error
        finally:
            connection.close()


# The `everyone` row of main_paywall, which u_base reaches; each version sends it elsewhere.
EVERYONE_ROW = 'everyone                 -> paywall "pw_standard"'


def reload_under_load(args) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        rules = copy_rules(Path(scratch))
        placements_file = rules / "placements.rules"
        original = placements_file.read_text()
        check(original.count(EVERYONE_ROW) == 1, f"placements.rules has no line `{EVERYONE_ROW}`")
        # Five versions: the third refers to a segment that does not exist.
        texts = []
        for number in range(1, 6):
            text = original.replace(EVERYONE_ROW, EVERYONE_ROW.replace('"pw_standard"', f'"pw_standard_{number}"'))
            if number == 3:
                text += "\naudience broken_audience = no_such_segment_anywhere\n"
            texts.append(text)
        # The third version must fail `check`, the others pass it.
        for number, text in enumerate(texts, start=1):
            trial = copy_rules(Path(scratch) / f"trial{number}")
            (trial / "placements.rules").write_text(text)
            done = run(args.bin, "check", str(trial))
            check((done.returncode != 0) == (number == 3),
                  f"check of version {number}: status {done.returncode}: {done.stdout.decode()}{done.stderr.decode()}")
        with Server(args.bin, "--reload-interval", "200ms", rules=rules) as server:
            first = server.version
            destinations = {first: "pw_standard"}
            hammer = Hammer(server.port)
            hammer.start()
            wrk = start_wrk(args, server.port, 16)
            time.sleep(1.5)
            applied_expected, last_valid = 0, first
            for number, text in enumerate(texts, start=1):
                replace_atomically(placements_file, text)
                if number == 3:
                    rejected = server.wait_for_event("rules_rejected", count=1, timeout=10)[-1]
                    equal(rejected.get("rules"), last_valid, "the version a rejection keeps")
                    check(any("no_such_segment_anywhere" in json.dumps(d) for d in rejected.get("diagnostics", [])),
                          f"the rejection does not name the unknown segment: {rejected}")
                    time.sleep(0.6)  # several reload intervals: the broken file is still there
                    equal(readyz_version(server.port), last_valid, "the version served after a broken change")
                else:
                    applied_expected += 1
                    entry = server.wait_for_event("rules_applied", count=applied_expected, timeout=10)[-1]
                    equal(entry.get("previous"), last_valid, "the version a change replaced")
                    last_valid = entry["rules"]
                    check(last_valid not in destinations, f"version {last_valid} seen twice")
                    destinations[last_valid] = f"pw_standard_{number}"
                    equal(readyz_version(server.port), last_valid, f"/readyz after change {number}")
                time.sleep(1.8)
            result = finish_wrk(wrk, timeout=60)
            hammer.stop.set()
            hammer.join(timeout=20)
            check(hammer.error is None, f"the looping client failed: {hammer.error!r}")

            result.assert_clean("wrk while the rules changed")
            check(set(result.versions) <= set(destinations),
                  f"wrk saw versions {sorted(set(result.versions) - set(destinations))} that were never valid")
            check(len(result.versions) >= 3, f"wrk saw only versions {result.versions}")
            check(len(hammer.answers) > 100, f"the looping client got only {len(hammer.answers)} answers")
            bad = [a for a in hammer.answers if a[1] != 200]
            check(not bad, f"{len(bad)} failed answers, first {bad[:3]}")
            for _, _, version, destination in hammer.answers:
                check(version in destinations, f"an answer from version {version}, never valid")
                equal(destination, destinations[version], f"the destination of an answer from version {version}")
            check(all(a[3] != "pw_standard_3" for a in hammer.answers), "the broken version's destination was answered")
            # Versions follow each other in the order they were applied, never back.
            order = list(destinations)
            positions = [order.index(a[2]) for a in hammer.answers]
            equal(positions, sorted(positions), "versions in the order they were applied")
            equal(set(positions), set(range(len(order))), "every valid version was answered from")
            equal(hammer.answers[-1][2], last_valid, "the version answered at the end")
            equal(readyz_version(server.port), last_valid, "the final version")
            equal(len(server.events("rules_rejected")), 1, "rules_rejected log lines")
            equal(len(server.events("rules_applied")), 4, "rules_applied log lines")
            metrics = http(server.port, "GET", "/metrics").body.decode()
            check('targeting_reloads_total{result="applied"} 4' in metrics, "applied reloads in /metrics")
            check('targeting_reloads_total{result="rejected"} 1' in metrics, "rejected reloads in /metrics")
            check(f'targeting_rules_info{{version="{last_valid}"}} 1' in metrics, "the version in /metrics")
            print(f"     wrk {result.requests} requests over {len(result.versions)} versions, "
                  f"looping client {len(hammer.answers)} answers over {len(set(positions))} versions, none failed")


if __name__ == "__main__":
    main("wrk load on targeting serve, steady and while the rules change", [
        ("64 connections for 20 s: no socket errors, every answer 200", steady_load),
        ("the same load while the rules change five times (one broken)", reload_under_load),
    ])
