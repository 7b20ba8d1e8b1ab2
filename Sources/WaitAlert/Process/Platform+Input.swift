#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading the keyboard, and the process's place in its terminal's job control: what a question
/// on the terminal needs of the system.
extension Platform {
    /// Whether `descriptor` is a terminal whose foreground process group is this process's (a
    /// question may read keys from it).
    package static func isForegroundTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1 && tcgetpgrp(descriptor) == getpgrp()
    }

    /// Reads what `descriptor` holds now, up to `limit` bytes, without waiting longer than a read
    /// of a ready descriptor does: `nil` at its end (the terminal is gone), `[]` when a read
    /// failed or nothing came.
    package static func readAvailable(_ descriptor: Int32, upTo limit: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { readSome(descriptor, into: $0.baseAddress, count: $0.count) }
        if count == 0 { return nil }
        return Array(buffer.prefix(max(count, 0)))
    }

    /// How many bytes can be read from `descriptor` without waiting (`FIONREAD`).
    package static func pendingInput(_ descriptor: Int32) -> Int {
        var pending: Int32 = 0
        guard ioctl(descriptor, UInt(FIONREAD), &pending) == 0 else { return 0 }
        return Int(max(pending, 0))
    }

    /// Puts `bytes` back into the terminal `descriptor`'s input, as if typed (`TIOCSTI`), for
    /// whatever reads it next; stops at the first the system refuses (the request turned off).
    package static func insertInput(_ bytes: [UInt8], into descriptor: Int32) {
        #if os(Linux)
            let insert = UInt(TIOCSTI)
        #else
            let insert = UInt(0x8001_7472)  // TIOCSTI: _IOW('t', 114, char)
        #endif
        for var byte in bytes {
            guard ioctl(descriptor, insert, &byte) == 0 else { break }
        }
    }

    /// Whether the process runs under job control: its group is not its session's own (a shell
    /// that can continue it after a stop).
    package static var hasJobControl: Bool { getpgrp() != getsid(0) }

    /// Stops the process's whole group, as the terminal does for Ctrl-Z (`SIGTSTP`).
    package static func stopProcessGroup() { kill(0, SIGTSTP) }

    // MARK: - Lines from standard input

    /// Whether `descriptor` has something to read (or its end) within `milliseconds`.
    package static func isReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, milliseconds) > 0
    }

    /// Whether the C library holds input for standard input that it has read and not handed out
    /// yet (a line read ahead from a pipe): `poll` does not see it.
    package static func standardInputHasBufferedInput() -> Bool {
        #if canImport(Glibc)
            guard let file = cStream(glibc: "stdin", darwin: "__stdinp")?.pointee else { return false }
            return file._IO_read_ptr != file._IO_read_end
        #elseif canImport(Darwin)
            guard let file = cStream(glibc: "stdin", darwin: "__stdinp")?.pointee else { return false }
            return file._r > 0
        #else
            return false
        #endif
    }

    /// Writes `bytes` on the process's controlling terminal (`/dev/tty`), whatever its standard
    /// descriptors are; `false` when it has none.
    @discardableResult
    package static func writeToControllingTerminal(_ bytes: [UInt8]) -> Bool {
        let terminal = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return false }
        defer { close(terminal) }
        return bytes.withUnsafeBytes { writeAll($0, to: terminal) }
    }

    // MARK: - The terminal's modes

    /// The modes of the terminal `descriptor`, or `nil` when it is not one.
    static func terminalModes(of descriptor: Int32) -> termios? {
        var modes = termios()
        return tcgetattr(descriptor, &modes) == 0 ? modes : nil
    }

    /// `modes` with echo off, so typed keys neither show nor move the line; canonical mode stays
    /// (typed lines are kept whole, with erase and kill applied, for whatever reads next). With
    /// `raw`, also every key read as it comes, Ctrl-C and Ctrl-Z included.
    static func echoOff(_ modes: termios, raw: Bool) -> termios {
        var modes = modes
        modes.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        if raw {
            modes.c_lflag &= ~tcflag_t(ICANON | ISIG | IEXTEN)
            modes.c_iflag &= ~tcflag_t(ICRNL | INLCR | IXON)
            withUnsafeMutableBytes(of: &modes.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
        return modes
    }

    /// Gives the terminal `descriptor` the modes `modes` points to, at once. Async-signal-safe.
    @discardableResult
    static func setTerminalModes(_ modes: UnsafePointer<termios>, of descriptor: Int32) -> Bool {
        tcsetattr(descriptor, TCSANOW, modes) == 0
    }
}
