"""Every route and every error status of `targeting serve`, asked with `curl`.

Answers are compared with what `targeting resolve` prints for the same profiles (decisions,
explanations, the message of an invalid profile), never with hard-coded decisions.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from serve_support import (PROFILES, Connection, Response, Server, check, equal, example_profiles, main, metric,
                           request_bytes, resolve_json, run)

NOW = "2026-11-29T12:00:00Z"


def curl(port: int, path: str, *options: str, data: bytes | str | None = None, method: str | None = None,
         headers: dict[str, str] | None = None) -> Response:
    """One request with curl; the answer's status, headers and body."""
    with tempfile.TemporaryDirectory() as scratch:
        head_file, body_file = Path(scratch) / "head", Path(scratch) / "body"
        command = ["curl", "-sS", "--max-time", "30", "-D", str(head_file), "-o", str(body_file),
                   "-w", "%{http_code}", *options]
        if method:
            command += ["-X", method]
        for name, value in (headers or {}).items():
            command += ["-H", f"{name}: {value}"]
        if data is not None:
            body_path = Path(scratch) / "request"
            body_path.write_bytes(data.encode() if isinstance(data, str) else data)
            command += ["-H", "Content-Type: application/json", "--data-binary", f"@{body_path}"]
        command.append(f"http://127.0.0.1:{port}{path}")
        done = subprocess.run(command, capture_output=True, timeout=60)
        check(done.returncode == 0, f"curl {path} failed ({done.returncode}): {done.stderr.decode()}")
        blocks = head_file.read_bytes().decode("latin-1").split("\r\n\r\n")
        final = [block for block in blocks if block.strip()][-1].split("\r\n")  # after any 100 Continue
        headers_seen = []
        for line in final[1:]:
            name, _, value = line.partition(":")
            headers_seen.append((name.strip(), value.strip()))
        status = int(done.stdout.decode())
        equal(int(final[0].split(" ")[1]), status, "curl's status and the status line")
        return Response(status, final[0].split(" ", 2)[-1], headers_seen, body_file.read_bytes() if body_file.exists() else b"")


def error_of(response: Response, status: int, code: str, what: str) -> str:
    equal(response.status, status, f"{what} status")
    equal(response.header("Content-Type"), "application/json", f"{what} Content-Type")
    body = response.json()
    equal(sorted(body), ["error"], f"{what} body members")
    equal(body["error"]["code"], code, f"{what} error code")
    check(isinstance(body["error"]["message"], str) and body["error"]["message"], f"{what}: no message")
    return body["error"]["message"]


def explain_blocks(binary: str, profile: Path, now: str) -> list[list[str]]:
    """`resolve --all --explain` of one profile, one block of lines per placement."""
    done = run(binary, "resolve", "--all", "--profile", str(profile), "--explain", "--now", now)
    equal(done.returncode, 0, f"resolve --explain status ({done.stderr.decode()})")
    blocks: list[list[str]] = []
    for line in done.stdout.decode().splitlines():
        if not line.startswith(" "):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def resolve_route(args) -> None:
    with Server(args.bin) as server, tempfile.TemporaryDirectory() as scratch:
        port = server.port
        placements = server.listening["placements"]
        for index, profile in enumerate(example_profiles()):
            path = Path(scratch) / f"p{index}.json"
            path.write_text(json.dumps(profile))
            # At a given time, every placement.
            response = curl(port, "/v1/resolve", data=json.dumps({"profile": profile, "now": NOW}))
            equal(response.status, 200, f"/v1/resolve {profile['id']}")
            equal(response.header("Content-Type"), "application/json", "/v1/resolve Content-Type")
            equal(response.json(), {"rules": server.version,
                                    "decisions": resolve_json(args.bin, path, "--now", NOW, single=True)},
                  f"/v1/resolve {profile['id']} at {NOW}")
            # At the server's clock, against resolve's clock.
            response = curl(port, "/v1/resolve", data=json.dumps({"profile": profile}))
            equal(response.json()["decisions"], resolve_json(args.bin, path, single=True), f"/v1/resolve {profile['id']} now")
            # Some placements, in the order asked, with explanations.
            asked = list(reversed(placements[1:]))
            response = curl(port, "/v1/resolve", data=json.dumps({"profile": profile, "placements": asked,
                                                                  "now": NOW, "explain": True}))
            equal(response.status, 200, "/v1/resolve with explain")
            decisions = response.json()["decisions"]
            equal([d["placement"] for d in decisions], asked, "placements answered")
            blocks = {block[0].split(" ")[1].rstrip(":"): block for block in explain_blocks(args.bin, path, NOW)}
            reference = {d["placement"]: d for d in resolve_json(args.bin, path, "--now", NOW, single=True)}
            for decision in decisions:
                explanation = decision.pop("explanation")
                equal(decision, reference[decision["placement"]], "a decision with its explanation left out")
                equal(explanation, blocks[decision["placement"]], f"explanation of {profile['id']} {decision['placement']}")


def resolve_errors(args) -> None:
    with Server(args.bin) as server:
        port = server.port
        error_of(curl(port, "/v1/resolve", data="{\"profile\": "), 400, "invalid_json", "truncated JSON")
        error_of(curl(port, "/v1/resolve", data="[1, 2]"), 400, "invalid_request", "a body that is not an object")
        message = error_of(curl(port, "/v1/resolve", data=json.dumps({"profile": {"id": "u1"}, "explian": True})),
                           400, "invalid_request", "unknown member")
        check("explian" in message, f"the unknown member is not named: {message!r}")
        error_of(curl(port, "/v1/resolve", data=json.dumps({"placements": ["main_paywall"]})),
                 400, "invalid_request", "no profile")
        error_of(curl(port, "/v1/resolve", data=json.dumps({"profile": {"id": "u1"}, "now": "someday"})),
                 400, "invalid_request", "an invalid now")
        message = error_of(curl(port, "/v1/resolve", data=json.dumps({"profile": {"id": "u1"}, "placements": ["main_paywal"]})),
                           404, "unknown_placement", "unknown placement")
        check("main_paywal" in message, f"unknown placement message {message!r}")
        # An invalid profile: the message is the one `resolve --profile` prints.
        for profile in ({"id": "u1", "custom_attributes": {"bio": "x" * 60}},
                        {"id": "u1", "custom_attributes": {f"a{i}": i for i in range(40)}},
                        {"id": "u1", "custom_attributes": {"plan": {"tier": 1}}}):
            message = error_of(curl(port, "/v1/resolve", data=json.dumps({"profile": profile})), 422, "invalid_profile",
                               f"invalid profile {json.dumps(profile)[:60]}")
            done = run(args.bin, "resolve", "--all", "--profile", "-", stdin=json.dumps(profile).encode())
            equal(done.returncode, 2, "resolve's status for an invalid profile")
            check(message in done.stderr.decode(), f"422 message {message!r} is not what resolve says: {done.stderr.decode()!r}")


def store_route(args) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        store = Path(scratch) / "profiles.jsonl"
        store.write_text("".join(json.dumps(profile) + "\n" for profile in example_profiles()[:-2]))
        with Server(args.bin, "--store", str(store)) as server:
            port = server.port
            equal(server.listening.get("profiles"), len(example_profiles()) - 2, "profiles the listening line counts")
            reference = resolve_json(args.bin, store, "--now", NOW)
            for profile in example_profiles()[:-2]:
                response = curl(port, f"/v1/profiles/{profile['id']}/decisions?now={NOW}")
                equal(response.status, 200, f"/v1/profiles/{profile['id']}/decisions")
                equal(response.json(), {"rules": server.version,
                                        "decisions": [d for d in reference if d["profile_id"] == profile["id"]]},
                      f"stored decisions of {profile['id']}")
            response = curl(port, f"/v1/profiles/u_pro_adult/decisions?placement=coaching_paywall&placement=main_paywall&now={NOW}")
            equal([d["placement"] for d in response.json()["decisions"]], ["coaching_paywall", "main_paywall"], "placements asked")
            response = curl(port, "/v1/profiles/u_pro_adult/decisions")
            done = run(args.bin, "resolve", "--all", "--store", str(store), "--id", "u_pro_adult", "--format", "json")
            equal(response.json()["decisions"], [json.loads(line) for line in done.stdout.decode().splitlines()],
                  "stored decisions at the server's clock")
            response = curl(port, "/v1/profiles/u%5Fpro%5Fadult/decisions?placement=main%5Fpaywall")
            equal(response.status, 200, "a percent-encoded id and placement")
            equal(response.json()["decisions"][0]["profile_id"], "u_pro_adult", "the decoded id")
            message = error_of(curl(port, "/v1/profiles/u_nobody/decisions"), 404, "unknown_profile", "unknown id")
            check("u_nobody" in message, f"unknown id message {message!r}")
            error_of(curl(port, "/v1/profiles/u_pro_adult/decisions?placement=nope"), 404, "unknown_placement", "stored, unknown placement")
            error_of(curl(port, "/v1/profiles/u_pro_adult/decisions?now=yesterday"), 400, "invalid_request", "stored, bad now")
            error_of(curl(port, "/v1/profiles/u_pro_adult/decisions?colour=red"), 400, "invalid_request", "unknown query parameter")
            # The store is read again when it changes.
            store.write_text(store.read_text() + json.dumps({"id": "u_late", "country": "US"}) + "\n")
            server.wait_for_event("store_applied", count=2, timeout=10)
            equal(curl(port, "/v1/profiles/u_late/decisions").status, 200, "a profile added to the store")
    with Server(args.bin) as server:
        error_of(curl(server.port, "/v1/profiles/u_pro_adult/decisions"), 404, "no_store", "decisions without --store")


def ofrep_routes(args) -> None:
    with Server(args.bin) as server:
        port = server.port
        context = {"context": {"targetingKey": "u_pro_adult", "birthday": "1990-06-15", "country": "US",
                               "app_version": "4.3.1", "experience": "pro", "weekly_hours": 12}}
        single = curl(port, "/ofrep/v1/evaluate/flags/main_paywall", data=json.dumps(context))
        equal(single.status, 200, "OFREP single")
        flag = single.json()
        equal((flag["key"], flag["metadata"]["rules"]), ("main_paywall", server.version), "OFREP single key and rules")
        bulk = curl(port, "/ofrep/v1/evaluate/flags", data=json.dumps(context))
        equal(bulk.status, 200, "OFREP bulk")
        etag = bulk.header("ETag")
        check(etag.startswith(f'"{server.version}-') and len(etag) == len(server.version) + 11, f"OFREP bulk ETag {etag} names the version")
        equal([f["key"] for f in bulk.json()["flags"]], server.listening["placements"], "bulk flags")
        equal(next(f for f in bulk.json()["flags"] if f["key"] == "main_paywall"), flag, "bulk and single agree")
        cached = curl(port, "/ofrep/v1/evaluate/flags", data=json.dumps(context), headers={"If-None-Match": etag})
        equal((cached.status, cached.body, cached.header("ETag")), (304, b"", etag), "OFREP bulk 304")
        missing = curl(port, "/ofrep/v1/evaluate/flags/nope", data=json.dumps(context))
        equal((missing.status, missing.json()["errorCode"]), (404, "FLAG_NOT_FOUND"), "OFREP unknown flag")
        bad = curl(port, "/ofrep/v1/evaluate/flags/main_paywall", data="{")
        equal((bad.status, bad.json()["errorCode"]), (400, "PARSE_ERROR"), "OFREP bad JSON")
        bad = curl(port, "/ofrep/v1/evaluate/flags/main_paywall", data=json.dumps({"context": {"targetingKey": "u1", "bio": "y" * 51}}))
        equal((bad.status, bad.json()["errorCode"]), (400, "INVALID_CONTEXT"), "OFREP invalid context")
        empty = curl(port, "/ofrep/v1/evaluate/flags/main_paywall", data="{}")
        equal(empty.status, 200, "OFREP without a context")


def operations(args) -> None:
    with Server(args.bin) as server:
        port = server.port
        health = curl(port, "/healthz")
        equal((health.status, health.json()), (200, {"status": "ok"}), "/healthz")
        ready = curl(port, "/readyz")
        equal((ready.status, ready.json()), (200, {"status": "ready", "rules": server.version}), "/readyz")
        before = curl(port, "/metrics")
        equal(before.status, 200, "/metrics status")
        check((before.header("Content-Type") or "").startswith("text/plain"), f"/metrics Content-Type {before.header('Content-Type')}")
        text = before.body.decode()
        for family, kind in (("targeting_http_requests_total", "counter"),
                             ("targeting_http_request_duration_seconds", "histogram"),
                             ("targeting_decisions_total", "counter"), ("targeting_reloads_total", "counter"),
                             ("targeting_rules_info", "gauge"), ("targeting_open_connections", "gauge"),
                             ("targeting_refused_connections_total", "counter")):
            check(f"# TYPE {family} {kind}" in text, f"/metrics has no {kind} {family}")
        equal(metric(text, "targeting_rules_info", version=server.version), 1.0, "targeting_rules_info")
        resolved = metric(text, "targeting_http_requests_total", route="/v1/resolve", status="200")
        durations = metric(text, "targeting_http_request_duration_seconds_count", route="/v1/resolve")
        decided = metric(text, "targeting_decisions_total", placement="main_paywall", destination="paywall:pw_standard")
        for _ in range(3):
            equal(curl(port, "/v1/resolve", data=json.dumps({"profile": json.loads((PROFILES / "base.json").read_text()),
                                                             "placements": ["main_paywall"], "now": NOW})).status, 200, "resolve")
        equal(curl(port, "/v1/resolve", data="{").status, 400, "a bad request counted")
        after = curl(port, "/metrics").body.decode()
        equal(metric(after, "targeting_http_requests_total", route="/v1/resolve", status="200"), resolved + 3, "requests counted")
        equal(metric(after, "targeting_http_requests_total", route="/v1/resolve", status="400"), 1.0, "400s counted")
        equal(metric(after, "targeting_http_request_duration_seconds_count", route="/v1/resolve"), durations + 4, "latencies counted")
        equal(metric(after, "targeting_http_request_duration_seconds_bucket", route="/v1/resolve", le="+Inf"), durations + 4, "+Inf bucket")
        equal(metric(after, "targeting_decisions_total", placement="main_paywall", destination="paywall:pw_standard"),
              decided + 3, "decisions counted")
        check(metric(after, "targeting_open_connections") >= 1, "the connection asking is open")
        # HEAD on every GET route: the GET's headers, no body (the next answer on the same
        # connection starts right after the head).
        connection = Connection(port)
        try:
            for path in ("/healthz", "/readyz", "/metrics"):
                got = curl(port, path)
                head = curl(port, path, "--head")
                equal(head.status, 200, f"HEAD {path}")
                equal(head.header("Content-Type"), got.header("Content-Type"), f"HEAD {path} Content-Type")
                if path != "/metrics":  # the metrics grow between the two requests
                    equal(head.header("Content-Length"), str(len(got.body)), f"HEAD {path} Content-Length")
                raw = connection.exchange(request_bytes("HEAD", path), head=True)
                equal(raw.status, 200, f"HEAD {path} on a kept connection")
                after = connection.exchange(request_bytes("GET", "/healthz"))
                equal((after.status, after.json()), (200, {"status": "ok"}), f"the answer after HEAD {path}")
        finally:
            connection.close()
        # Wrong methods, unknown routes.
        for path, method, allowed in (("/v1/resolve", "GET", "POST"), ("/v1/resolve", "DELETE", "POST"),
                                      ("/healthz", "POST", None), ("/metrics", "PUT", None),
                                      ("/ofrep/v1/evaluate/flags/main_paywall", "GET", "POST"),
                                      ("/ofrep/v1/evaluate/flags", "PATCH", "POST")):
            response = curl(port, path, method=method, data="{}" if method != "GET" else None)
            error_of(response, 405, "method_not_allowed", f"{method} {path}")
            allow = response.header("Allow") or ""
            check(allowed is None and "GET" in allow or allow == allowed, f"{method} {path} Allow: {allow!r}")
        for path in ("/", "/v2/resolve", "/v1/resolve/x", "/v1/profiles", "/ofrep/v1/evaluate", "/healthz/x"):
            error_of(curl(port, path), 404, "not_found", f"GET {path}")
        # 413 from Content-Length, 431 for a huge header.
        response = curl(port, "/v1/resolve", "-H", "Expect:", data=b"{" + b" " * (1024 * 1024 + 10) + b"}")
        error_of(response, 413, "payload_too_large", "a body over 1 MiB")
        response = curl(port, "/healthz", headers={"X-Padding": "a" * (17 * 1024)})
        equal(response.status, 431, "a 17 KiB header")
        check(server.alive(), "the server died")
        equal(curl(port, "/healthz").status, 200, "still healthy")


def authentication(args) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        token_file = Path(scratch) / "token"
        token_file.write_text("s3cret-token\n")
        with Server(args.bin, "--token-file", str(token_file)) as server:
            port = server.port
            body = json.dumps({"profile": {"id": "u1"}})
            for headers, what in (({}, "no token"), ({"Authorization": "Bearer wrong-token"}, "a wrong token"),
                                  ({"Authorization": "Bearer s3cret-token-"}, "a longer token"),
                                  ({"Authorization": "Basic s3cret-token"}, "another scheme")):
                response = curl(port, "/v1/resolve", data=body, headers=headers)
                error_of(response, 401, "unauthorized", f"/v1/resolve with {what}")
                check((response.header("WWW-Authenticate") or "").startswith("Bearer"), "WWW-Authenticate")
                for path in ("/readyz", "/metrics"):
                    equal(curl(port, path, headers=headers).status, 401, f"{path} with {what}")
                equal(curl(port, "/ofrep/v1/evaluate/flags/main_paywall", data="{}", headers=headers).status, 401,
                      f"OFREP with {what}")
            good = {"Authorization": "Bearer s3cret-token"}
            equal(curl(port, "/v1/resolve", data=body, headers=good).status, 200, "/v1/resolve with the token")
            equal(curl(port, "/readyz", headers=good).status, 200, "/readyz with the token")
            equal(curl(port, "/healthz").status, 200, "/healthz needs no token")
            # A new token is read when the file changes.
            token_file.write_text("another-token-value\n")
            server.wait_for_event("token_applied", timeout=10)
            equal(curl(port, "/readyz", headers=good).status, 401, "the old token after a change")
            equal(curl(port, "/readyz", headers={"Authorization": "Bearer another-token-value"}).status, 200, "the new token")


if __name__ == "__main__":
    main("every route and error status of targeting serve, through curl", [
        ("POST /v1/resolve: decisions and explanations equal resolve's", resolve_route),
        ("POST /v1/resolve errors: 400 invalid_json/invalid_request, 404, 422 as resolve words it", resolve_errors),
        ("GET /v1/profiles/{id}/decisions with --store", store_route),
        ("OFREP single, bulk, 304 and errors", ofrep_routes),
        ("/healthz, /readyz, /metrics, HEAD, 405, 404, 413, 431", operations),
        ("--token-file: 401 without or with a wrong token, 200 with it, /healthz open", authentication),
    ])
