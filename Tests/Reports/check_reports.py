"""Checks the documents of `targeting check --format sarif` and `targeting test --format junit`.

    check_reports.py sarif FILE [--errors N] [--warnings N] [--result CODE:LINE:COL:END_LINE:END_COL]...
                               [--relative | --absolute]
    check_reports.py junit FILE --tests N --failures N --errors N [--suites N] [--name TEXT]...

A SARIF log is read by sarif-pydantic's model of SARIF 2.1.0 (`Sarif.model_validate_json`).
That model accepts any property it does not know, so every model in the tree is also checked
for unknown properties, and the constraints of SARIF 2.1.0 the model does not encode (the
version, levels, 1-based positions, rule references, a base for relative URIs) are checked
here. A JUnit document is parsed with the standard library's xml.etree.ElementTree and its
counts are checked against its elements and the expected numbers.

Exits 1 with a message on the first problem.
"""

import argparse
import json
import sys
import xml.etree.ElementTree as ET

# Properties SARIF 2.1.0 defines that sarif-pydantic's models lack (so they land in
# `model_extra`): run.columnKind (SARIF 2.1.0 section 3.14.17).
KNOWN_MISSING = {"Run": {"columnKind"}}


def fail(message):
    print(f"check_reports: {message}", file=sys.stderr)
    sys.exit(1)


def unknown_properties(model, path="log"):
    """Yields `path: name` for each property no model of the tree declares."""
    from pydantic import BaseModel

    extra = set(model.model_extra or {}) - KNOWN_MISSING.get(type(model).__name__, set())
    for name in sorted(extra):
        yield f"{path}.{name}"
    for name in type(model).model_fields:
        value = getattr(model, name)
        values = value if isinstance(value, list) else [value]
        for index, item in enumerate(values):
            if isinstance(item, BaseModel):
                where = f"{path}.{name}" + (f"[{index}]" if isinstance(value, list) else "")
                yield from unknown_properties(item, where)


def check_sarif(args):
    from sarif_pydantic import Sarif

    text = open(args.file, encoding="utf-8").read()
    try:
        log = Sarif.model_validate_json(text)
    except Exception as error:  # pydantic.ValidationError, or not JSON at all
        fail(f"{args.file}: not a SARIF log: {error}")
    raw = json.loads(text)
    unknown = list(unknown_properties(log))
    if unknown:
        fail(f"{args.file}: properties SARIF 2.1.0 does not define: {', '.join(unknown)}")
    if raw.get("version") != "2.1.0":
        fail(f"{args.file}: version is {raw.get('version')!r}, not '2.1.0'")
    if raw.get("$schema") != "https://json.schemastore.org/sarif-2.1.0.json":
        fail(f"{args.file}: $schema is {raw.get('$schema')!r}")
    if len(log.runs) != 1:
        fail(f"{args.file}: {len(log.runs)} runs, not 1")
    run = log.runs[0]
    driver = run.tool.driver
    if driver.name != "targeting":
        fail(f"{args.file}: tool.driver.name is {driver.name!r}")
    if run.results is None:
        fail(f"{args.file}: no results array")
    rules = driver.rules or []
    ids = [rule.id for rule in rules]
    if len(set(ids)) != len(ids):
        fail(f"{args.file}: rule ids repeat: {ids}")
    for rule in rules:
        if not rule.id or rule.short_description is None or not rule.short_description.text:
            fail(f"{args.file}: rule {rule.id!r} has no id or shortDescription.text")
    used = set()
    counts = {"error": 0, "warning": 0, "note": 0}
    found = []
    for index, result in enumerate(run.results):
        where = f"{args.file}: results[{index}]"
        if result.rule_id not in ids:
            fail(f"{where}: ruleId {result.rule_id!r} is not among the rules")
        if result.rule_index is not None and ids[result.rule_index] != result.rule_id:
            fail(f"{where}: ruleIndex {result.rule_index} is not rule {result.rule_id!r}")
        used.add(result.rule_id)
        if result.level is None:
            fail(f"{where}: no level")
        counts[result.level.value] += 1
        if not result.message.text:
            fail(f"{where}: no message.text")
        for location in result.locations or []:
            physical = location.physical_location
            if physical is None or physical.artifact_location is None or not physical.artifact_location.uri:
                fail(f"{where}: a location without physicalLocation.artifactLocation.uri")
            artifact = physical.artifact_location
            relative = not artifact.uri.startswith("file://")
            if relative and artifact.uri_base_id != "%SRCROOT%":
                fail(f"{where}: relative uri {artifact.uri!r} without uriBaseId %SRCROOT%")
            if not relative and artifact.uri_base_id is not None:
                fail(f"{where}: absolute uri {artifact.uri!r} with a uriBaseId")
            if args.relative and not relative or args.absolute and relative:
                fail(f"{where}: uri {artifact.uri!r} is not {'relative' if args.relative else 'absolute'}")
            region = physical.region
            if region is not None:
                for name in ("start_line", "start_column", "end_line", "end_column"):
                    value = getattr(region, name)
                    if value is not None and value < 1:
                        fail(f"{where}: region.{name} is {value}")
                if region.start_line is None:
                    fail(f"{where}: a region without startLine")
                if region.end_line is not None and (region.end_line, region.end_column or 0) < (region.start_line, region.start_column or 0):
                    fail(f"{where}: region ends before it starts")
                found.append(f"{result.rule_id}:{region.start_line}:{region.start_column}:{region.end_line}:{region.end_column}")
    if used != set(ids):
        fail(f"{args.file}: rules no result uses: {sorted(set(ids) - used)}")
    for level, expected in (("error", args.errors), ("warning", args.warnings)):
        if expected is not None and counts[level] != expected:
            fail(f"{args.file}: {counts[level]} results of level {level}, expected {expected}")
    for expected in args.result:
        if expected not in found:
            fail(f"{args.file}: no result {expected}; found {found}")
    print(f"{args.file}: valid SARIF 2.1.0 (sarif-pydantic), {len(run.results)} results "
          f"({counts['error']} errors, {counts['warning']} warnings, {counts['note']} notes), {len(rules)} rules")


def check_junit(args):
    try:
        root = ET.parse(args.file).getroot()
    except ET.ParseError as error:
        fail(f"{args.file}: not XML: {error}")
    if root.tag != "testsuites" or root.get("name") != "targeting":
        fail(f"{args.file}: root is <{root.tag} name={root.get('name')!r}>, not <testsuites name='targeting'>")

    def count(element, name):
        value = element.get(name)
        if value is None or not value.isdigit():
            fail(f"{args.file}: <{element.tag} name={element.get('name')!r}> has {name}={value!r}")
        return int(value)

    totals = {"tests": 0, "failures": 0, "errors": 0}
    suites = root.findall("testsuite")
    names = []
    for suite in suites:
        cases = suite.findall("testcase")
        seen = {
            "tests": len(cases),
            "failures": sum(1 for case in cases if case.find("failure") is not None),
            "errors": sum(1 for case in cases if case.find("error") is not None),
        }
        for name, value in seen.items():
            if count(suite, name) != value:
                fail(f"{args.file}: suite {suite.get('name')!r} says {name}={suite.get(name)}, its elements {value}")
            totals[name] += value
        count(suite, "skipped")
        for case in cases:
            for attribute in ("name", "classname", "file", "line"):
                if not case.get(attribute):
                    fail(f"{args.file}: a testcase in {suite.get('name')!r} without {attribute}")
            if case.get("classname") != suite.get("name") or case.get("file") != suite.get("name"):
                fail(f"{args.file}: testcase {case.get('name')!r} names another file than its suite")
            for outcome in list(case.findall("failure")) + list(case.findall("error")):
                if not outcome.get("message") or not (outcome.text or "").strip():
                    fail(f"{args.file}: <{outcome.tag}> of {case.get('name')!r} without a message or text")
            names.append(case.get("name"))
    for name, value in totals.items():
        if count(root, name) != value:
            fail(f"{args.file}: <testsuites> says {name}={root.get(name)}, its suites {value}")
    for name in ("tests", "failures", "errors"):
        expected = getattr(args, name)
        if totals[name] != expected:
            fail(f"{args.file}: {totals[name]} {name}, expected {expected}")
    if args.suites is not None and len(suites) != args.suites:
        fail(f"{args.file}: {len(suites)} testsuites, expected {args.suites}")
    for name in args.name:
        if name not in names:
            fail(f"{args.file}: no testcase named {name!r}; found {names}")
    print(f"{args.file}: JUnit XML (xml.etree), {len(suites)} suites, {totals['tests']} tests, "
          f"{totals['failures']} failures, {totals['errors']} errors")


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    sarif = commands.add_parser("sarif")
    sarif.add_argument("file")
    sarif.add_argument("--errors", type=int)
    sarif.add_argument("--warnings", type=int)
    sarif.add_argument("--result", action="append", default=[])
    where = sarif.add_mutually_exclusive_group()
    where.add_argument("--relative", action="store_true")
    where.add_argument("--absolute", action="store_true")
    junit = commands.add_parser("junit")
    junit.add_argument("file")
    junit.add_argument("--tests", type=int, required=True)
    junit.add_argument("--failures", type=int, required=True)
    junit.add_argument("--errors", type=int, required=True)
    junit.add_argument("--suites", type=int)
    junit.add_argument("--name", action="append", default=[])
    args = parser.parse_args()
    if args.command == "sarif":
        check_sarif(args)
    else:
        check_junit(args)


if __name__ == "__main__":
    main()
