extension Subprocess {
    /// Starts `command` (its first word looked up in `PATH` unless it holds a `/`) in a process
    /// group of its own, its outputs connected as `channels` say: each channel a pseudo-terminal
    /// sized like the terminal it stands for, or a pipe. A standard output or error no channel
    /// carries is inherited as it is.
    ///
    /// The command gets the program's environment with `environment` added (a variable named there
    /// replaces the program's), no blocked signal, and `SIGPIPE` at its default even when the
    /// program ignores it. The group is registered with ``ProcessGroupGuard`` before this returns;
    /// a Ctrl-Z that comes meanwhile waits for it.
    package static func spawn(
        _ command: [String], channels: [SubprocessChannel], standardInput: StandardInput = .inherited,
        environment: [String: String] = [:], workingDirectory: String? = nil
    ) throws(SubprocessSpawnError) -> Subprocess {
        var reading: [Output] = []
        var writing: [Int32] = []
        func closeAll() {
            reading.forEach { Platform.close($0.descriptor) }
            writing.forEach { Platform.close($0) }
        }
        for channel in channels {
            do throws(SubprocessSpawnError) {
                let (read, write) = try makeChannel(channel)
                reading.append(Output(descriptor: read, channel: channel))
                writing.append(write)
            } catch {
                closeAll()
                throw error
            }
        }
        defer { writing.forEach { Platform.close($0) } }
        ProcessGroupGuard.beginStart(
            actions: .init(get: TerminalGuard.programAction(for:), set: TerminalGuard.setProgramAction(_:for:)))
        let started = Platform.spawnInOwnGroup(
            command, nullInput: standardInput == .null,
            redirections: zip(channels, writing).map { ($1, $0.descriptors) }, workingDirectory: workingDirectory,
            environment: Self.environment(adding: environment))
        let pid: Int32
        switch started {
        case .success(let started): pid = started
        case .failure(let failure):
            ProcessGroupGuard.endStart(group: nil)
            closeAll()
            throw SubprocessSpawnError(step: failure.step, code: failure.code)
        }
        ProcessGroupGuard.endStart(group: pid)
        for output in reading { Platform.setNonBlocking(output.descriptor) }
        return Subprocess(pid: pid, outputs: reading)
    }

    /// The program's environment, `NAME=value` each, with `added` in place of the variables of
    /// the same names.
    static func environment(adding added: [String: String]) -> [String] {
        var variables = Platform.environmentEntries().filter { added[String($0.prefix { $0 != "=" })] == nil }
        for (name, value) in added.sorted(by: { $0.key < $1.key }) { variables.append("\(name)=\(value)") }
        return variables
    }

    /// A pseudo-terminal or a pipe: the end to read, the end the command writes, both
    /// close-on-exec.
    private static func makeChannel(_ channel: SubprocessChannel) throws(SubprocessSpawnError) -> (Int32, Int32) {
        if let terminal = channel.terminal {
            guard let (controller, device) = Platform.openPseudoTerminal() else {
                throw SubprocessSpawnError(step: "open a pseudo-terminal", code: Platform.errorNumber)
            }
            // The command's "\n" reaches the program as it was written: a real terminal the bytes
            // are copied to turns it into "\r\n" itself.
            Platform.keepNewlines(device)
            if let size = Platform.windowSize(of: terminal) { Platform.setWindowSize(size, of: controller) }
            return (controller, device)
        }
        switch Platform.makePipe() {
        case .success(let ends): return ends
        case .failure(let failure): throw SubprocessSpawnError(step: failure.step, code: failure.code)
        }
    }
}
