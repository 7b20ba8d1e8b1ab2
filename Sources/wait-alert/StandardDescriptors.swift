#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input, output and error as `wait-alert` was started with them.
///
/// A standard descriptor may be closed (`wait-alert … >&-`). The command must get it closed too,
/// and nothing `wait-alert` opens may take its number meanwhile (a pipe read as standard output,
/// a terminal written as standard error).
enum StandardDescriptors {
    /// Finds which of descriptors 0, 1 and 2 are closed and opens `/dev/null` on each, close-on-exec
    /// (so the command does not get it, and no other descriptor takes the number); returns them.
    static func reserveClosed() -> Set<Int32> {
        let closed = Set(
            [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].filter { fcntl($0, F_GETFD) < 0 && errno == EBADF })
        for descriptor in closed.sorted() {
            // Every lower descriptor is open now, so this one is the lowest free number.
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            if null >= 0, null != descriptor {
                _ = dup2(null, descriptor)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                close(null)
            }
        }
        return closed
    }
}
