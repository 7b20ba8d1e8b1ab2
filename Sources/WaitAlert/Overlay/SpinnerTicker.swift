import Dispatch
import Synchronization

/// Turns the spinner glyphs of an overlay's rows on a thread of its own, off the main actor.
///
/// A spinner's frame is a function of time, so between two draws of the region nothing else is
/// needed to animate it: the overlay hands over, with each draw, where its glyphs are and which
/// spinner each shows (a ``Plan``); on every frame of the shared grid the ticker writes the glyphs
/// that changed, as the region's own glyph-only rewrite would. Each frame costs one wake-up of a
/// thread sleeping until the frame (a plain timed sleep: a new step or a stop takes effect when
/// it wakes, within 100 ms) and one write — half the CPU of a dispatch timer, which re-arms a
/// timer and hands each firing from dispatch's timer thread to a worker — and the main actor
/// sleeps until a text, a phase or a decoration changes.
///
/// Draws and frames never interleave: the overlay draws inside ``draw(_:)``, which holds the same
/// lock as a frame, adopts the glyphs the ticker wrote meanwhile, and hands over the next plan.
/// The thread sleeps from frame to frame only while a plan has glyphs to turn; it ends at the
/// first frame after the last glyph stops (or the ticker goes), and a later draw with glyphs
/// starts it again.
final class SpinnerTicker: Sendable {
    /// A glyph on screen and the spinner it shows.
    typealias Slot = SpinnerSlot

    /// What the region shows after a draw: its glyphs, and the glyph each shows now.
    struct Plan {
        private(set) var slots: [Slot] = []
        /// What a frame reads and writes, one record a glyph in one array: a frame after a sleep
        /// touches as little memory as it can.
        private var turning: [Turning] = []
        /// The glyph each slot was drawn with (shown until its first frame, when not among the
        /// spinner's frames).
        private var drawn: [String] = []

        /// A glyph that turns: its place on the frame grid, the frame it shows, and the bytes
        /// that write each of its frames.
        private struct Turning {
            let step: Int128
            let count: Int128
            let offset: Int128
            /// The index of the frame it shows (-1 for a glyph not among its frames).
            var shownFrame: Int
            /// The frame a frame in the making brings it to.
            var pendingFrame: Int
            /// Made when a glyph first turns at its place, and kept from plan to plan while it
            /// stays there.
            let rewrites: [[UInt8]]

            func frame(at instant: Duration) -> Int {
                Int(((instant.attoseconds / step + offset) % count + count) % count)
            }
        }

        /// The glyph each slot shows now.
        var shown: [String] {
            slots.indices.map { turning[$0].shownFrame < 0 ? drawn[$0] : slots[$0].frames[turning[$0].shownFrame] }
        }

        /// Adds a glyph to turn, showing `glyph` now; takes the bytes that write its frames from
        /// `previous` when the glyph turned at the same place there.
        mutating func append(_ slot: Slot, showing glyph: String, reusing previous: Plan? = nil) {
            let index = slots.count
            // Most often the glyph turned at the same index of the last plan; a row that ended above
            // it moves the index, not the line.
            let same = { (old: Slot) in
                old.line == slot.line && old.indent == slot.indent && old.frames == slot.frames
            }
            let rewrites: [[UInt8]]
            if let previous,
                let reused = previous.slots.indices.contains(index) && same(previous.slots[index])
                    ? index : previous.slots.firstIndex(where: same)
            {
                rewrites = previous.turning[reused].rewrites
            } else {
                rewrites = slot.frames.map {
                    Array(OverlayScreen.glyphRewrite(line: slot.line, indent: slot.indent, glyph: $0).utf8)
                }
            }
            let frame = slot.frames.firstIndex(of: glyph) ?? -1
            slots.append(slot)
            drawn.append(glyph)
            turning.append(
                Turning(
                    step: slot.interval.attoseconds, count: Int128(slot.frames.count), offset: Int128(slot.offset),
                    shownFrame: frame, pendingFrame: frame, rewrites: rewrites))
        }

        /// The bytes that bring every glyph to `instant`, or none when none changed; `shown` then
        /// holds the glyphs written. Several glyphs are written as one synchronized update.
        mutating func frame(at instant: Duration) -> [UInt8] {
            // The frames are found first, so the bytes are made in one allocation, synchronized
            // or not — and a single glyph's bytes, made once, are handed over as they are.
            var changed = 0
            var size = 0
            var last = 0
            for index in turning.indices {
                let frame = turning[index].frame(at: instant)
                guard frame != turning[index].shownFrame else { continue }
                changed += 1
                size += turning[index].rewrites[frame].count
                turning[index].pendingFrame = frame
                last = index
            }
            guard changed > 0 else { return [] }
            if changed == 1 { return show(at: last) }
            var out: [UInt8] = []
            out.reserveCapacity(size + Self.synchronizedSize)
            out += Self.beginSynchronized
            for index in turning.indices where turning[index].pendingFrame != turning[index].shownFrame {
                out += show(at: index)
            }
            out += Self.endSynchronized
            return out
        }

        /// Brings the glyph at `index` to its pending frame; returns the bytes that write it.
        private mutating func show(at index: Int) -> [UInt8] {
            let frame = turning[index].pendingFrame
            turning[index].shownFrame = frame
            return turning[index].rewrites[frame]
        }

        private static let beginSynchronized = Array(OverlayScreen.beginSynchronized.utf8)
        private static let endSynchronized = Array(OverlayScreen.endSynchronized.utf8)
        private static let synchronizedSize = beginSynchronized.count + endSynchronized.count
    }

    /// The frames' state and thread; the ticker's deinit stops it.
    private let loop: FrameLoop

    /// A ticker that reads the presenter's clock with `now` and writes frames with `write`.
    init(now: @escaping @Sendable () -> Duration, write: @escaping @Sendable ([UInt8]) -> Void) {
        loop = FrameLoop(now: now, write: write)
    }

    deinit {
        loop.stop()  // the loop, if sleeping, ends at its next frame
    }

    /// Runs `draw` (which writes the region) while no frame can be written, with the glyphs on
    /// screen now by line; hands over the plan it returns and turns the glyphs while it has some.
    func draw(_ draw: (_ onScreen: [Int: String], _ previous: Plan) -> Plan) { loop.draw(draw) }

    /// Stops turning glyphs, until the next draw that has some.
    func stop() { loop.stop() }

    /// Writes the glyphs that changed since the last draw or frame.
    func tick() { loop.tick() }
}

/// The plan, the clock and the writer of a ``SpinnerTicker``, held by its frame loop's thread
/// while it runs: a frame reads no weak reference, and the ticker's end stops the loop at its
/// next frame.
private final class FrameLoop: Sendable {
    private struct State {
        var plan = SpinnerTicker.Plan()
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
    /// The longest the loop sleeps at once: a new step (a faster spinner drawn beside a slow one)
    /// or a stop waits at most this long. A step of 80 ms, the usual, is never cut.
    private static let longestSleep = Duration.milliseconds(100)

    init(now: @escaping @Sendable () -> Duration, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.now = now
        self.write = write
    }

    func draw(_ draw: (_ onScreen: [Int: String], _ previous: SpinnerTicker.Plan) -> SpinnerTicker.Plan) {
        state.withLock { state in
            var onScreen: [Int: String] = [:]
            for (slot, glyph) in zip(state.plan.slots, state.plan.shown) { onScreen[slot.line] = glyph }
            state.plan = draw(onScreen, state.plan)
            turn(&state, every: state.plan.slots.map(\.interval).min())
        }
    }

    func stop() {
        state.withLock { state in
            state.plan = SpinnerTicker.Plan()
            turn(&state, every: nil)
        }
    }

    func tick() {
        state.withLock { writeChangedGlyphs(&$0.plan) }
    }

    private func writeChangedGlyphs(_ plan: inout SpinnerTicker.Plan) {
        let bytes = plan.frame(at: now())
        if !bytes.isEmpty { write(bytes) }
    }

    /// Turns the glyphs every `interval` on the shared frame grid (multiples of `interval` on
    /// the presenter's clock), or stops with `nil`. A loop already sleeping takes a new step, or
    /// the stop, when it wakes (within ``longestSleep``): it sleeps as the least spinner on a
    /// thread does (a plain timed sleep, which costs less than a semaphore's timed wait), and
    /// nothing is written meanwhile that the plan does not hold.
    private func turn(_ state: inout State, every interval: Duration?) {
        state.interval = interval.flatMap { $0 > .zero ? $0 : nil }
        guard !state.looping, state.interval != nil else { return }
        state.looping = true
        // `SIGPIPE` stays blocked on the loop's thread while it runs, so a frame's write changes
        // no signal mask: one wake-up and one write a frame, as the least spinner on a thread.
        Platform.repeatOnThread(of: queue, pausingAtMost: Self.longestSleep) { [self] in frame() }
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
