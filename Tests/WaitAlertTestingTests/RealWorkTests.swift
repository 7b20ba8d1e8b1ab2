import Testing
import WaitAlert
import WaitAlertTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tests a newcomer writes from "Testing code that shows wait alerts" alone, for code whose
/// work is real I/O (it reads files) and never sleeps on the bed's clock: with the default
/// timing nothing shows, with `.immediate` every alert does, and one alert's texts and log lines
/// come apart from its child tasks' rows.
@Suite("Testing real work")
@MainActor
struct RealWorkTests {
    /// Two files of this folder: real files to read.
    static let files = ["RealWorkTests.swift", "RecordingRendererTests.swift"]

    /// The code under test: counts the lines of files, a row per file under one alert.
    nonisolated static func countLines(in names: [String], folder: String) async throws -> [Int] {
        try await withWaitAlert("Counting lines", success: "Counted") { alert in
            alert.log("counting \(names.count) files")
            return try await alert.tasks(for: names) { name in
                "Counting \(name)"
            } operation: { name, row in
                let lines = try lineCount(of: folder + "/" + name)
                row.log("\(name): \(lines) lines")
                return lines
            }
        }
    }

    /// The article says why: the work ends at the bed's time zero, within the grace delay.
    @Test func withTheDefaultTimingQuickRealWorkShowsNothing() async throws {
        let bed = WaitAlertTestBed()
        let counts = try await withWaitAlertPresenter(bed.presenter) {
            try await Self.countLines(in: Self.files, folder: Self.folder())
        }
        await bed.run()
        #expect(counts.allSatisfy { $0 > 10 })
        #expect(bed.recorder.texts == [])
        #expect(bed.recorder.logs.first == "counting 2 files", "log lines are printed all the same")
    }

    @Test func withImmediateTimingEveryAlertShows() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let counts = try await withWaitAlertPresenter(bed.presenter) {
            try await Self.countLines(in: Self.files, folder: Self.folder())
        }
        await bed.run()
        let counting = try #require(bed.recorder.alert(titled: "Counting lines"))
        #expect(bed.recorder.texts(of: counting) == ["Counting lines"], "its own texts, not its rows'")
        #expect(bed.recorder.logs(of: counting) == ["counting 2 files"])
        #expect(bed.recorder.finalText(of: counting) == "Counted")
        for (name, count) in zip(Self.files, counts) {
            let row = try #require(bed.recorder.alert(titled: "Counting \(name)"))
            #expect(bed.recorder.logs(of: row) == ["\(name): \(count) lines"])
            #expect(bed.recorder.finalText(of: row) == "Counting \(name)")
        }
    }

    @Test func aFileThatCannotBeReadEndsItsRowAndTheAlertAsFailures() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        await #expect(throws: Unreadable.self) {
            try await withWaitAlertPresenter(bed.presenter) {
                try await Self.countLines(in: ["missing.txt"], folder: Self.folder())
            }
        }
        await bed.run()
        let row = try #require(bed.recorder.alert(titled: "Counting missing.txt"))
        #expect(bed.recorder.finalText(of: row) == "Counting missing.txt: cannot read missing.txt")
        let counting = try #require(bed.recorder.alert(titled: "Counting lines"))
        #expect(bed.recorder.finalText(of: counting) == "Counting lines: cannot read missing.txt")
    }

    /// This file's folder.
    nonisolated static func folder(_ file: String = #filePath) -> String {
        String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
    }
}

struct Unreadable: Error, CustomStringConvertible {
    var name: String
    var description: String { "cannot read \(name)" }
}

/// The number of lines of the file at `path`, read with the C library.
private func lineCount(of path: String) throws -> Int {
    guard let file = fopen(path, "rb") else {
        throw Unreadable(name: String(path.split(separator: "/").last ?? ""))
    }
    defer { fclose(file) }
    var lines = 0
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
        lines += buffer[..<count].count { $0 == UInt8(ascii: "\n") }
    }
    return lines
}
