// `wait-alert-demo tasks`: a build-like run of many child tasks in one region of the terminal.
//
//     swift run wait-alert-demo tasks               40 targets compiled at once, one fails; the
//                                                   others run to their end (exit status 1)
//     swift run wait-alert-demo tasks --fail-fast   the failure cancels the other targets (exit 1)
//     swift run wait-alert-demo tasks --succeed     no failure: linking and testing run (exit 0)
//     swift run wait-alert-demo tasks --jobs 8      at most 8 targets at a time, the rest pending
//     swift run wait-alert-demo tasks --seed 7      other durations, file counts and warnings
//     swift run wait-alert-demo tasks --count 10000 --jobs 4
//                                                   10,000 targets (the 40 names again, numbered),
//                                                   4 at a time: the rest counted as pending
//
// Ctrl-C cancels every task and the demo exits with 130. The durations come from a seeded
// generator, so a run is the same every time (to within the scheduler's jitter).
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum TasksDemo {
    /// The options of the `tasks` mode.
    struct Options {
        var failFast = false
        var succeed = false
        /// At most this many targets compile at once; `nil` for all of them.
        var jobs: Int?
        var seed: UInt64 = 1
        /// How many targets the build compiles.
        var count = Target.names.count
    }

    static let usage = "wait-alert-demo tasks [--fail-fast] [--succeed] [--jobs N] [--seed N] [--count N]"

    /// The options in `arguments` (what follows `tasks`), or `nil` when they are not understood.
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--fail-fast": options.failFast = true
            case "--succeed": options.succeed = true
            case "--jobs":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { return nil }
                options.jobs = value
            case "--seed":
                guard let value = rest.popFirst().flatMap({ UInt64($0) }) else { return nil }
                options.seed = value
            case "--count":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { return nil }
                options.count = value
            default: return nil
            }
        }
        return options
    }

    /// Runs the build, then exits: 0 when it succeeded, 1 when a target failed, 130 when Ctrl-C
    /// cancelled it.
    @MainActor static func runAndExit(_ arguments: [String]) async -> Never {
        await runModeAndExit(arguments, usage: usage, parse: parse, run: build)
    }

    /// The planned steps of the build, in order.
    static let steps = ["Resolving packages", "Running build plugins", "Compiling", "Linking", "Testing"]

    @MainActor static func build(_ options: Options) async throws {
        try await withWaitAlert(
            "Building", success: { _ in "Build succeeded" }, failure: buildFailure,
            operation: { build in try await runSteps(of: build, options) })
    }

    /// The steps of the build, each a child task of `build`.
    @MainActor static func runSteps(of build: WaitAlertReporter, _ options: Options) async throws {
        let targets = Target.all(
            seed: options.seed, failing: options.succeed ? nil : "Networking", count: options.count)
        await build.plan(steps)
        try await build.step("Resolving packages", success: { _ in "Resolved 6 packages" }, operation: resolve)
        await build.skipStep("Running build plugins", reason: "no plugins in the package graph")
        try await build.step(
            "Compiling", failure: { compileFailure($0, of: targets.count) },
            operation: { compiling in try await compile(targets, under: compiling, options: options) })
        try await build.step(
            "Linking", success: { _ in "Linked 4 products" },
            operation: { try await count("Linking", to: 4, unit: "products", over: .milliseconds(900), $0) })
        try await build.step(
            "Testing", success: { _ in "Tested: 480 tests passed" },
            operation: { try await count("Testing", to: 480, unit: "tests", over: .milliseconds(1200), $0) })
    }

    /// "Building: 1 task failed" (every target ran), or which target stopped the build.
    static func buildFailure(_ error: any Error) -> String {
        switch error {
        case let failures as WaitAlertTaskFailures:
            "Building: \(failures.failures.count) task\(failures.failures.count == 1 ? "" : "s") failed"
        case let failure as CompileFailure: "Building: Compiling \(failure.target) failed"
        default: "Building: \(error)"
        }
    }

    static func compileFailure(_ error: any Error, of total: Int) -> String {
        switch error {
        case let failures as WaitAlertTaskFailures: "Compiling: \(failures.failures.count) of \(total) targets failed"
        case let failure as CompileFailure: "Compiling: stopped at the first failure (\(failure.target))"
        default: "Compiling: \(error)"
        }
    }

    /// Six packages, fetched one after another.
    static func resolve(_ step: WaitAlertReporter) async throws {
        let packages = [
            "swift-collections", "swift-algorithms", "swift-nio", "swift-log", "swift-crypto", "swift-syntax",
        ]
        let start = ContinuousClock.now
        for (index, package) in packages.enumerated() {
            step.update("Resolving packages: \(package) (\(index + 1)/\(packages.count))")
            try await Task.sleep(until: start + .milliseconds(180 * (index + 1)))
        }
        step.log("Fetched 6 packages (2 from cache)")
    }

    /// Counts to `total` over `duration`: "Linking: 3/4 products".
    static func count(
        _ name: String, to total: Int, unit: String, over duration: Duration, _ step: WaitAlertReporter
    ) async throws {
        let start = ContinuousClock.now
        let ticks = 12
        for tick in 1...ticks {
            step.update("\(name): \(total * tick / ticks)/\(total) \(unit)")
            try await Task.sleep(until: start + duration * tick / ticks)
        }
    }

    /// Compiles every target as a child task of the `Compiling` step.
    static func compile(_ targets: [Target], under compiling: WaitAlertReporter, options: Options) async throws {
        _ = try await compiling.tasks(
            for: targets, policy: options.failFast ? .failFast : .keepGoing, maxConcurrency: options.jobs,
            title: { "Compiling \($0.name)" }, operation: { target, row in try await target.compile(row) })
    }
}

/// A target failed to compile.
struct CompileFailure: Error, CustomStringConvertible {
    var target: String
    var errors: Int
    var description: String { "\(errors) error\(errors == 1 ? "" : "s") generated" }
}

/// One target of the build and how compiling it goes.
struct Target: Sendable {
    var name: String
    var files: Int
    /// How long it takes, sub-steps included.
    var duration: Duration
    /// Warnings logged halfway through.
    var warnings: [String] = []
    enum Kind: Sendable {
        case plain
        /// Generates sources before compiling and emits its module after.
        case withSteps
        /// Processes its resources in concurrent sub-tasks before compiling.
        case withResources
        /// Has no sources: skipped at once.
        case empty
        /// Logs errors and fails.
        case failing
    }
    var kind = Kind.plain

    static let names = [
        "Core", "Networking", "Storage", "Crypto", "Logging", "Metrics", "Parser", "Lexer", "Syntax", "Sema",
        "IRGen", "Runtime", "Collections", "Algorithms", "JSON", "XML", "YAML", "HTTP", "WebSocket", "TLS",
        "DNS", "Database", "Cache", "Auth", "Payments", "Search", "Index", "Analytics", "Notifications",
        "Scheduler", "Workers", "CLI", "Config", "Plugins", "Fixtures", "TestSupport", "Localization",
        "Resources", "UI", "Images",
    ]

    /// `count` targets (the 40 names, then again numbered: `Core2`), with durations, file counts
    /// and warnings drawn from `seed`; `failing` (if any) logs errors and fails.
    static func all(seed: UInt64, failing: String?, count: Int = names.count) -> [Target] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let base = names[index % names.count]
            let name = index < names.count ? base : "\(base)\(index / names.count + 1)"
            var target = Target(
                name: name, files: Int(random.next(below: 53)) + 8,
                duration: .milliseconds(1200 + Int(random.next(below: 2400))))
            if random.next(below: 10) == 0 {
                let line = 20 + Int(random.next(below: 300))
                target.warnings = ["\(name)/\(name).swift:\(line):9: warning: 'count' was never mutated"]
            }
            switch base {
            case "Core", "Parser", "Database", "UI":
                target.kind = .withSteps
                target.duration = max(target.duration, .milliseconds(3000))
            case "Resources":
                target.kind = .withResources
                target.duration = max(target.duration, .milliseconds(2600))
            case "Fixtures": target.kind = .empty
            default: break
            }
            if name == failing {
                target.kind = .failing
                target.warnings = []
            }
            return target
        }
    }

    /// Compiles the target, reporting to its row.
    func compile(_ row: WaitAlertReporter) async throws {
        let start = ContinuousClock.now
        switch kind {
        case .plain:
            try await compileFiles(row, from: start, until: start + duration)
        case .withSteps:
            // Each sub-step lasts well past the grace delay, so it shows and leaves its record line.
            try await row.step("\(name): generating sources") { _ in
                try await Task.sleep(for: .milliseconds(900))
            }
            try await compileFiles(row, from: .now, until: start + duration - .milliseconds(900))
            try await row.step("\(name): emitting module") { _ in
                try await Task.sleep(for: .milliseconds(900))
            }
        case .withResources:
            let kinds = ["asset catalogs", "strings", "storyboards"]
            _ = try await row.tasks(
                for: Array(kinds.enumerated()), title: { "\(name): processing \($0.element)" },
                operation: { kind, _ in try await Task.sleep(for: .milliseconds(800 + 200 * kind.offset)) })
            try await compileFiles(row, from: .now, until: start + duration)
        case .empty:
            try await Task.sleep(for: .milliseconds(300))
            row.skip("no Swift sources")
        case .failing:
            try await fail(row, from: start)
        }
    }

    /// Counts the files up to ``files`` between `start` and `end`, logging the warnings halfway.
    private func compileFiles(
        _ row: WaitAlertReporter, from start: ContinuousClock.Instant, until end: ContinuousClock.Instant
    ) async throws {
        let step = max(end - start, .zero) / files
        for file in 1...files {
            row.update("\(name): \(file)/\(files) files")
            if file == files / 2 { warnings.forEach(row.log) }
            try await Task.sleep(until: start + step * file)
        }
    }

    /// Compiles a few files, logs two errors with their source lines, and fails.
    private func fail(_ row: WaitAlertReporter, from start: ContinuousClock.Instant) async throws {
        let lines = [
            "\(name)/Socket.swift:42:17: error: cannot find 'SocketAddress' in scope",
            "        let address = SocketAddress(host: host, port: port)",
            "\(name)/Channel.swift:57:9: error: 'Channel' has no member 'flush'",
            "        channel.flush()",
        ]
        for (index, line) in lines.enumerated() {
            row.update("\(name): \(files * (index + 1) / 5)/\(files) files")
            try await Task.sleep(until: start + .milliseconds(300 + 300 * index))
            row.log(line)
        }
        try await Task.sleep(until: start + .milliseconds(1600))
        throw CompileFailure(target: name, errors: 2)
    }
}

/// A small, seeded pseudo-random generator (SplitMix64): the same seed gives the same build.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func next(below bound: UInt64) -> UInt64 { next() % bound }
}
