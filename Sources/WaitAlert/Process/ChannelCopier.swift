#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Channels other processes still write into — pseudo-terminals, pipes — and where what comes
/// through each goes: the core of the processes that keep a working output for processes left
/// behind (the capture's hand-off when the program ends, a command's background processes once
/// it has ended). Its memory is made before any signal handler may use it; ``copy(waiting:)``
/// and ``runAsCopyingProcess()`` only make system calls on it.
struct ChannelCopier {
    private let records: UnsafeMutablePointer<pollfd>
    private let targets: UnsafeMutablePointer<Int32>
    private let buffer: UnsafeMutableRawBufferPointer
    /// How many channels it can hold.
    let capacity: Int
    /// How long a write to a target may wait for it to take more, in milliseconds (-1: as long
    /// as it takes).
    private let patience: Int32

    /// Room for `capacity` channels, none watched yet.
    init(capacity: Int, bufferSize: Int = 16 * 1024, patience: Int32 = -1) {
        self.capacity = capacity
        self.patience = patience
        records = .allocate(capacity: max(capacity, 1))
        targets = .allocate(capacity: max(capacity, 1))
        buffer = .allocate(byteCount: bufferSize, alignment: 1)
        for index in 0..<capacity { set(index, source: -1, target: -1) }
    }

    /// Frees the memory (never while a process may still copy through it).
    func deallocate() {
        records.deallocate()
        targets.deallocate()
        buffer.deallocate()
    }

    /// Watches `source` in slot `index` and copies what comes to `target` (-1: reads and drops
    /// it); a `source` below 0 leaves the slot empty. Async-signal-safe.
    func set(_ index: Int, source: Int32, target: Int32) {
        records[index] = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
        targets[index] = target
    }

    /// Whether any channel is still watched: some process still holds it.
    var isHeld: Bool {
        for index in 0..<capacity where records[index].fd >= 0 { return true }
        return false
    }

    /// Copies what each channel holds to its target, after waiting up to `milliseconds` (-1: as
    /// long as it takes) for one to be ready, and stops watching a channel no process holds any
    /// more. Returns whether any is still held; `nil` when the wait failed. Async-signal-safe.
    @discardableResult
    func copy(waiting milliseconds: Int32) -> Bool? {
        guard poll(records, nfds_t(capacity), milliseconds) >= 0 || errno == EINTR else { return nil }
        for index in 0..<capacity where records[index].fd >= 0 {
            let events = Int32(records[index].revents)
            records[index].revents = 0
            if events & Int32(POLLIN) != 0 {
                while case let count = Platform.readSome(
                    records[index].fd, into: buffer.baseAddress, count: buffer.count), count > 0
                {
                    guard targets[index] >= 0 else { continue }
                    _ = Platform.writeAll(
                        UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: targets[index], patience: patience)
                }
            }
            if events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 { records[index].fd = -1 }
        }
        return isHeld
    }

    /// In a process just forked to copy: no signal blocked (a handler's mask is inherited), every
    /// signal at its default, no descriptor open but the channels, their targets and those below
    /// `keepingBelow`; then copies until no process holds any channel, and exits.
    /// Async-signal-safe.
    func runAsCopyingProcess(keepingBelow lowest: Int32 = 0) -> Never {
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        var defaultAction = sigaction()
        sigemptyset(&defaultAction.sa_mask)  // SIG_DFL
        for signal in Int32(1)..<Int32(65) where signal != SIGKILL && signal != SIGSTOP {
            sigaction(signal, &defaultAction, nil)  // fails harmlessly past the system's last signal
        }
        let highest = min(getdtablesize(), 65_536)
        for descriptor in lowest..<max(highest, lowest) where !keeps(descriptor) { _ = close(descriptor) }
        while isHeld {
            guard copy(waiting: -1) != nil else { break }
        }
        _exit(0)
    }

    private func keeps(_ descriptor: Int32) -> Bool {
        for index in 0..<capacity where records[index].fd == descriptor || targets[index] == descriptor { return true }
        return false
    }
}

extension Platform {
    /// Forks this process: the child's id in the parent, 0 in the child, -1 when the system
    /// refused. Not from a signal handler (``forkFromSignalHandler``).
    package static func fork() -> Int32 { systemFork?() ?? -1 }

    /// `fork`: the C library's, looked up at run time where Swift's module of it marks it
    /// unavailable (Darwin's).
    private static let systemFork: (@convention(c) () -> Int32)? = {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
            guard let symbol = dlsym(everywhere, "fork") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
        #else
            return { forkProcess() }
        #endif
    }()

    /// A fork a signal handler may call: the C library's `_Fork` (glibc 2.34 and later), which runs
    /// no fork handlers and takes no lock of the C library's, so it cannot hang on a lock the
    /// interrupted thread holds; `nil` where there is none. Looked up once, before any handler
    /// may need it, by whoever keeps it.
    static func lookUpForkFromSignalHandler() -> (@convention(c) () -> Int32)? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_Fork") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
    }

    /// Moves this process into process group `group`.
    package static func joinProcessGroup(_ group: Int32) { _ = setpgid(0, group) }
}

#if !canImport(Darwin)
    /// The C library's `fork`, which ``Platform``'s own shadows inside it.
    private func forkProcess() -> Int32 { fork() }
#endif
