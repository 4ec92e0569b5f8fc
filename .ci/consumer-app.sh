#!/usr/bin/env bash
# Proves that an app can depend on a tagged version of Targeting, as SwiftPM users do:
# clone this repository, tag the clone, build a throwaway app package that depends on the tag
# with `from:` and calls the library API (rules from text, the input handler,
# answers applied to a profile, resolve). Also checks that the flag gate matters (forcing the
# debug optimisation flag on makes SwiftPM reject the dependency) and that the pipeline's own
# types are not visible to the app.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$repo" "$work/Targeting"
git -C "$work/Targeting" -c user.name=ci -c user.email=ci@localhost tag -a 1.0.0 -m "1.0.0"

mkdir -p "$work/App/Sources/App"
cat > "$work/App/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(url: "file://$work/Targeting", from: "1.0.0")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Targeting", package: "Targeting")])],
    swiftLanguageModes: [.v6]
)
MANIFEST

cat > "$work/App/Sources/App/main.swift" <<'SWIFT'
import Foundation
import Targeting

let rules = try RuleSet(source: """
attribute experience: string one of ["beginner", "amateur", "pro"]
input scr_quiz/experience -> experience
input birthday -> profile.birthday
segment pros = experience == "pro"
segment adults = profile.age >= 18
audience pro_adults = pros and adults
placement onboarding_followup {
  pro_adults -> flow "flow_pro_v2"
  everyone -> flow "flow_default"
}
""", fileName: "onboarding.rules")

let handler = FlowInputHandler(rules: rules, timeZone: TimeZone(identifier: "UTC")!)
handler.handle(name: "flow_user_input", params: ["instanceId": "scr_quiz", "element_id": "experience",
                                                 "element_type": "single_choice", "item_ids": ["pro"]])
handler.handle(name: "flow_user_input", params: ["element_id": "birthday", "element_type": "date_picker",
                                                 "value": 645_408_000_000])
var profile = try Profile(jsonData: Data(#"{"id":"u1"}"#.utf8))
let rejected = profile.apply(handler.flowDidDisappear())
let now = Date(timeIntervalSince1970: 1_796_040_000)
let decision = try rules.resolve("onboarding_followup", for: profile, at: now)
let why = try rules.explain("onboarding_followup", for: profile, at: now)
guard rejected.isEmpty, decision.flowID == "flow_pro_v2", decision.audience == "pro_adults",
      rules.resolveAll(for: profile, at: now).count == 1, why.description.contains("decided") else {
    print("unexpected decision: \(decision)")
    exit(1)
}
print("app: \(decision)")

// Every idiomatic way of catching the library's errors compiles, at top level and in functions,
// and sees the documented error types.
var caught: [String] = []
do {
    do { _ = try rules.resolve("onbording_followup", for: profile, at: now) } catch is ResolveError { caught.append("is") }
    do { _ = try rules.explain("nope", for: profile, at: now) } catch let error as ResolveError { caught.append("as \(error)") }
    do { _ = try RuleSet(source: "audience a = missing", fileName: "bad.rules") } catch let error as RuleSetError { caught.append("rules \(error.diagnostics.contains(where: \.isError))") }
    do { _ = try Profile(jsonData: Data("{".utf8)) } catch is ProfileError { caught.append("profile") }
    _ = try rules.resolve("main_paywall", for: profile, at: now)
} catch {
    caught.append("bare \(error)")
}

func decide(_ placement: String, _ rules: RuleSet, _ profile: Profile, _ now: Date) -> String {
    do {
        return try rules.resolve(placement, for: profile, at: now).outcome.map { "\($0)" } ?? "no match"
    } catch let error as ResolveError {
        return "resolve error: \(error)"
    } catch {
        return "other error: \(error)"
    }
}

func explainOrNil(_ placement: String, _ rules: RuleSet, _ profile: Profile, _ now: Date) -> Explanation? {
    do { return try rules.explain(placement, for: profile, at: now) } catch is ResolveError { return nil } catch { return nil }
}

func loadOrThrow(_ text: String) throws -> RuleSet {
    do { return try RuleSet(source: text) } catch let error as RuleSetError { throw error }
}

let loaded = (try? loadOrThrow("segment s = x == 1")) != nil
guard caught.count == 5, caught[0] == "is", caught[1].hasPrefix("as unknown placement `nope`"), caught[2] == "rules true",
      caught[3] == "profile", caught[4].hasPrefix("bare unknown placement `main_paywall`"), decide("onboarding_followup", rules, profile, now) == #"flow "flow_pro_v2""#,
      decide("x", rules, profile, now).hasPrefix("resolve error: unknown placement `x`"), explainOrNil("x", rules, profile, now) == nil,
      explainOrNil("onboarding_followup", rules, profile, now) != nil, loaded else {
    print("unexpected errors: \(caught) \(decide("onboarding_followup", rules, profile, now)) \(decide("x", rules, profile, now)) \(loaded)")
    exit(1)
}
print("app: caught \(caught.count) errors in every catch form")
SWIFT

cd "$work/App"
if TARGETING_OPTIMIZE_DEBUG=1 swift build >"$work/forced.log" 2>&1; then
  echo "error: the app built although the dependency was forced to declare unsafe flags" >&2
  exit 1
fi
grep -q "unsafe build flags" "$work/forced.log" || { cat "$work/forced.log" >&2; exit 1; }
rm -rf .build Package.resolved
swift build
swift run App

# The module is the one front door: the pipeline's own types stay out of an app's sight.
hidden="LoadedRules Program Evaluator Parser Lexer Checker CheckedRules FlowEventInterpreter InputMapping JSONParser"
for name in $hidden; do echo "let _ = $name.self"; done > Sources/App/Hidden.swift
if swift build >"$work/hidden.log" 2>&1; then
  echo "error: the app could use package-internal types of Targeting" >&2
  exit 1
fi
for name in $hidden; do
  grep -q "cannot find '$name' in scope" "$work/hidden.log" || { echo "error: \`$name\` is visible to the app" >&2; exit 1; }
done
echo "app: only the public API is visible"
