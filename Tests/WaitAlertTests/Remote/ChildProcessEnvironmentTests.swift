import Testing
import WaitAlertTesting

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment that tells a process started under an alert which row it is.
@Suite("The environment of a child process")
@MainActor
struct ChildProcessEnvironmentTests {
    /// A row's reporter names the row, then the alerts above it, then the program's alert that
    /// began last, each under the key of the program's socket; the socket is the program's.
    @Test func aRowNamesItselfAndTheAlertsAboveIt() async throws {
        let listener = try #require(EventSocket.listen())
        defer {
            close(listener.descriptor)
            listener.remove()
        }
        // Read while the variable is set, and unset at once: other tests start no process of it.
        setenv(EventSocket.variable, listener.path, 1)
        let bed = WaitAlertTestBed(timing: .immediate)
        let work = bed.start {
            try await withWaitAlert("Outer") { outer in
                try await outer.task("Inner") { inner in
                    (inner.childProcessEnvironment, outer.childProcessEnvironment)
                }
            }
        }
        let (inner, outer) = try await bed.run(until: work)
        unsetenv(EventSocket.variable)
        let outerID = try #require(bed.recorder.alert(titled: "Outer")).rawValue
        let innerID = try #require(bed.recorder.alert(titled: "Inner")).rawValue
        #expect(inner[EventSocket.variable] == listener.path)
        #expect(
            inner[EventSocket.parentVariable]
                == "\(listener.key).\(innerID),\(listener.key).\(outerID),\(listener.key).0")
        #expect(outer[EventSocket.parentVariable] == "\(listener.key).\(outerID),\(listener.key).0")
        #expect(WaitAlertPresenter.childProcessEnvironment[EventSocket.parentVariable] == nil, "no socket now")
    }
}
