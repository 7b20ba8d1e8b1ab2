// What a wait alert costs, measured next to its baselines in the same run.
//
//     swift run -c release wait-alert-bench            the full run (about 35 s)
//     swift run -c release wait-alert-bench --quick    a shorter run (about 14 s)
//     swift run -c release wait-alert-bench --check    exit 1 when a figure misses its budget
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Set(CommandLine.arguments.dropFirst())
let only = arguments.first { $0.hasPrefix("--only=") }.map { String($0.dropFirst("--only=".count)) }
let groups = [
    "update", "storm", "text", "fast", "memory", "flood", "idle", "tasks", "region", "scale", "quick-tasks",
    "estimator", "iteration", "threads", "sanitize",
]
/// The groups to run, in their usual order: `--only=fast,idle` runs two.
let chosen = only.map { Set($0.split(separator: ",").map(String.init)) }
guard arguments.subtracting(only.map { ["--only=\($0)"] } ?? []).isSubset(of: ["--quick", "--check"]),
    chosen.map({ !$0.isEmpty && $0.isSubset(of: groups) }) ?? true
else {
    print(
        "usage: wait-alert-bench [--quick] [--check] [--only=GROUP[,GROUP…]]\n"
            + "groups: \(groups.joined(separator: ", "))"
    )
    exit(2)
}

let figures = Figures(quick: arguments.contains("--quick"))
var rows: [Figure] = []
func wanted(_ name: String) -> Bool { chosen?.contains(name) ?? true }
if wanted("update") { rows += await figures.updateCost() }
if wanted("storm") { rows.append(await figures.updateStorm()) }
if wanted("text") { rows.append(await figures.textChange()) }
if wanted("fast") { rows += await figures.fastTask() }
if wanted("memory") { rows.append(await figures.memory()) }
if wanted("flood") { rows.append(await figures.logFlood()) }
if wanted("idle") { rows += await figures.idleSpinning() }
if wanted("tasks") { rows += await figures.childTaskUpdates() }
if wanted("region") { rows += await figures.regionFrames() }
if wanted("scale") { rows += await figures.childTasksAtScale() }
if wanted("quick-tasks") { rows += await figures.quickTasksUnderALimit() }
if wanted("estimator") { rows += figures.estimator() }
if wanted("iteration") { rows += await figures.iterationCost() }
if wanted("threads") { rows += await figures.threadUpdates() }
if wanted("sanitize") { rows += figures.sanitizing() }

let header = Figure(name: "figure", measured: "measured", baseline: "baseline", budget: "budget", passed: true)
let widths = [\Figure.name, \.measured, \.baseline, \.budget].map { path in
    (rows + [header]).map { $0[keyPath: path].count }.max() ?? 0
}
func line(_ row: Figure, status: String) -> String {
    let cells = [row.name, row.measured, row.baseline, row.budget].enumerated().map { index, text in
        text + String(repeating: " ", count: widths[index] - text.count)
    }
    return "| " + cells.joined(separator: " | ") + " | \(status) |"
}
print(line(header, status: "ok"))
print("|" + (widths + [2]).map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
for row in rows { print(line(row, status: row.passed ? "✔" : "✖")) }

let missed = rows.filter { !$0.passed }
if !missed.isEmpty {
    print("\n\(missed.count) figure(s) missed the budget: \(missed.map(\.name).joined(separator: ", "))")
}
exit(arguments.contains("--check") && !missed.isEmpty ? 1 : 0)
