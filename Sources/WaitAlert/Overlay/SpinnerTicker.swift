import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the spinner glyphs of an overlay's rows on a thread of its own, off the main actor.
///
/// A spinner's frame is a function of time, so between two draws of the region nothing else is
/// needed to animate it: the overlay hands over, with each draw, where its glyphs are and which
/// spinner each shows (a ``Plan``); on every frame of the shared grid the ticker writes the glyphs
/// that changed, as the region's own glyph-only rewrite would. Each frame costs one wake-up of a
/// thread sleeping until the frame (`nanosleep`) and one write — half the CPU of a dispatch
/// timer, which re-arms a timer and hands each firing from dispatch's timer thread to a worker —
/// and the main actor sleeps until a text, a phase or a decoration changes.
///
/// Draws and frames never interleave: the overlay draws inside ``draw(_:)``, which holds the same
/// lock as a frame, adopts the glyphs the ticker wrote meanwhile, and hands over the next plan.
/// The thread sleeps from frame to frame only while a plan has glyphs to turn; it ends at the
/// next frame after the last glyph stops, and a later draw with glyphs starts it again.
final class SpinnerTicker: Sendable {
    /// A glyph on screen and the spinner it shows.
    typealias Slot = SpinnerSlot

    /// What the region shows after a draw: its glyphs, and the glyph each shows now.
    struct Plan {
        private(set) var slots: [Slot] = []
        var shown: [String] = []
        /// For each slot, the bytes that write each of its frames, made once per draw.
        private var rewrites: [[[UInt8]]] = []

        /// Adds a glyph to turn, showing `glyph` now.
        mutating func append(_ slot: Slot, showing glyph: String) {
            slots.append(slot)
            shown.append(glyph)
            rewrites.append(
                slot.frames.map {
                    Array(OverlayScreen.glyphRewrite(line: slot.line, indent: slot.indent, glyph: $0).utf8)
                })
        }

        /// The bytes that bring every glyph to `instant`, or none when none changed; `shown` then
        /// holds the glyphs written.
        mutating func frame(at instant: Duration) -> [UInt8] {
            var out: [UInt8] = []
            var changed = 0
            for (index, slot) in slots.enumerated() {
                let frame = slot.frameIndex(at: instant)
                guard slot.frames[frame] != shown[index] else { continue }
                shown[index] = slot.frames[frame]
                if changed == 0 { out.reserveCapacity(rewrites[index][frame].count * (slots.count - index) + 16) }
                out += rewrites[index][frame]
                changed += 1
            }
            guard changed > 1 else { return out }
            return Array(OverlayScreen.beginSynchronized.utf8) + out + Array(OverlayScreen.endSynchronized.utf8)
        }
    }

    private struct State {
        var plan = Plan()
        /// The frame grid's step while glyphs turn; `nil` once none does.
        var interval: Duration?
        /// Whether the frame loop runs (it may be sleeping until its next frame).
        var looping = false
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Duration
    /// Writes a frame (or drops it, while nothing may be drawn).
    private let write: @Sendable ([UInt8]) -> Void
    /// Where the frame loop runs: a serial queue of its own, so a thread of its own while it runs.
    private let queue = DispatchQueue(label: "WaitAlert.SpinnerTicker", qos: .utility)

    /// A ticker that reads the presenter's clock with `now` and writes frames with `write`.
    init(now: @escaping @Sendable () -> Duration, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.now = now
        self.write = write
    }

    /// Runs `draw` (which writes the region) while no frame can be written, with the glyphs on
    /// screen now by line; hands over the plan it returns and turns the glyphs while it has some.
    func draw(_ draw: ([Int: String]) -> Plan) {
        state.withLock { state in
            var onScreen: [Int: String] = [:]
            for (slot, glyph) in zip(state.plan.slots, state.plan.shown) { onScreen[slot.line] = glyph }
            state.plan = draw(onScreen)
            turn(&state, every: state.plan.slots.map(\.interval).min())
        }
    }

    /// Stops turning glyphs, until the next draw that has some.
    func stop() {
        state.withLock { state in
            state.plan = Plan()
            turn(&state, every: nil)
        }
    }

    /// Writes the glyphs that changed since the last draw or frame.
    func tick() {
        let instant = now()
        state.withLock { state in
            let bytes = state.plan.frame(at: instant)
            if !bytes.isEmpty { write(bytes) }
        }
    }

    /// Turns the glyphs every `interval` on the shared frame grid (multiples of `interval` on
    /// the presenter's clock), or stops with `nil`. A new step applies from the loop's next frame.
    private func turn(_ state: inout State, every interval: Duration?) {
        state.interval = interval.flatMap { $0 > .zero ? $0 : nil }
        guard state.interval != nil, !state.looping else { return }
        state.looping = true
        // Weak: a ticker the overlay let go ends its loop at the next frame.
        queue.async { [weak self] in
            while let ticker = self, let wait = ticker.untilNextFrame() {
                Self.sleep(wait)
                ticker.tick()
            }
        }
    }

    /// How long until the next step of the frame grid (just past it), or `nil` to end the loop.
    private func untilNextFrame() -> Duration? {
        state.withLock { state -> Duration? in
            guard let interval = state.interval else {
                state.looping = false
                return nil
            }
            let step = interval.attoseconds
            let elapsed = now().attoseconds
            let untilNext = step - ((elapsed % step) + step) % step
            return Duration(attoseconds: untilNext) + .microseconds(1)
        }
    }

    /// Sleeps `duration` on the monotonic clock, through signals.
    private static func sleep(_ duration: Duration) {
        let nanoseconds = duration.attoseconds / 1_000_000_000
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
