import Testing

@testable import wait_alert

struct DurationArgumentTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)),
        ("30s", .seconds(30)),
        ("2m", .seconds(120)),
        ("1h", .seconds(3600)),
        ("10", .seconds(10)),
        ("1.5s", .milliseconds(1500)),
        ("0.25", .milliseconds(250)),
        (".5m", .seconds(30)),
        ("1.5ms", .microseconds(1500)),
        ("0.000000001s", .nanoseconds(1)),
        ("8760h", .seconds(365 * 24 * 3600)),
    ])
    func valid(text: String, duration: Duration) {
        #expect(DurationArgument.parse(text) == duration)
    }

    @Test(arguments: [
        "", "s", "ms", "0", "0s", "0.0", "-1s", "+1s", "1.", ".", "1.2.3s", "1x", "1 s", " 1s", "1S", "1e3",
        "٣s", "8761h", "99999999999999999999", "1d", "0.0000000001s",
    ])
    func invalid(text: String) {
        #expect(DurationArgument.parse(text) == nil)
    }

    /// A well-formed duration past the longest is too long, not "not positive".
    @Test(arguments: ["8761h", "10000h", "99999999999999999999", "9999999999999s", "525601m", "8760.5h"])
    func tooLong(text: String) {
        #expect(DurationArgument.read(text) == .failure(.tooLong))
    }

    @Test(arguments: ["", "0", "0s", "-1s", "1x", "0.0000000001s", "000"])
    func notADuration(text: String) {
        #expect(DurationArgument.read(text) == .failure(.notADuration))
    }
}
