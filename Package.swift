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
        .target(name: "Targeting"),
        .target(name: "TargetingCLI", dependencies: ["Targeting"]),
        .executableTarget(name: "targeting", dependencies: ["TargetingCLI"]),
        .executableTarget(name: "sdk-example", dependencies: ["Targeting"], path: "Examples/SDKExample"),
        .testTarget(name: "TargetingTests", dependencies: ["Targeting"]),
        .testTarget(name: "TargetingCLITests", dependencies: ["TargetingCLI", "Targeting"]),
    ],
    swiftLanguageModes: [.v6]
)
