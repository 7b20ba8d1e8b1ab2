// swift-tools-version: 6.2
import PackageDescription

// The same settings as WaitAlert's own targets: Swift 6, strict concurrency, warnings are errors.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ArgumentParserTool",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "WaitAlert", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "pack",
            dependencies: [
                .product(name: "WaitAlert", package: "WaitAlert"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PackEndToEndTests",
            dependencies: ["pack", .product(name: "WaitAlertTesting", package: "WaitAlert")],
            swiftSettings: strict
        ),
    ]
)
