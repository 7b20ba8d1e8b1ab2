#!/usr/bin/env python3
"""The long run of the time-left figures through the real tqdm, rich and alive-progress.

wait-alert-bench re-implements these libraries' estimators (Benchmarks/wait-alert-bench:
TqdmEstimator, RichEstimator, AliveProgressEstimator). This script checks the re-implementations
against the libraries themselves: it plays the bench's "long run" (2,000 units, 10 ms a unit for
the first 40 %, then 25 ms a unit) through them and prints the time left each shows as 25, 50, 75
and 90 % of the work is reported: on its own screen, and its estimate rounded as a WaitAlert row
rounds it (the bench reads every estimator through that display). rich's estimate is whole
seconds already; alive-progress's is read off its screen.

    python3 -m venv /tmp/baselines && /tmp/baselines/bin/pip install tqdm rich alive-progress
    /tmp/baselines/bin/python Benchmarks/estimator-baselines.py            # tqdm and rich
    /tmp/baselines/bin/python Benchmarks/estimator-baselines.py --alive    # and alive-progress (38 s)

tqdm and rich run on a clock the script moves, so their figures are exact and the same on every
run; alive-progress draws from a thread of its own on the real clock, so it plays the run in real
time (38 s) and its figures vary a little from run to run.

Two ways of reporting are played: the bench's (the units done so far, every 50 to 150 ms, as a
WaitAlert row gets them once a frame) and one update per unit, as a loop calls these libraries.
"""
import io
import math
import sys
import time

UNITS = 2000
QUARTERS = (25, 50, 75, 90)


def split_mix(seed):
    """The bench's SplitMix64."""
    mask = (1 << 64) - 1
    state = seed & mask
    while True:
        state = (state + 0x9E3779B97F4A7C15) & mask
        value = state
        value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & mask
        value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & mask
        yield value ^ (value >> 31)


def bench_reports():
    """EstimatorTrace.continuous("long run", total: 2_000, seed: 5): (seconds, units) pairs."""
    random = split_mix(5)
    reports = [(0, 0)]
    instant, done, since = 0, 0.0, 0
    gap = 50 + next(random) % 101
    while math.floor(done) < UNITS:
        done += (100 if instant < 8000 else 40) * 0.001
        instant += 1
        since += 1
        if since < gap and math.floor(done) < UNITS:
            continue
        completed = min(math.floor(done), UNITS)
        if completed > reports[-1][1]:
            reports.append((instant, completed))
        since = 0
        gap = 50 + next(random) % 101
    return [(milliseconds / 1000, units) for milliseconds, units in reports]


def unit_reports():
    """One update per unit, at the instant it is done."""
    return [(0.0, 0)] + [(0.01 * unit if unit <= 800 else 8 + 0.025 * (unit - 800), unit) for unit in range(1, UNITS + 1)]


class Clock:
    """A clock the script moves."""

    now = 0.0

    def __call__(self):
        return self.now


def quarter_instants(reports):
    return [next(at for at, units in reports if units * 100 >= UNITS * share) for share in QUARTERS]


def play_tqdm(reports):
    import tqdm.std

    clock = Clock()
    tqdm.std.time = clock  # tqdm reads the time through this name
    tqdm.std.tqdm.monitor_interval = 0
    drawn = []
    format_meter = tqdm.std.tqdm.format_meter

    def recording(n, total, elapsed, *arguments, rate=None, **keywords):
        # The time left tqdm draws, before its display drops the fraction of a second.
        drawn.append((total - n) / rate if rate else None)
        return format_meter(n, total, elapsed, *arguments, rate=rate, **keywords)

    tqdm.std.tqdm.format_meter = staticmethod(recording)
    screen = io.StringIO()
    bar = tqdm.std.tqdm(total=UNITS, file=screen, ascii=True)
    shown = {}
    quarters = quarter_instants(reports)
    done = 0
    for at, units in reports[1:]:
        clock.now = at
        bar.update(units - done)
        done = units
        if at in quarters:
            line = screen.getvalue().split("\r")[-1]
            shown[at] = (line.split("<")[1].split(",")[0], drawn[-1])  # [elapsed<remaining, rate]
    bar.close()
    tqdm.std.tqdm.format_meter = format_meter
    return [shown[at] for at in quarters]


def play_rich(reports):
    from rich.console import Console
    from rich.progress import Progress, TimeRemainingColumn

    clock = Clock()
    progress = Progress(get_time=clock, auto_refresh=False, console=Console(file=io.StringIO()))
    column = TimeRemainingColumn()
    task_id = progress.add_task("work", total=UNITS)
    task = progress._tasks[task_id]
    quarters = quarter_instants(reports)
    shown, drawn, refresh, done = {}, None, 1, 0
    for at, units in reports[1:]:
        while refresh / 10 <= at + 1e-9:  # a live display refreshes ten times a second
            clock.now = refresh / 10
            drawn = str(column(task))
            refresh += 1
        clock.now = at
        progress.advance(task_id, units - done)
        done = units
        if at in quarters:
            hours, minutes, seconds = drawn.split(":")
            shown[at] = (drawn, 3600 * int(hours) + 60 * int(minutes) + int(seconds))
    return [shown[at] for at in quarters]


def play_alive(reports):
    from alive_progress import alive_bar

    quarters = quarter_instants(reports)
    shown, done = {}, 0
    with alive_bar(UNITS, file=io.StringIO(), force_tty=True) as bar:
        start = time.perf_counter()
        for at, units in reports[1:]:
            while time.perf_counter() - start < at:
                time.sleep(min(at - (time.perf_counter() - start), 0.005))
            bar(units - done)
            done = units
            if at in quarters:
                text = bar.eta  # the time left on its screen, `~13s`
                shown[at] = (text, float(text.strip("~s")))
    return [shown[at] for at in quarters]


def row(seconds):
    """The time left as a WaitAlert row shows it below a minute: the nearest second, at least 1."""
    if seconds is None:
        return "none"
    return f"{max(math.floor(seconds + 0.5), 1)}s"


def main():
    libraries = [("tqdm", play_tqdm), ("rich", play_rich)]
    if "--alive" in sys.argv:
        libraries.append(("alive-progress", play_alive))
    end = 38.0
    for name, reports in (("the bench's reports", bench_reports()), ("an update per unit", unit_reports())):
        end = reports[-1][0]
        truths = ", ".join(f"{end - at:.1f}" for at in quarter_instants(reports))
        print(f"{name}: the time left at 25/50/75/90 % of the work (truth {truths} s)")
        for library, play in libraries:
            shown = play(reports)
            screen = ", ".join(text for text, _ in shown)
            rounded = ", ".join(row(seconds) for _, seconds in shown)
            print(f"  {library:15} its screen: {screen:40} as a row rounds it: {rounded}")


if __name__ == "__main__":
    main()
