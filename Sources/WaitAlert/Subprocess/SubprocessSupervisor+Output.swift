extension SubprocessSupervisor {
    mutating func read(channel index: Int, into buffer: inout [UInt8]) {
        let descriptor = channels[index].descriptor
        let result = buffer.withUnsafeMutableBytes { Platform.readChunk(descriptor, into: $0) }
        if case .bytes(let count) = result {
            channels[index].lastOutputAt = elapsed
            let bytes = buffer[..<count]
            switch channels[index].channel.use {
            case .passThrough(let target):
                // Not for the alert: copied, never shown nor kept — but for the events in what
                // the command writes to standard error, which become rows.
                var passed = ArraySlice(bytes)
                if reporting.event != nil, channels[index].channel.descriptors.contains(2) {
                    passed = takeEvents(from: bytes, on: index)[...]
                }
                if !passed.isEmpty, !notCountingWaits({ Platform.writeAll(passed, to: target, patience: -1) }) {
                    // The reader went away (`EPIPE`): so does this end, and the command gets SIGPIPE.
                    closeChannel(index)
                }
            case .collect(let limit):
                if collected.count + count <= limit {
                    collected += bytes
                } else if !overflowed {
                    overflowed = true
                    process.stop(Signal.terminate)
                }
            case .display:
                // Its event lines become rows; its taskbar progress the alert's (the sequence
                // itself is never shown); its lines the status, the stream and the tail.
                let shown = reporting.event == nil ? bytes : takeEvents(from: bytes, on: index)[...]
                display(shown, on: index)
            }
        } else if result == .end {
            // End of a pipe; `EIO`: the pseudo-terminal's device is closed everywhere.
            closeChannel(index)
        }
    }

    /// Display output: its taskbar progress, then its lines.
    private mutating func display(_ bytes: ArraySlice<UInt8>, on index: Int) {
        guard !bytes.isEmpty else { return }
        for report in channels[index].progress.feed(bytes) { follow(report, of: index) }
        if settings.usesLines { take(channels[index].lines.feed(bytes, at: elapsed)) }
    }

    /// `bytes` without the event lines in them, which go to ``SubprocessReporting/event`` (a
    /// wait for the alert to take a flood of them does not count against the time to drain).
    private mutating func takeEvents(from bytes: ArraySlice<UInt8>, on index: Int) -> [UInt8] {
        guard let event = reporting.event else { return Array(bytes) }
        // Moved out and back, not copied: the line it holds stays one buffer.
        var filter = EventLineFilter()
        swap(&filter, &channels[index].events)
        defer { swap(&filter, &channels[index].events) }
        return notCountingWaits { filter.feed(bytes, isEvent: event) }
    }

    /// Passes on or shows the unfinished line held as a possible event, once no more comes.
    private mutating func releaseHeldEvents(of index: Int) {
        let held = channels[index].events.finish()
        guard !held.isEmpty else { return }
        switch channels[index].channel.use {
        case .passThrough(let target): _ = Platform.writeAll(held, to: target, patience: -1)
        case .display: display(held[...], on: index)
        case .collect: break
        }
    }

    private mutating func follow(_ report: ProgressSequences.Report, of index: Int) {
        switch report {
        case .percent(let percent): reporting.progress(percent, 100)
        case .unknown: reporting.progressUnknown()
        case .failing(let percent):
            if let percent { reporting.progress(percent, 100) }
        }
        let failing = if case .failing = report { true } else { false }
        if failing != channels[index].failing {
            channels[index].failing = failing
            reporting.markFailing(failing)
        }
    }

    mutating func closeChannel(_ index: Int) {
        guard channels[index].descriptor >= 0 else { return }
        // An unfinished line held as a possible event goes out as it is.
        releaseHeldEvents(of: index)
        Platform.close(channels[index].descriptor)
        channels[index].descriptor = -1
    }

    /// Complete lines of display output: kept for the tail, streamed, shown as the status.
    mutating func take(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        for line in lines {
            tail.append(line)
            if settings.streamsLines {
                let reporting = reporting
                notCountingWaits { reporting.log(line) }
            }
        }
        if let last = lines.last(where: TextSanitizer.showsSomething) { show(last) }
    }

    /// Runs `body`, which may wait for a slow reader (a full pipe, streamed lines not taken yet);
    /// after the command exited, that wait does not count against ``drainLimit``.
    private mutating func notCountingWaits<Result>(_ body: () -> Result) -> Result {
        guard let exitedAt else { return body() }
        let start = Platform.monotonicNow()
        defer { self.exitedAt = exitedAt + (Platform.monotonicNow() - start) }
        return body()
    }

    /// A line still being written (a progress bar redrawn with `\r`) becomes the status too, once
    /// it has stood for a moment.
    mutating func showPartialLine() {
        let now = elapsed
        for channel in channels {
            if let partial = channel.lines.partial(at: now), TextSanitizer.showsSomething(partial) { show(partial) }
        }
    }

    /// Makes `line` the status, unless it already is. A line that would show nothing (blank, or
    /// only escape sequences) never does: the status stays as it was.
    private mutating func show(_ line: String) {
        guard settings.showsStatus, line != status else { return }
        status = line
        reporting.update(line)
    }

    /// Hands the channels the command's background processes still hold to a process that copies
    /// what they write for as long as they do; closes the rest.
    mutating func handOffHeldChannels() {
        var held: [(source: Int32, target: Int32?)] = []
        // What was held as a possible event goes out before the hand-off copies what follows.
        for index in channels.indices { releaseHeldEvents(of: index) }
        for index in channels.indices where channels[index].descriptor >= 0 {
            if !Platform.isHungUp(channels[index].descriptor) {
                held.append((channels[index].descriptor, channels[index].channel.handOffTarget))
            }
        }
        if !held.isEmpty { SubprocessHandOff.start(held, group: process.pid) }
        for index in channels.indices { closeChannel(index) }
    }
}
