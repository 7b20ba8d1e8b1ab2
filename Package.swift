// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "WaitAlert",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "WaitAlert", targets: ["WaitAlert"]),
        .library(name: "WaitAlertTesting", targets: ["WaitAlertTesting"]),
        .executable(name: "wait-alert", targets: ["wait-alert"]),
    ],
    targets: [
        .target(name: "WaitAlert", swiftSettings: strict),
        .target(name: "WaitAlertTesting", dependencies: ["WaitAlert"], swiftSettings: strict),
        .executableTarget(name: "wait-alert", dependencies: ["WaitAlert"], swiftSettings: strict),
        .executableTarget(
            name: "wait-alert-demo",
            dependencies: ["WaitAlert"],
            path: "Examples/wait-alert-demo",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "wait-alert-scenarios",
            dependencies: ["WaitAlert"],
            path: "Examples/wait-alert-scenarios",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "wait-alert-bench",
            dependencies: ["WaitAlert", "WaitAlertTesting"],
            path: "Benchmarks/wait-alert-bench",
            swiftSettings: strict
        ),
        .testTarget(
            name: "WaitAlertTests",
            dependencies: ["WaitAlert", "WaitAlertTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WaitAlertTestingTests",
            dependencies: ["WaitAlert", "WaitAlertTesting"],
            swiftSettings: strict
        ),
        .testTarget(name: "WaitAlertCLITests", dependencies: ["wait-alert"], swiftSettings: strict),
        .testTarget(
            name: "WaitAlertEndToEndTests",
            dependencies: ["WaitAlertTesting", "wait-alert-demo", "wait-alert", "wait-alert-scenarios"],
            swiftSettings: strict
        ),
    ]
)
