#if os(Linux)
    import Foundation

    /// A folder of files for `pack` to hash, made in the system's temporary directory and removed
    /// when dropped.
    final class Folder {
        let path: String

        /// Makes a folder holding `files` (paths relative to it, and their contents).
        init(_ files: [String: [UInt8]]) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("pack-e2e-\(UUID().uuidString)").path
            for (name, contents) in files {
                let url = URL(fileURLWithPath: path + "/" + name)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents).write(to: url)
            }
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        /// The contents of the file at `name` in the folder, or `nil` when there is none.
        func contents(of name: String) -> [UInt8]? {
            FileManager.default.contents(atPath: path + "/" + name).map { Array($0) }
        }
    }
#endif
