#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal for the command's output: the command writes to the slave, `wait-alert`
/// reads the master. Neither becomes anyone's controlling terminal (`O_NOCTTY`).
struct PseudoTerminal {
    let master: Int32
    let slave: Int32

    /// Opens a pseudo-terminal as large as the terminal `sizeSource` (if it is one), both ends
    /// close-on-exec.
    static func open(sizeLike sizeSource: Int32?) throws(SpawnError) -> PseudoTerminal {
        #if canImport(Darwin)
            let master = posix_openpt(O_RDWR | O_NOCTTY)
            guard master >= 0 else { throw SpawnError(step: "posix_openpt", code: errno) }
            guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
                let code = errno
                close(master)
                throw SpawnError(step: "grantpt", code: code)
            }
            let slave = systemOpen(String(cString: name), O_RDWR | O_NOCTTY)
            guard slave >= 0 else {
                let code = errno
                close(master)
                throw SpawnError(step: "open the pseudo-terminal", code: code)
            }
        #else
            // Glibc's module does not export posix_openpt, grantpt, unlockpt and ptsname; openpty
            // does the same (the slave opened with O_NOCTTY).
            var master: Int32 = -1
            var slave: Int32 = -1
            guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw SpawnError(step: "openpty", code: errno) }
        #endif
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        // The command's "\n" reaches wait-alert as it was written: the real terminal, when the
        // bytes are copied to it, turns it into "\r\n" itself.
        var modes = termios()
        if tcgetattr(slave, &modes) == 0 {
            modes.c_oflag &= ~tcflag_t(ONLCR)
            _ = tcsetattr(slave, TCSANOW, &modes)
        }
        if let sizeSource, let size = windowSize(of: sizeSource) { setWindowSize(size, of: master) }
        return PseudoTerminal(master: master, slave: slave)
    }

    /// The window size of the terminal `descriptor`, or `nil` when it is not one.
    static func windowSize(of descriptor: Int32) -> winsize? {
        var size = winsize()
        guard ioctl(descriptor, getWindowSize, &size) == 0, size.ws_col > 0 else { return nil }
        return size
    }

    /// Sets the window size of the pseudo-terminal whose master is `master`.
    static func setWindowSize(_ size: winsize, of master: Int32) {
        var size = size
        _ = ioctl(master, setWindowSizeRequest, &size)
    }

    #if canImport(Darwin)
        private static let getWindowSize = TIOCGWINSZ
        private static let setWindowSizeRequest = TIOCSWINSZ
    #else
        private static let getWindowSize = UInt(TIOCGWINSZ)
        private static let setWindowSizeRequest = UInt(TIOCSWINSZ)
    #endif
}

#if canImport(Darwin)
    /// `open(2)`, named apart from ``PseudoTerminal/open(sizeLike:)``.
    private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
        open(path, flags)
    }
#endif
