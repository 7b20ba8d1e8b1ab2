/// Keeps a working output for the background processes a command left running (a daemon it
/// started with `&`): once the command has ended, a process of its own takes over the channels
/// they still hold and copies what comes through each, unchanged, to where it was going — or
/// reads and drops it, for a channel whose bytes were kept — until the last of them has closed
/// it; then it exits. Without it, their writes would fail (`EIO` on a pseudo-terminal, `SIGPIPE`
/// on a pipe) once the program stopped reading.
///
/// The relay process runs only system calls on memory made before it was forked, with default
/// signal handling and no blocked signal, and holds no descriptor of the program's but the
/// channels and the descriptors it copies to. It joins the command's process group, where the
/// processes it serves are, and is nobody's child to reap: it is forked from a process that
/// exits at once.
enum SubprocessHandOff {
    /// Forks the relay for `channels` (each a descriptor to read and where to copy what comes,
    /// `nil` to drop it), in process group `group`. The caller closes its own copies afterwards.
    static func start(_ channels: [(source: Int32, target: Int32?)], group: Int32) {
        let copier = ChannelCopier(capacity: channels.count)
        defer { copier.deallocate() }
        for (index, channel) in channels.enumerated() {
            copier.set(index, source: channel.source, target: channel.target ?? -1)
        }
        let middle = Platform.fork()
        if middle > 0 { _ = Platform.reap(middle) }
        guard middle == 0 else { return }
        // The process in the middle: forks the relay and exits, so init adopts it.
        guard Platform.fork() == 0 else { Platform.exitAtOnce(0) }
        // The relay process.
        Platform.joinProcessGroup(group)
        copier.runAsCopyingProcess()
    }
}
