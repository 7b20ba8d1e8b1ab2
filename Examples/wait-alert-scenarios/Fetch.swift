import WaitAlert

/// `wait-alert-scenarios fetch [--fail]`: a tool that runs a subprocess under its alert with
/// `alert.run` — a shell script that starts a helper in the background, then fetches 20 mirrors,
/// each with a `\r` progress line and a line when done. Its lines are the alert's text; Ctrl-C
/// stops its whole process group (the helper too); with `--fail` it fails at the end, and its
/// last lines show above the failure.
enum Fetch {
    static let script = """
        sleep 60 &
        i=1
        while [ $i -le 20 ]; do
          printf 'fetching mirror %s: 50%%\\r' "$i"
          sleep 0.15
          echo "fetched mirror $i"
          i=$((i + 1))
        done
        """

    @MainActor static func run(failing: Bool) async throws {
        let failure = "\necho 'mirror 21: connection refused' >&2\nexit 7"
        try await withWaitAlert("Fetching mirrors", success: "Fetched 20 mirrors") { alert in
            try await alert.run("sh", "-c", script + (failing ? failure : "\nkill $!"))
        }
    }
}
