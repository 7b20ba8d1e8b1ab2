import Testing

/// Every end-to-end suite, one test at a time: each runs real programs on pseudo-terminals with
/// real time, and several at once on a small machine starve each other of the frames they wait
/// for.
@Suite(.serialized)
enum EndToEnd {}
