/// Why `pack` failed: each says what happened, in a line.
enum PackError: Error, CustomStringConvertible {
    case notAFolder(String)
    case unreadable(String)
    case incomplete(String)

    var description: String {
        switch self {
        case .notAFolder(let path): "\(path) is not a folder"
        case .unreadable(let path): "cannot read \(path)"
        case .incomplete(let archive): "\(archive) does not hold every file"
        }
    }
}
