// swift-tools-version:6.0
import PackageDescription

/// Debug builds of this repository optimise the library targets: `swift build` is how most
/// users run the tool, and rule files of up to 16 MiB must check in seconds, not minutes.
///
/// SwiftPM refuses unsafe flags in a versioned dependency, so a package that depends on
/// Targeting must never see them. They apply only when this manifest is read from a working
/// copy of its own; never from SwiftPM's or Xcode's dependency folders (`…/checkouts/…`,
/// `…/registry/…`). `TARGETING_OPTIMIZE_DEBUG=0` or `=1` in the environment decides explicitly.
let optimizeDebugBuilds: Bool = {
    if let setting = Context.environment["TARGETING_OPTIMIZE_DEBUG"] { return setting == "1" }
    let folders = Context.packageDirectory.split(separator: "/")
    return !folders.contains("checkouts") && !folders.contains("registry")
}()

let librarySettings: [SwiftSetting] = optimizeDebugBuilds ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

/// A library target of the pipeline; see the layer picture in README.md.
func layer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: librarySettings)
}

/// The tests of one target, in `Tests/<target>Tests`.
func tests(of name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name + "Tests", dependencies: [.target(name: name), "TargetingTestSupport"] + dependencies)
}

/// Coverage-guided fuzz targets (`Tests/Fuzz/`, run by `Tests/Fuzz/run.sh`). They link
/// libFuzzer, whose driver only exists in a build with `-sanitize=fuzzer`, so a plain
/// `swift build` or `swift test` must never see them: they are declared only when the
/// environment has `TARGETING_FUZZ=1`, which `run.sh` sets together with the sanitizer flags.
/// They add no flags of their own, so nothing here reaches a consumer of the package.
let fuzzTargets: [Target] = {
    guard Context.environment["TARGETING_FUZZ"] == "1" else { return [] }
    func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: "fuzz-" + name, dependencies: ["TargetingFuzzSupport"] + dependencies, path: "Tests/Fuzz/" + name)
    }
    return [
        .target(name: "TargetingFuzzSupport", dependencies: ["Targeting", "TargetingAnalysis", "TargetingBase"], path: "Tests/Fuzz/Support"),
        fuzzer("rules", ["TargetingBase"]),
        fuzzer("rules-grammar", ["TargetingBase"]),
        fuzzer("formatter", ["TargetingFormatting", "TargetingSyntax", "TargetingBase"]),
        fuzzer("tests", ["Targeting", "TargetingTesting", "TargetingBase"]),
        fuzzer("profile", ["TargetingProfiles", "TargetingBase"]),
        fuzzer("events", ["TargetingProfiles", "TargetingBase"]),
        fuzzer("engine", ["Targeting", "TargetingEngine", "TargetingBase"]),
        fuzzer("prove", ["Targeting", "TargetingAnalysis", "TargetingEngine", "TargetingBase"]),
        fuzzer("pattern", ["TargetingBase"]),
        fuzzer("http-request", ["TargetingServer"]),
    ]
}()

let package = Package(
    name: "Targeting",
    products: [
        .library(name: "Targeting", targets: ["Targeting"]),
        // For servers: the profile store, event ingest and the parallel batch runners.
        .library(name: "TargetingStore", targets: ["TargetingStore", "TargetingBatch"]),
        // For servers: `targeting serve` as a library (HTTP parsing, routes, reloading).
        .library(name: "TargetingServer", targets: ["TargetingServer"]),
        .executable(name: "targeting", targets: ["targeting"]),
    ],
    dependencies: [],
    targets: [
        // The pipeline, lowest layer first. No target names one above it.
        layer("TargetingBase", []),
        layer("TargetingSyntax", ["TargetingBase"]),
        layer("TargetingProfiles", ["TargetingBase"]),
        layer("TargetingSemantics", ["TargetingSyntax", "TargetingProfiles"]),
        layer("TargetingEngine", ["TargetingSemantics"]),
        // The tools on top.
        layer("TargetingAnalysis", ["TargetingEngine"]),
        layer("TargetingFormatting", ["TargetingSyntax"]),
        layer("TargetingTesting", ["TargetingEngine", "TargetingBatch"]),
        layer("TargetingImpact", ["TargetingEngine", "TargetingBatch"]),
        layer("TargetingSQL", ["TargetingEngine"]),
        // Servers: chunked JSON Lines input, the one parallel batch runner, batch resolving and
        // printing decisions.
        layer("TargetingBatch", ["TargetingProfiles", "TargetingEngine"]),
        // Servers: the JSON Lines profile store, its lock and edits, and event ingest.
        layer("TargetingStore", ["TargetingProfiles", "TargetingEngine", "TargetingBatch"]),
        // Servers: `reconcile`, what was shown against what the rules predict, over event files.
        layer("TargetingReconcile", ["TargetingEngine", "TargetingStore", "TargetingBatch"]),
        // Servers: `targeting serve`, decisions over HTTP and OFREP (parser, routes, reload, sockets).
        layer("TargetingServer", ["Targeting", "TargetingEngine", "TargetingProfiles", "TargetingBatch", "TargetingBase"]),
        // The front door: the library API an app calls.
        layer("Targeting", ["TargetingEngine"]),
        // Editors: the language server behind `targeting lsp`.
        layer("TargetingLanguageServer", ["Targeting", "TargetingAnalysis", "TargetingFormatting"]),
        // The command line.
        .target(name: "TargetingCLI", dependencies: ["Targeting", "TargetingAnalysis", "TargetingFormatting", "TargetingTesting", "TargetingImpact", "TargetingSQL", "TargetingBatch", "TargetingStore", "TargetingReconcile", "TargetingLanguageServer", "TargetingServer"]),
        .executableTarget(name: "targeting", dependencies: ["TargetingCLI"]),
        .executableTarget(name: "sdk-example", dependencies: ["Targeting"], path: "Examples/SDKExample"),
        // Benchmarks/run.sh: `swift run -c release targeting-bench`.
        .executableTarget(name: "targeting-bench", dependencies: ["Targeting"], path: "Benchmarks/TargetingBench"),

        .target(name: "TargetingTestSupport", dependencies: ["Targeting", "TargetingAnalysis"], path: "Tests/TargetingTestSupport"),
        tests(of: "TargetingBase", []),
        tests(of: "TargetingSyntax", []),
        tests(of: "TargetingProfiles", []),
        tests(of: "TargetingSemantics", ["Targeting"]),
        tests(of: "TargetingEngine", ["Targeting"]),
        tests(of: "TargetingAnalysis", ["Targeting"]),
        tests(of: "TargetingFormatting", []),
        tests(of: "TargetingTesting", ["Targeting"]),
        tests(of: "TargetingImpact", ["Targeting"]),
        tests(of: "TargetingSQL", ["Targeting"]),
        tests(of: "TargetingBatch", ["Targeting"]),
        tests(of: "TargetingStore", ["Targeting", "TargetingBatch"]),
        tests(of: "TargetingReconcile", ["Targeting", "TargetingBatch"]),
        tests(of: "TargetingServer", ["Targeting"]),
        tests(of: "Targeting", ["TargetingAnalysis"]),
        tests(of: "TargetingLanguageServer", ["Targeting"]),
        tests(of: "TargetingCLI", ["Targeting"]),
    ] + fuzzTargets,
    swiftLanguageModes: [.v6]
)
