/// A glyph on screen and the spinner it shows.
struct SpinnerSlot: Equatable {
    /// The region's line (0 for the first), and the line's indent (two cells each).
    var line: Int
    var indent: Int
    var frames: [String]
    var interval: Duration
    /// Added to the frame number of the shared grid (`instant / interval`) to give this
    /// spinner's frame.
    var offset: Int

    /// The slot of a glyph whose spinner showed `frame` at `instant`.
    init(line: Int, indent: Int, spinner: Spinner, frame: Int, at instant: Duration) {
        self.line = line
        self.indent = indent
        frames = spinner.frames
        interval = spinner.interval
        let count = Int128(spinner.frames.count)
        let step = instant.attoseconds / spinner.interval.attoseconds
        offset = Int(((Int128(frame) - step) % count + count) % count)
    }

    /// The index of the frame at `instant`.
    func frameIndex(at instant: Duration) -> Int {
        let count = Int128(frames.count)
        let step = instant.attoseconds / interval.attoseconds
        return Int(((step + Int128(offset)) % count + count) % count)
    }

    /// The glyph at `instant`.
    func glyph(at instant: Duration) -> String { frames[frameIndex(at: instant)] }
}
