// The pseudo-terminal harness uses Linux's /proc.
#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #endif

    /// A running process, as `/proc` tells: enough to find a tool's child and check that none of
    /// its process group is left.
    struct ProcessEntry {
        let pid: pid_t
        let parent: pid_t
        let group: pid_t
        let state: Character

        /// Every process now (those that end while being read are skipped).
        static func all() -> [ProcessEntry] {
            guard let directory = opendir("/proc") else { return [] }
            defer { closedir(directory) }
            var entries: [ProcessEntry] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard let pid = pid_t(name), let stat = read("/proc/\(pid)/stat") else { continue }
                // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
                guard let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 3, let state = fields[0].first, let parent = pid_t(fields[1]),
                    let group = pid_t(fields[2])
                else { continue }
                entries.append(ProcessEntry(pid: pid, parent: parent, group: group, state: state))
            }
            return entries
        }

        /// The live (not zombie) processes of process group `group`.
        static func liveMembers(ofGroup group: pid_t) -> [pid_t] {
            all().filter { $0.group == group && $0.state != "Z" && $0.state != "X" }.map(\.pid)
        }

        private static func read(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            return String(decoding: buffer[..<count], as: UTF8.self)
        }
    }
#endif
