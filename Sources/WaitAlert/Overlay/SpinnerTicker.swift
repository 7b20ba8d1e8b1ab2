import Dispatch
import Synchronization

/// Turns the spinner glyphs of an overlay's rows on a thread of its own, off the main actor.
///
/// A spinner's frame is a function of time, so between two draws of the region nothing else is
/// needed to animate it: the overlay hands over, with each draw, where its glyphs are and which
/// spinner each shows (a ``Plan``); on every frame of the shared grid the ticker writes the glyphs
/// that changed, as the region's own glyph-only rewrite would. Each frame costs one wake-up of a
/// thread sleeping until the frame (a semaphore wait with a timeout, cut short only when the step
/// changes or the glyphs stop) and one write — half the CPU of a dispatch timer, which re-arms a
/// timer and hands each firing from dispatch's timer thread to a worker — and the main actor
/// sleeps until a text, a phase or a decoration changes.
///
/// Draws and frames never interleave: the overlay draws inside ``draw(_:)``, which holds the same
/// lock as a frame, adopts the glyphs the ticker wrote meanwhile, and hands over the next plan.
/// The thread sleeps from frame to frame only while a plan has glyphs to turn; it ends as soon as
/// the last glyph stops (or the ticker goes), and a later draw with glyphs starts it again.
final class SpinnerTicker: Sendable {
    /// A glyph on screen and the spinner it shows.
    typealias Slot = SpinnerSlot

    /// What the region shows after a draw: its glyphs, and the glyph each shows now.
    struct Plan {
        private(set) var slots: [Slot] = []
        private(set) var shown: [String] = []
        /// For each slot, the index of the frame it shows (-1 for a glyph not among its frames).
        private var shownFrame: [Int] = []
        /// For each slot, the bytes that write each of its frames: made when a glyph first turns
        /// at its place, and kept from plan to plan while it stays there.
        private var rewrites: [[[UInt8]]] = []

        /// Adds a glyph to turn, showing `glyph` now; takes the bytes that write its frames from
        /// `previous` when the glyph turned at the same place there.
        mutating func append(_ slot: Slot, showing glyph: String, reusing previous: Plan? = nil) {
            let index = slots.count
            slots.append(slot)
            shown.append(glyph)
            shownFrame.append(slot.frames.firstIndex(of: glyph) ?? -1)
            // Most often the glyph turned at the same index of the last plan; a row that ended above
            // it moves the index, not the line.
            let same = { (old: Slot) in
                old.line == slot.line && old.indent == slot.indent && old.frames == slot.frames
            }
            if let previous,
                let reused = previous.slots.indices.contains(index) && same(previous.slots[index])
                    ? index : previous.slots.firstIndex(where: same)
            {
                rewrites.append(previous.rewrites[reused])
            } else {
                rewrites.append(
                    slot.frames.map {
                        Array(OverlayScreen.glyphRewrite(line: slot.line, indent: slot.indent, glyph: $0).utf8)
                    })
            }
        }

        /// The bytes that bring every glyph to `instant`, or none when none changed; `shown` then
        /// holds the glyphs written. Several glyphs are written as one synchronized update.
        mutating func frame(at instant: Duration) -> [UInt8] {
            // Counted first, so the bytes are made in one allocation, synchronized or not.
            var changed = 0
            var size = 0
            for index in slots.indices {
                let frame = slots[index].frameIndex(at: instant)
                guard frame != shownFrame[index] else { continue }
                changed += 1
                size += rewrites[index][frame].count
            }
            guard changed > 0 else { return [] }
            let synchronized = changed > 1
            var out: [UInt8] = []
            out.reserveCapacity(size + (synchronized ? Self.synchronizedSize : 0))
            if synchronized { out += Self.beginSynchronized }
            for index in slots.indices {
                let frame = slots[index].frameIndex(at: instant)
                guard frame != shownFrame[index] else { continue }
                shownFrame[index] = frame
                shown[index] = slots[index].frames[frame]
                out += rewrites[index][frame]
            }
            if synchronized { out += Self.endSynchronized }
            return out
        }

        private static let beginSynchronized = Array(OverlayScreen.beginSynchronized.utf8)
        private static let endSynchronized = Array(OverlayScreen.endSynchronized.utf8)
        private static let synchronizedSize = beginSynchronized.count + endSynchronized.count
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
    /// Writes a frame (or drops it, while nothing may be drawn), on a thread where `SIGPIPE` is
    /// blocked.
    private let write: @Sendable ([UInt8]) -> Void
    /// Where the frame loop runs: a serial queue of its own, so a thread of its own while it runs.
    private let queue = DispatchQueue(label: "WaitAlert.SpinnerTicker", qos: .utility)
    /// What the frame loop sleeps on until its next frame: signalled when the step changes or
    /// no glyph turns any more, so a faster spinner or a stop does not wait out the old sleep.
    private let wake = DispatchSemaphore(value: 0)

    /// A ticker that reads the presenter's clock with `now` and writes frames with `write`.
    init(now: @escaping @Sendable () -> Duration, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.now = now
        self.write = write
    }

    deinit {
        wake.signal()  // the loop, if sleeping, ends now rather than at its next frame
    }

    /// Runs `draw` (which writes the region) while no frame can be written, with the glyphs on
    /// screen now by line; hands over the plan it returns and turns the glyphs while it has some.
    func draw(_ draw: (_ onScreen: [Int: String], _ previous: Plan) -> Plan) {
        state.withLock { state in
            var onScreen: [Int: String] = [:]
            for (slot, glyph) in zip(state.plan.slots, state.plan.shown) { onScreen[slot.line] = glyph }
            state.plan = draw(onScreen, state.plan)
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
        state.withLock { writeChangedGlyphs(&$0.plan) }
    }

    private func writeChangedGlyphs(_ plan: inout Plan) {
        let bytes = plan.frame(at: now())
        if !bytes.isEmpty { write(bytes) }
    }

    /// Turns the glyphs every `interval` on the shared frame grid (multiples of `interval` on
    /// the presenter's clock), or stops with `nil`; a loop already sleeping wakes up for a new
    /// step or a stop.
    private func turn(_ state: inout State, every interval: Duration?) {
        let previous = state.interval
        state.interval = interval.flatMap { $0 > .zero ? $0 : nil }
        if state.looping {
            if state.interval != previous { wake.signal() }
            return
        }
        guard state.interval != nil else { return }
        state.looping = true
        // Weak: a ticker the overlay let go ends its loop (its deinit wakes it).
        // `SIGPIPE` stays blocked on the loop's thread while it runs, so a frame's write changes
        // no signal mask: one wake-up and one write a frame, as the least spinner on a thread.
        queue.async { [weak self, wake] in
            WaitAlertStandardError.withBrokenPipeSignalBlocked {
                while let wait = self?.frame() {
                    _ = wake.wait(timeout: .now() + .nanoseconds(Int(wait.attoseconds / 1_000_000_000)))
                }
            }
        }
    }

    /// One step of the frame loop, under one lock: writes the glyphs that changed (none on the
    /// first step, just after a draw, unless the grid moved on meanwhile), and returns how long
    /// until the next step of the frame grid (just past it), or `nil` to end the loop once no
    /// glyph turns.
    private func frame() -> Duration? {
        state.withLock { state -> Duration? in
            guard let interval = state.interval else {
                state.looping = false
                return nil
            }
            writeChangedGlyphs(&state.plan)
            let step = interval.attoseconds
            let elapsed = now().attoseconds  // after the write, which may have waited
            let untilNext = step - ((elapsed % step) + step) % step
            // At least a quarter of a step: a clock that stands still (a test's) or a write that
            // took most of the step never makes the loop spin.
            return Duration(attoseconds: max(untilNext, step / 4)) + .microseconds(1)
        }
    }
}
