// The pseudo-terminal harness uses Linux's /proc.
#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #endif

    /// What `/proc` says about running processes: enough to find a command's process group and
    /// check that none of it is left.
    enum ProcessTable {
        struct Entry: Equatable {
            let pid: pid_t
            let parent: pid_t
            let group: pid_t
            let session: pid_t
            let state: Character
            /// The program's name (`comm`, at most 15 bytes).
            var name = ""
        }

        /// Every process now (those that end while being read are skipped).
        static func entries() -> [Entry] {
            guard let directory = opendir("/proc") else { return [] }
            defer { closedir(directory) }
            var entries: [Entry] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard let pid = pid_t(name), let stat = read("/proc/\(pid)/stat") else { continue }
                // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
                guard let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 3, let state = fields[0].first, let parent = pid_t(fields[1]),
                    let group = pid_t(fields[2]), let session = pid_t(fields[3])
                else { continue }
                let program = stat.firstIndex(of: "(").map { String(stat[stat.index(after: $0)..<close]) } ?? ""
                entries.append(
                    Entry(pid: pid, parent: parent, group: group, session: session, state: state, name: program))
            }
            return entries
        }

        /// The live (not zombie) processes of process group `group`.
        static func liveMembers(ofGroup group: pid_t) -> [pid_t] {
            entries().filter { $0.group == group && $0.state != "Z" && $0.state != "X" }.map(\.pid)
        }

        /// The live processes of process group `group` that are stopped (state `T`, or `t` when
        /// traced).
        static func stoppedMembers(ofGroup group: pid_t) -> [pid_t] {
            entries().filter { $0.group == group && ($0.state == "T" || $0.state == "t") }.map(\.pid)
        }

        /// The processes of `group` as `pid name state` (for a failure's message).
        static func describe(group: pid_t) -> String {
            let members = entries().filter { $0.group == group }.map { "\($0.pid) \($0.name) \($0.state)" }
            return "process group \(group): " + (members.isEmpty ? "no process" : members.joined(separator: ", "))
        }

        /// The children of `parent`, but a sanitizer's symbolizer: built with a sanitizer, the
        /// program under test starts `llvm-symbolizer` as a child of its own when it first matches
        /// a report to a suppression.
        static func children(of parent: pid_t) -> [pid_t] {
            entries().filter { $0.parent == parent && !$0.name.hasPrefix("llvm-symbolizer") }.map(\.pid)
        }

        /// The commands `parent` started: its children that lead a process group of their own in
        /// its session. Not a sanitizer's symbolizer, which starts in the parent's group (named as
        /// the parent, then as its wrapper and `setsid`) and then leads a session of its own; not a
        /// command that does not lead its group yet.
        static func commands(of parent: pid_t) -> [pid_t] {
            let all = entries()
            guard let session = all.first(where: { $0.pid == parent })?.session else { return [] }
            return all.filter { $0.parent == parent && $0.group == $0.pid && $0.session == session }.map(\.pid)
        }

        /// The live processes whose command line holds `text` (its words joined by spaces).
        static func running(withCommandLineContaining text: String) -> [pid_t] {
            entries().filter { $0.state != "Z" && $0.state != "X" }.compactMap { entry in
                commandLine(of: entry.pid)?.contains(text) == true ? entry.pid : nil
            }
        }

        /// The command line of `pid`, its words joined by spaces.
        static func commandLine(of pid: pid_t) -> String? {
            read("/proc/\(pid)/cmdline").map { $0.split(separator: "\0").joined(separator: " ") }
        }

        private static func read(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            return String(decoding: buffer[..<count], as: UTF8.self)
        }
    }
#endif
