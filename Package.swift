// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Targeting",
    products: [
        .library(name: "Targeting", targets: ["Targeting"]),
        .executable(name: "targeting", targets: ["targeting"]),
    ],
    dependencies: [],
    targets: [
        // The library is optimised in debug builds too: `swift build` is how most users run the
        // tool, and rule files of up to 16 MiB must check in seconds, not minutes.
        .target(name: "Targeting", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "TargetingCLI", dependencies: ["Targeting"]),
        .executableTarget(name: "targeting", dependencies: ["TargetingCLI"]),
        .executableTarget(name: "sdk-example", dependencies: ["Targeting"], path: "Examples/SDKExample"),
        .testTarget(name: "TargetingTests", dependencies: ["Targeting"]),
        .testTarget(name: "TargetingCLITests", dependencies: ["TargetingCLI", "Targeting"]),
    ],
    swiftLanguageModes: [.v6]
)
