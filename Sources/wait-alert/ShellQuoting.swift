/// Command lines as a shell user would type them. Pure.
enum ShellQuoting {
    /// `words` joined by spaces, each quoted for a POSIX shell when it needs to be:
    /// `make -j4`, `sh -c 'echo hi'`.
    static func commandLine(_ words: [String]) -> String {
        words.map(quote).joined(separator: " ")
    }

    /// `word` as is when it holds only characters no shell treats specially, else in single quotes.
    static func quote(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "@%+=:,./_-".unicodeScalars.contains(scalar))
            }
        if plain { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }
}
