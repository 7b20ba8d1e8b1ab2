import Testing

@testable import WaitAlert

/// The final lines a forced exit leaves: one for each top-level wait alert whose work runs, in
/// the order they began, named as a cancellation names them.
@Suite("Interrupted endings")
struct InterruptedEndingsTests {
    @Test func eachRunningTopLevelAlertLeavesALine() {
        var endings = InterruptedEndings()
        let (build, test, child, toast) = (WaitAlertID(), WaitAlertID(), WaitAlertID(), WaitAlertID())
        endings.apply(WaitAlertSnapshot(phase: .pending, text: "Building…"), of: build, at: .seconds(1))
        endings.apply(WaitAlertSnapshot(text: "Testing"), of: test, at: .seconds(2))
        endings.apply(WaitAlertSnapshot(text: "Compiling Core", parent: build, depth: 1), of: child, at: .seconds(2))
        endings.apply(WaitAlertSnapshot(text: "Saved", kind: .toast), of: toast, at: .seconds(2))
        endings.apply(WaitAlertSnapshot(text: "Compiling", textSince: .seconds(3)), of: build, at: .seconds(3))
        #expect(
            endings.endings == [
                .init(text: "⚠ Building: interrupted after ", began: .seconds(1)),
                .init(text: "⚠ Testing: interrupted after ", began: .seconds(2)),
            ])
        endings.apply(
            WaitAlertSnapshot(text: "Building", outcome: .success(nil), finalText: "Building"), of: build,
            at: .seconds(4))
        #expect(endings.endings.map(\.text) == ["⚠ Testing: interrupted after "])
        endings.apply(WaitAlertSnapshot(phase: .gone, text: "Testing", outcome: .cancelled), of: test, at: .seconds(5))
        #expect(endings.endings.isEmpty)
    }
}
