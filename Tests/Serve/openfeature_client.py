"""The OpenFeature Python SDK with its OFREP provider against `targeting serve`.

Every example profile (each line of Examples/profiles/all.jsonl, base.json, pro_adult.json) is
asked for every placement through `client.get_string_details`, and each answer must be the one
`targeting resolve --all --format json` gives for that profile at (nearly) the same time, in
OpenFeature's words. The bulk endpoint is checked over plain HTTP (the same flags, ETag, 304),
and the SDK's error paths (unknown flag, invalid context, missing targeting key).
"""

from __future__ import annotations

import json
import re

from openfeature import api
from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import ErrorCode
from openfeature.flag_evaluation import Reason
from openfeature.contrib.provider.ofrep import OFREPProvider

from serve_support import (Server, check, equal, example_decisions, example_profiles, http, main, run)


def context_of(profile: dict) -> EvaluationContext:
    """The profile as an OpenFeature context: id is the targeting key, every top-level field
    (id too) and each custom attribute (flattened) is an attribute."""
    attributes = {key: value for key, value in profile.items() if key != "custom_attributes"}
    attributes.update(profile.get("custom_attributes", {}))
    return EvaluationContext(profile.get("id"), attributes)


def ofrep_of(decision: dict, version: str) -> dict:
    """What the OFREP answer for one `resolve --format json` decision must be."""
    if decision["audience"] is None:
        value, variant, kind = "", "no match", "no match"
    elif decision["kind"] is None:
        value, variant, kind = "", "nothing", "nothing"
    else:
        value, variant, kind = decision["id"], decision["id"], decision["kind"]
    if decision.get("variant") is not None:
        variant = decision["variant"]
    if decision.get("experiment") is not None or decision.get("split") is not None:
        reason = "SPLIT"
    elif decision["audience"] in (None, "everyone"):
        reason = "DEFAULT"
    else:
        reason = "TARGETING_MATCH"
    metadata = {"kind": kind}
    if decision["audience"] is not None:
        metadata["audience"] = decision["audience"]
    if decision.get("experiment") is not None:
        metadata["experiment"] = decision["experiment"]
    metadata.update(held_out=decision.get("held_out", False), sticky=decision.get("sticky", False), rules=version)
    return {"key": decision["placement"], "value": value, "variant": variant, "reason": reason, "metadata": metadata}


def every_profile_every_placement(args) -> None:
    with Server(args.bin) as server:
        placements = server.listening["placements"]
        expected = example_decisions(args.bin)
        profiles = example_profiles()
        api.set_provider(OFREPProvider(f"http://127.0.0.1:{server.port}"))
        client = api.get_client()
        asked = 0
        kinds = set()
        for profile, decisions in zip(profiles, expected):
            by_placement = {d["placement"]: d for d in decisions}
            equal(sorted(by_placement), sorted(placements), f"placements resolve decided for {profile['id']}")
            for placement in placements:
                details = client.get_string_details(placement, "", context_of(profile))
                want = ofrep_of(by_placement[placement], server.version)
                where = f"{profile['id']} {placement}"
                check(details.error_code is None, f"{where}: error {details.error_code}: {details.error_message}")
                equal(details.flag_key, placement, f"{where} flag key")
                equal(details.value, want["value"], f"{where} value")
                equal(details.variant, want["variant"], f"{where} variant")
                equal(details.reason, Reason[want["reason"]], f"{where} reason")
                equal(dict(details.flag_metadata), want["metadata"], f"{where} metadata")
                kinds.add(want["metadata"]["kind"])
                asked += 1
        equal(asked, len(profiles) * len(placements), "evaluations made")
        # The examples must reach more than one kind of answer, or the comparison proves little.
        check({"flow", "paywall", "nothing"} <= kinds, f"the examples reach only {sorted(kinds)}")
        print(f"     {asked} evaluations ({len(profiles)} profiles x {len(placements)} placements) match resolve")


def bulk_over_http(args) -> None:
    with Server(args.bin) as server:
        expected = example_decisions(args.bin)
        tag_form = re.compile(r'^"' + server.version + r'-[0-9a-f]{8}"$')
        tags = set()
        for profile, decisions in zip(example_profiles(), expected):
            context = {"targetingKey": profile["id"], **context_of(profile).attributes}
            context.pop("id")
            response = http(server.port, "POST", "/ofrep/v1/evaluate/flags", {"context": context})
            equal(response.status, 200, f"bulk status for {profile['id']}")
            check(tag_form.match(response.header("ETag") or ""), f"bulk ETag {response.header('ETag')} names the version")
            tags.add(response.header("ETag"))
            equal(response.header("Content-Type"), "application/json", "bulk Content-Type")
            body = response.json()
            equal(body["metadata"], {"rules": server.version}, "bulk metadata")
            equal(body["flags"], [ofrep_of(d, server.version) for d in decisions],
                  f"bulk flags for {profile['id']}")
        # The tag also names the answer: profiles answered differently have different tags.
        check(len(tags) > 1, "different answers have different ETags")
        body = {"context": {"targetingKey": "u_base", "country": "DE"}}
        etag = http(server.port, "POST", "/ofrep/v1/evaluate/flags", body).header("ETag")
        for given in (etag, f"W/{etag}", f'"0000000000000000", {etag}', "*"):
            response = http(server.port, "POST", "/ofrep/v1/evaluate/flags", body, {"If-None-Match": given})
            equal(response.status, 304, f"bulk with If-None-Match {given}")
            equal(response.body, b"", "a 304's body")
            equal(response.header("ETag"), etag, "a 304's ETag")
        response = http(server.port, "POST", "/ofrep/v1/evaluate/flags", body, {"If-None-Match": '"0000000000000000"'})
        equal(response.status, 200, "bulk with a stale If-None-Match")
        # A client that keeps its tag while its context changes gets the new answer, not a 304.
        changed = {"context": {"targetingKey": "u_base", "country": "DE", "experience": "pro", "birthday": "1990-06-15"}}
        response = http(server.port, "POST", "/ofrep/v1/evaluate/flags", changed, {"If-None-Match": etag})
        equal(response.status, 200, "bulk with the tag of another context")
        check(response.header("ETag") != etag, "another answer, another ETag")
        check(len(response.json()["flags"]) == len(server.listening["placements"]), "a flag per placement")
        response = http(server.port, "POST", "/ofrep/v1/evaluate/flags", "{not json")
        equal(response.status, 400, "bulk with a body that is not JSON")
        equal(response.json()["errorCode"], "PARSE_ERROR", "bulk error code")


def errors_through_the_sdk(args) -> None:
    with Server(args.bin) as server:
        api.set_provider(OFREPProvider(f"http://127.0.0.1:{server.port}"))
        client = api.get_client()
        details = client.get_string_details("main_paywal", "fallback", EvaluationContext("u1", {"country": "US"}))
        equal(details.error_code, ErrorCode.FLAG_NOT_FOUND, "unknown flag error code")
        equal(details.value, "fallback", "unknown flag value")
        equal(details.reason, Reason.ERROR, "unknown flag reason")
        check("main_paywal" in (details.error_message or ""), f"unknown flag message {details.error_message!r}")
        check("main_paywall" in (details.error_message or ""), f"no suggestion in {details.error_message!r}")

        long_value = "x" * 60
        details = client.get_string_details("main_paywall", "fallback", EvaluationContext("u1", {"bio": long_value}))
        equal(details.error_code, ErrorCode.INVALID_CONTEXT, "too long attribute error code")
        equal(details.value, "fallback", "invalid context value")
        # The same words as `resolve --profile` for that profile.
        done = run(args.bin, "resolve", "--all", "--profile", "-",
                   stdin=json.dumps({"id": "u1", "custom_attributes": {"bio": long_value}}).encode())
        equal(done.returncode, 2, "resolve's status for a too long attribute")
        check(details.error_message in done.stderr.decode(),
              f"INVALID_CONTEXT message {details.error_message!r} not in resolve's {done.stderr.decode()!r}")

        # A split needs an id to draw; without a targeting key the flag reports so.
        details = client.get_string_details("onboarding_followup", "fallback",
                                            EvaluationContext(None, {"experience": "beginner", "interests": "sports"}))
        equal(details.error_code, ErrorCode.TARGETING_KEY_MISSING, "split without a key error code")
        equal(details.value, "fallback", "split without a key value")


if __name__ == "__main__":
    main("OpenFeature SDK (OFREP provider) against targeting serve", [
        ("every example profile, every placement, through the SDK", every_profile_every_placement),
        ("bulk evaluation over HTTP: flags, ETag, 304", bulk_over_http),
        ("SDK error paths: FLAG_NOT_FOUND, INVALID_CONTEXT, TARGETING_KEY_MISSING", errors_through_the_sdk),
    ])
