/// The steps planned under an alert that have not shown yet, in the order they were planned.
///
/// Planning a step, finding one by its title and taking the first of a title out each cost the
/// same however many steps are planned, and listing the first few costs only those: ten thousand
/// planned steps cost a count where the region has no line for them.
///
/// The steps are a list linked through arrays (a step's index is its place in ``titles``): the
/// step of a title leaves in constant time wherever it is, and each title links the steps that
/// carry it, so the first of a title is found at once, however many share it.
struct PlannedSteps {
    /// Every title planned since the list was last empty, by index.
    private var titles: [String] = []
    /// The next and the previous step still planned, by index (`-1`: none).
    private var next: [Int] = []
    private var previous: [Int] = []
    /// The next step of the same title, by index (`-1`: none).
    private var nextOfTitle: [Int] = []
    /// The first and last step still planned.
    private var first = -1
    private var last = -1
    /// The first and last step still planned of each title.
    private var byTitle: [String: (first: Int, last: Int)] = [:]

    /// How many steps are planned.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Plans `steps` after those planned already.
    mutating func append(contentsOf steps: some Sequence<String>) {
        for title in steps { append(title) }
    }

    /// Plans `title` after the steps planned already.
    mutating func append(_ title: String) {
        let index = titles.count
        titles.append(title)
        next.append(-1)
        previous.append(last)
        nextOfTitle.append(-1)
        if last >= 0 { next[last] = index } else { first = index }
        last = index
        if let known = byTitle[title] {
            nextOfTitle[known.last] = index
            byTitle[title] = (known.first, index)
        } else {
            byTitle[title] = (index, index)
        }
        count += 1
    }

    /// Whether a step titled `title` is planned.
    func contains(_ title: String) -> Bool { byTitle[title] != nil }

    /// Takes the first planned step titled `title` out; returns whether there was one.
    @discardableResult
    mutating func removeFirst(_ title: String) -> Bool {
        guard let known = byTitle[title] else { return false }
        let index = known.first
        let following = nextOfTitle[index]
        byTitle[title] = following < 0 ? nil : (following, known.last)
        let (before, after) = (previous[index], next[index])
        if before >= 0 { next[before] = after } else { first = after }
        if after >= 0 { previous[after] = before } else { last = before }
        count -= 1
        if count == 0 { self = PlannedSteps() }
        return true
    }

    /// The first `limit` planned steps, in order.
    func prefix(_ limit: Int) -> [String] {
        var listed: [String] = []
        listed.reserveCapacity(min(max(limit, 0), count))
        var index = first
        while index >= 0, listed.count < limit {
            listed.append(titles[index])
            index = next[index]
        }
        return listed
    }
}
