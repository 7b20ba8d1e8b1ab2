/// A one-shot signal between a test and the work it drives: the work waits, the test opens.
struct Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    /// Lets every waiter through, now and later.
    func open() { continuation.finish() }

    /// Waits until the gate is open.
    func wait() async {
        for await _ in stream {}
    }
}
