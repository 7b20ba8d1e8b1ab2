#!/usr/bin/env python3
"""Check that the folders of Sources/WaitAlert depend on each other only downward, and their files
too.

Each folder is a layer. A folder depends on another when one of its files names a type, a free
function or a global declared at the top level of a file in the other folder (comments and
string literals do not count). The script prints the graph it found and fails when an edge is not
in ALLOWED, or when the graph has a cycle.

Files that import the C library must be in SYSTEM_FOLDERS or listed in C_IMPORT_EXCEPTIONS. Files in
TERMINAL_HOLDERS reach the terminal through `TerminalSession`: they may not name TERMINAL_INTERNALS.

Files are checked the same way: a type's files (`Type.swift` and its extensions `Type+Concern.swift`)
are one unit, and no two units may name each other's declarations, directly or through others.

Usage: .ci/check-layers.py
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "WaitAlert")

# Arrows run downward: API is the composition root; Process, Text and Timeline are the floor.
# Subprocess (a command run under an alert) sits on Terminal, beside Overlay.
ALLOWED = {
    "API": {
        "Presentation", "Prompting", "Reporting", "Rendering", "Overlay", "Remote", "Terminal", "Text", "Timeline",
        "Process", "Subprocess",
    },
    "Remote": {"Presentation", "Prompting", "Reporting", "Rendering", "Terminal", "Text", "Timeline", "Process"},
    "Presentation": {"Prompting", "Reporting", "Rendering", "Timeline", "Process"},
    "Overlay": {"Prompting", "Rendering", "Terminal", "Text", "Timeline", "Process"},
    "Terminal": {"Text", "Process"},
    "Prompting": {"Text"},
    "Rendering": {"Prompting", "Text", "Timeline"},
    "Reporting": {"Timeline", "Process"},
    "Subprocess": {"Terminal", "Text", "Process"},
    "Text": set(),
    "Timeline": set(),
    "Process": set(),
}

# The system's floor: the one folder whose files may import the C library. Above it a file calls
# `Platform` (Process/) instead; the files listed after still import it, each for its reason.
SYSTEM_FOLDERS = {"Process"}
C_IMPORT_EXCEPTIONS = {
    # `exp`: the standard library has no exponential, and the estimator is pure (a floor itself).
    "Timeline/WaitAlertRateEstimator.swift",
    # `pthread_self` inside `advance`, which is inlined into callers.
    "Reporting/ReportMailbox+Counts.swift",
}
# The terminal's internals: its shared state and the parts behind the terminal session. The layers
# that hold the terminal (the overlay, questions, the line modes) and the composition root reach
# it through `TerminalSession` only; Subprocess (beside the overlay, on the terminal) runs the
# commands' process groups with it.
TERMINAL_INTERNALS = {"TerminalGuard", "TerminalState", "OutputRelay", "ForcedExitLines", "ProcessGroupGuard"}
TERMINAL_HOLDERS = {"Overlay", "API", "Presentation", "Remote", "Prompting", "Rendering", "Reporting"}

C_IMPORT = re.compile(r"^\s*(?:public |package |@preconcurrency )*import (?:Glibc|Musl|Darwin|Android|WinSDK)\b", re.M)

# A top-level declaration another file can name (private and fileprivate ones cannot).
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:public|package|internal|private|fileprivate|final|nonisolated)\s+)*)"
    r"(?:class|struct|enum|protocol|actor|typealias|func|let|var)\s+([A-Za-z_]\w*)",
    re.M,
)


def strip(source):
    """The source without comments and string literals."""
    source = re.sub(r'"""(?:.|\n)*?"""', '""', source)
    source = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)
    source = re.sub(r"/\*(?:.|\n)*?\*/", "", source)
    return re.sub(r"//[^\n]*", "", source)


def acyclic(graph):
    """Whether `graph` (folder -> folders it may depend on) has no cycle."""
    done, visiting = set(), set()

    def visit(node):
        if node in done:
            return True
        if node in visiting:
            return False
        visiting.add(node)
        ok = all(visit(other) for other in graph.get(node, ()))
        visiting.discard(node)
        done.add(node)
        return ok

    return all(visit(node) for node in graph)


def unit(name):
    """The unit a file belongs to: its type, for `Type.swift` and `Type+Concern.swift`."""
    return name[: -len(".swift")].split("+")[0]


def file_cycles(files):
    """The loops between units (a type's files) that name each other's top-level declarations."""
    declared = {}
    sources = {}
    for entries in files.values():
        for name, source in entries:
            sources.setdefault(unit(name), []).append(source)
            for match in DECLARATION.finditer(source):
                if "private" not in match.group(1):
                    declared.setdefault(match.group(2), unit(name))
    graph = {}
    for node, texts in sources.items():
        names = set()
        for text in texts:
            names |= set(re.findall(r"\b[A-Za-z_]\w*\b", text))
        graph[node] = sorted({declared[n] for n in names if n in declared and declared[n] != node})
    # Tarjan's strongly connected components.
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def connect(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(" <-> ".join(sorted(component)))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return cycles


def main():
    folders = sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)) and not d.endswith(".docc"))
    unknown = [f for f in folders if f not in ALLOWED]
    if unknown:
        print(f"error: folders without a layer in .ci/check-layers.py: {unknown}")
        return 1
    files = {f: [] for f in folders}
    declared = {}
    importers = []
    for folder in folders:
        for directory, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if name.endswith(".swift"):
                    with open(os.path.join(directory, name), encoding="utf-8") as handle:
                        raw = handle.read()
                    source = strip(raw)
                    if C_IMPORT.search(raw):
                        importers.append(os.path.relpath(os.path.join(directory, name), ROOT))
                    files[folder].append((name, source))
                    for match in DECLARATION.finditer(source):
                        if "private" not in match.group(1):
                            declared.setdefault(match.group(2), folder)
    edges = {}
    for folder, sources in files.items():
        for name, source in sources:
            for identifier in set(re.findall(r"\b[A-Za-z_]\w*\b", source)):
                other = declared.get(identifier)
                if other and other != folder:
                    edges.setdefault((folder, other), set()).add(f"{name}: {identifier}")
    failed = False
    for folder in folders:
        targets = sorted(other for (source, other) in edges if source == folder)
        print(f"{folder} -> {', '.join(targets) or '(nothing)'}")
        for other in targets:
            if other not in ALLOWED[folder]:
                failed = True
                uses = ", ".join(sorted(edges[(folder, other)])[:5])
                print(f"  error: {folder} must not depend on {other} ({uses})")
    for folder in sorted(TERMINAL_HOLDERS & set(folders)):
        for name, source in files[folder]:
            named = sorted(TERMINAL_INTERNALS & set(re.findall(r"\b[A-Za-z_]\w*\b", source)))
            if named:
                failed = True
                print(f"  error: {folder}/{name} names the terminal's internals ({', '.join(named)}): "
                      "ask the TerminalSession")
    if not acyclic(ALLOWED):
        print("error: the allowed layers have a cycle")
        failed = True
    for cycle in file_cycles(files):
        failed = True
        print(f"  error: files name each other in a loop: {cycle}")
    outside = sorted(
        path for path in importers
        if path.split(os.sep)[0] not in SYSTEM_FOLDERS and path not in C_IMPORT_EXCEPTIONS
    )
    for path in outside:
        failed = True
        print(f"  error: {path} imports the C library above the system's floor (call Platform instead)")
    print(f"files that import the C library: {len(importers)} ({len(importers) - len(outside)} allowed)")
    if failed:
        return 1
    print("layers: every arrow runs downward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
