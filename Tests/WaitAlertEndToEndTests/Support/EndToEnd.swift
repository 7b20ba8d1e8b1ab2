import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the whole end-to-end suite runs: with `WAIT_ALERT_END_TO_END=full` (which `.ci/run`
/// sets). Without it, `swift test` runs ``QuickEndToEndTests``, a sample of it that keeps the
/// command a newcomer runs first under a minute.
enum EndToEndRuns {
    static let isFull: Bool = getenv("WAIT_ALERT_END_TO_END").map { String(cString: $0) == "full" } ?? false
}

/// Every end-to-end suite, one test at a time: each runs real programs on pseudo-terminals with
/// real time, and several at once on a small machine starve each other of the frames they wait
/// for. About three and a half minutes on two cores.
@Suite(
    .serialized,
    .enabled(
        if: EndToEndRuns.isFull,
        "the whole end-to-end suite runs with WAIT_ALERT_END_TO_END=full (.ci/run sets it); swift test runs a sample of it"
    ))
enum EndToEnd {}
