import WaitAlert

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
        guard let (master, slave) = Platform.openPseudoTerminal() else {
            throw SpawnError(step: "open a pseudo-terminal", code: errno)
        }
        // The command's "\n" reaches wait-alert as it was written: the real terminal, when the
        // bytes are copied to it, turns it into "\r\n" itself.
        var modes = termios()
        if tcgetattr(slave, &modes) == 0 {
            modes.c_oflag &= ~tcflag_t(ONLCR)
            _ = tcsetattr(slave, TCSANOW, &modes)
        }
        if let sizeSource, let size = Platform.windowSize(of: sizeSource) { Platform.setWindowSize(size, of: master) }
        return PseudoTerminal(master: master, slave: slave)
    }
}
