/// The version of `wait-alert` and of the package it is built from, as `wait-alert --version`
/// prints it.
///
/// A released version (`0.1.0`) is the one whose section `CHANGELOG.md` has and whose tag the
/// README's installation snippet names; between releases it is the next version with `-dev`.
enum Version {
    static let number = "0.1.0-dev"

    /// `wait-alert 0.1.0`.
    static let line = "wait-alert \(number)"
}
