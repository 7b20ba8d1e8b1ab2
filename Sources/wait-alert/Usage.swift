/// The usage text of `wait-alert`.
enum Usage {
    static let text = """
        usage: wait-alert [--title TEXT] [--success TEXT] [--status last-line|none]
                          [--show-output always|on-failure|never] [--tail N] [--timeout DURATION]
                          [--] COMMAND [ARG...]

        Runs COMMAND under a wait alert on standard error, showing its latest output line.
        Its standard output is passed through unchanged unless it would reach a terminal.

          --title TEXT        the alert's title (default: the command line)
          --success TEXT      the final text on success (default: the title)
          --status MODE       last-line (default): the latest output line; none: the title only
          --show-output WHEN  on-failure (default): the last lines when the command fails;
                              always: every line as it comes; never: only the final line
          --tail N            how many lines on failure (default: 10)
          --timeout DURATION  stop the command after 500ms, 30s, 2m, 1h... and exit with 124
          -h, --help          print this help

        Exit status: the command's; 128+n when signal n ended it; 124 on timeout;
        127 when it cannot be started; 2 for invalid arguments.
        Ctrl-C and SIGTERM are passed on to the command's process group; if it has not ended
        3 seconds later, or at a second Ctrl-C, it is killed.
        """
}
