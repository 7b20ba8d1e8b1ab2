#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few system calls on terminals and descriptors that the library and `wait-alert` share,
/// each written once: writing everything, telling terminals apart, window sizes,
/// pseudo-terminals, the monotonic clock, the environment. It is the floor the layers above the
/// terminal call instead of the C library (`.ci/check-layers.py` says which files may import it).
package enum Platform {
    /// The process's standard descriptors.
    package static var standardInput: Int32 { STDIN_FILENO }
    package static var standardOutput: Int32 { STDOUT_FILENO }
    package static var standardError: Int32 { STDERR_FILENO }

    /// Whether `descriptor` is open on a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Writes out what the C library's standard output holds (`fflush(stdout)`; standard input
    /// is left alone, which a thread reading a line may hold).
    static func flushStandardOutput() {
        guard let file = cStream(glibc: "stdout", darwin: "__stdoutp") else { return }
        fflush(file)
    }

    /// The C library's standard stream exported as `glibc` (or `darwin` on Apple platforms), found
    /// by its symbol: Swift takes the imported `stdin` and `stdout` for shared mutable state.
    static func cStream(glibc: String, darwin: String) -> UnsafeMutablePointer<FILE>? {
        #if canImport(Glibc)
            let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), glibc)  // RTLD_DEFAULT
        #elseif canImport(Darwin)
            let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), darwin)  // RTLD_DEFAULT
        #else
            let symbol: UnsafeMutableRawPointer? = nil
        #endif
        return symbol?.load(as: UnsafeMutablePointer<FILE>?.self)
    }

    /// The environment variable `name`, if it is set.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Gives the processor to another thread that is ready to run, if any.
    package static func yieldProcessor() { _ = sched_yield() }

    /// Writes every byte, retrying after `EINTR` and partial writes, and waiting up to
    /// `patience` milliseconds at a time (-1: as long as it takes) for a non-blocking descriptor
    /// to accept more (`EAGAIN`). Async-signal-safe.
    package static func writeAll(
        _ buffer: UnsafeRawBufferPointer, to descriptor: Int32, patience: Int32 = 1000
    ) -> Bool {
        transferAll(buffer, on: descriptor, patience: patience) { write(descriptor, $0, $1) } == buffer.count
    }

    /// Hands every byte of `buffer` to `transfer` — a write or a send on `descriptor`, returning
    /// how many bytes went, or below 0 on an error — retrying after `EINTR` and partial
    /// transfers, and waiting up to `patience` milliseconds at a time (-1: as long as it takes)
    /// for a non-blocking `descriptor` to take more (`EAGAIN`). Returns how many bytes went.
    /// Async-signal-safe.
    static func transferAll(
        _ buffer: UnsafeRawBufferPointer, on descriptor: Int32, patience: Int32,
        _ transfer: (UnsafeRawPointer, Int) -> Int
    ) -> Int {
        var offset = 0
        while offset < buffer.count {
            let done = transfer(buffer.baseAddress! + offset, buffer.count - offset)
            if done > 0 {
                offset += done
            } else if done < 0, errno == EINTR {
                continue
            } else if done < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                guard poll(&ready, 1, patience) > 0 || patience < 0 else { break }
            } else {
                break
            }
        }
        return offset
    }

    /// ``writeAll(_:to:patience:)`` for bytes in an array.
    package static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32, patience: Int32 = 1000) -> Bool
    {
        Array(bytes).withUnsafeBytes { writeAll($0, to: descriptor, patience: patience) }
    }

    /// The terminal device `descriptor` is open on, or `nil` when it is not a terminal. On Linux
    /// the device behind `/dev/tty` too (`TIOCGDEV`), so that it counts as the terminal it is.
    package static func terminalDevice(of descriptor: Int32) -> UInt64? {
        guard isatty(descriptor) == 1 else { return nil }
        #if os(Linux)
            let getDevice = UInt(0x8004_5432)  // TIOCGDEV, a macro Swift does not import
            var device: UInt32 = 0
            if ioctl(descriptor, getDevice, &device) == 0 { return UInt64(device) }
        #endif
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return UInt64(status.st_rdev)
    }

    /// Whether `first` and `second` are open on the same file, pipe or device.
    package static func isSameFile(_ first: Int32, _ second: Int32) -> Bool {
        var a = stat()
        var b = stat()
        guard fstat(first, &a) == 0, fstat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Whether `first` and `second` are both terminals, and the same one.
    package static func isSameTerminal(_ first: Int32, _ second: Int32) -> Bool {
        guard let device = terminalDevice(of: first) else { return false }
        return terminalDevice(of: second) == device
    }

    /// Whether standard input is a pipe, a file or a socket: input someone gives the program (a
    /// script's answers), rather than a terminal, `/dev/null` or nothing.
    package static var standardInputCarriesAnswers: Bool {
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFREG || kind == S_IFSOCK
    }

    /// Whether this process's group is the foreground process group of the terminal `descriptor`
    /// (or the descriptor is not this process's controlling terminal, so no job control applies
    /// to it). Async-signal-safe.
    package static func isForeground(_ descriptor: Int32) -> Bool {
        let foreground = tcgetpgrp(descriptor)
        return foreground < 0 || foreground == getpgrp()
    }

    /// The window size of the terminal `descriptor`, or `nil` when it is not one.
    package static func windowSize(of descriptor: Int32) -> (columns: UInt16, rows: UInt16)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (size.ws_col, size.ws_row)
    }

    /// Gives the terminal `descriptor` the window size `size`; `false` when it could not.
    @discardableResult
    package static func setWindowSize(_ size: (columns: UInt16, rows: UInt16), of descriptor: Int32) -> Bool {
        var size = winsize(ws_row: size.rows, ws_col: size.columns, ws_xpixel: 0, ws_ypixel: 0)
        return ioctl(descriptor, UInt(TIOCSWINSZ), &size) == 0
    }

    /// A new pseudo-terminal's controller and device, both close-on-exec and neither the
    /// controlling terminal of anyone; `nil` when the system has none to give.
    package static func openPseudoTerminal() -> (controller: Int32, device: Int32)? {
        #if canImport(Darwin)
            let controller = posix_openpt(O_RDWR | O_NOCTTY)
            guard controller >= 0 else { return nil }
            guard grantpt(controller) == 0, unlockpt(controller) == 0, let name = ptsname(controller) else {
                close(controller)
                return nil
            }
            let device = open(name, O_RDWR | O_NOCTTY)
            guard device >= 0 else {
                close(controller)
                return nil
            }
        #else
            // The C library's module does not export posix_openpt, grantpt, unlockpt and ptsname
            // to Swift; openpty does the same, the device opened with O_NOCTTY.
            var controller: Int32 = -1
            var device: Int32 = -1
            guard openpty(&controller, &device, nil, nil, nil) == 0 else { return nil }
        #endif
        _ = fcntl(controller, F_SETFD, FD_CLOEXEC)
        _ = fcntl(device, F_SETFD, FD_CLOEXEC)
        return (controller, device)
    }

    /// A new pipe, both ends close-on-exec and non-blocking: how a signal handler or another
    /// thread wakes a thread that waits in `poll`. `nil` when the process has no descriptor left.
    package static func nonBlockingPipe() -> (read: Int32, write: Int32)? {
        guard case .success(let ends) = makePipe() else { return nil }
        setNonBlocking(ends.read)
        setNonBlocking(ends.write)
        return ends
    }

    /// Reads and drops whatever the non-blocking `descriptor` holds, without waiting.
    package static func discardPending(_ descriptor: Int32) {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// The monotonic clock's time, from an arbitrary origin.
    package static func monotonicNow() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Whether the last system call failed because the reading end of a pipe or socket is closed
    /// (`EPIPE`). Read it at once, before another call.
    package static var lastErrorIsBrokenPipe: Bool { errno == EPIPE }

    /// The wall-clock time: seconds since 1970-01-01 00:00 UTC.
    package static func wallClockSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Appends `bytes` to the file at `path`, made (readable by all, writable by its owner) when
    /// it does not exist: whether every byte was written.
    package static func append(_ bytes: [UInt8], toFileAt path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { Platform.close(descriptor) }
        return writeAll(bytes[...], to: descriptor, patience: -1)
    }

    /// Sleeps this thread for `duration` (a signal that interrupts the sleep does not shorten it).
    /// Async-signal-safe.
    package static func sleep(for duration: Duration) {
        let nanoseconds = max(duration, .zero).attoseconds / 1_000_000_000
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// Runs `hook` when the program calls `exit()` or returns from its top-level code.
    static func atExit(_ hook: @convention(c) () -> Void) { _ = atexit(hook) }

    #if canImport(Darwin)
        /// Whether the calling code runs on the process's main thread.
        static var isMainThread: Bool { pthread_main_np() != 0 }
    #endif
}
