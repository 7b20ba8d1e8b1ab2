import Dispatch
import Synchronization

/// Turns the spinner glyphs of an overlay's rows on a timer of its own, off the main actor.
///
/// A spinner's frame is a function of time, so between two draws of the region nothing else is
/// needed to animate it: the overlay hands over, with each draw, where its glyphs are and which
/// spinner each shows (a ``Plan``); on every frame of the shared grid the ticker writes the glyphs
/// that changed, as the region's own glyph-only rewrite would. Each frame costs one timer wake-up
/// on a dispatch thread and one write, and the main actor sleeps until a text, a phase or a
/// decoration changes.
///
/// Draws and frames never interleave: the overlay draws inside ``draw(_:)``, which holds the same
/// lock as a frame, adopts the glyphs the ticker wrote meanwhile, and hands over the next plan.
/// The timer runs only while a plan has glyphs to turn.
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
        var timer: (any DispatchSourceTimer)?
        var interval = Duration.zero
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Duration
    /// Writes a frame (or drops it, while nothing may be drawn).
    private let write: @Sendable ([UInt8]) -> Void
    private let queue = DispatchQueue(label: "WaitAlert.SpinnerTicker", qos: .utility)

    /// A ticker that reads the presenter's clock with `now` and writes frames with `write`.
    init(now: @escaping @Sendable () -> Duration, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.now = now
        self.write = write
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    /// Runs `draw` (which writes the region) while no frame can be written, with the glyphs on
    /// screen now by line; hands over the plan it returns and runs the timer while it has glyphs.
    func draw(_ draw: ([Int: String]) -> Plan) {
        state.withLock { state in
            var onScreen: [Int: String] = [:]
            for (slot, glyph) in zip(state.plan.slots, state.plan.shown) { onScreen[slot.line] = glyph }
            state.plan = draw(onScreen)
            let interval = state.plan.slots.map(\.interval).min()
            if interval != state.interval || (interval != nil) != (state.timer != nil) {
                restart(&state, every: interval)
            }
        }
    }

    /// Stops turning glyphs, until the next draw that has some.
    func stop() {
        state.withLock { state in
            state.plan = Plan()
            restart(&state, every: nil)
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

    /// A timer on the shared frame grid (multiples of `interval` on the presenter's clock), or none.
    private func restart(_ state: inout State, every interval: Duration?) {
        state.timer?.cancel()
        state.timer = nil
        state.interval = interval ?? .zero
        guard let interval, interval > .zero else { return }
        let step = interval.attoseconds
        let elapsed = now().attoseconds
        let untilNext = step - ((elapsed % step) + step) % step
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + .nanoseconds(Int(untilNext / 1_000_000_000) + 1_000),  // just past the step
            repeating: .nanoseconds(Int(step / 1_000_000_000)),
            leeway: .milliseconds(1))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        state.timer = timer
    }
}
