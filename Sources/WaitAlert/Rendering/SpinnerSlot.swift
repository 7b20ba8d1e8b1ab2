/// A glyph on screen and the spinner it shows.
struct SpinnerSlot: Equatable {
    /// The region's line (0 for the first), and the line's indent (two cells each).
    var line: Int
    var indent: Int
    var frames: [String]
    var interval: Duration
    /// The width on screen every frame has, or `nil` when they differ.
    var frameWidth: Int?
    /// Added to the frame number of the shared grid (`instant / interval`) to give this
    /// spinner's frame.
    var offset: Int

    /// The slot of a glyph whose spinner showed `frame` at `instant`; the frames' width is
    /// taken from `previous` when it turned the same frames.
    init(line: Int, indent: Int, spinner: Spinner, frame: Int, at instant: Duration, previous: SpinnerSlot? = nil) {
        self.line = line
        self.indent = indent
        frames = spinner.frames
        interval = spinner.interval
        if let previous, previous.frames == frames {
            frameWidth = previous.frameWidth
        } else {
            let width = DisplayWidth.of(frames[0])
            frameWidth = frames.allSatisfy { DisplayWidth.of($0) == width } ? width : nil
        }
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
