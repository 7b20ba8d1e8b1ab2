/// The usage text of `wait-alert`, and what it says about invalid arguments.
enum Usage {
    static let text = """
        usage: wait-alert [--title TEXT] [--success TEXT] [--status last-line|none]
                          [--show-output always|on-failure|never] [--tail N] [--timeout DURATION]
                          [--progress auto|tty|plain|json|off|accessible|agent|github|gitlab] [--] COMMAND [ARG...]
               wait-alert report [--text TEXT] [--progress N[/TOTAL]] [--log LINE] [--task TITLE -- CMD...]
               wait-alert replay [--speed N] FILE...

        Runs COMMAND under a wait alert on standard error, showing its latest output line.
        COMMAND reports into the alert with 'wait-alert report' (see wait-alert report --help),
        or prints WaitAlert events on its standard error (a program run with
        WAIT_ALERT_PROGRESS=json, here or through ssh, docker exec or kubectl exec): its alerts
        show as rows of this one.
        Only output bound for that terminal is shown; output to a file, a pipe or another
        terminal passes through unchanged (but for event lines, and standard error folded in
        the alert's group with --progress github or gitlab).

          --title TEXT        the alert's title (default, and for a blank TEXT: the command line)
          --success TEXT      the final text on success (default: the title)
          --status MODE       last-line (default): the latest output line; none: the title only
          --show-output WHEN  on-failure (default): the last lines when the command fails;
                              always: every line as it comes; never: only the final line
          --tail N            how many lines on failure (default: 10)
          --timeout DURATION  stop the command after 500ms, 30s, 2m, 1h... and exit with 124
          --progress MODE     auto (default: WAIT_ALERT_PROGRESS, else a spinner on a terminal
                              and plain lines elsewhere); tty: the spinner on any terminal;
                              plain: lines; json: one JSON event per line; off: failures only;
                              accessible: lines without motion (also ACCESSIBLE=1);
                              agent: failures and final lines only, for AI agents (chosen
                              when CLAUDECODE, CODEX_SANDBOX, GEMINI_CLI, CURSOR_AGENT,
                              OPENCODE or CLINE_ACTIVE is set); github, gitlab: lines folded
                              in groups (chosen when GITHUB_ACTIONS or GITLAB_CI is true)
          -h, --help          print this help
          --version           print the version

        Exit status: the command's; 128+n when signal n ended it; 124 on timeout;
        127 when it cannot be started; 2 for invalid arguments.
        Ctrl-C and SIGTERM are passed on to the command's process group; if it has not ended
        3 seconds later, or at a second Ctrl-C, it is killed. Ctrl-Z stops the command with
        wait-alert; fg and bg continue both.
        """

    /// What `wait-alert` writes to standard error for invalid arguments: the problem, and where to
    /// read more. Two lines, each ended.
    static func invalid(_ problem: String) -> String {
        "wait-alert: \(problem)\nTry 'wait-alert --help' for more information.\n"
    }
}
