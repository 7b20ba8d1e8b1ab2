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
}
