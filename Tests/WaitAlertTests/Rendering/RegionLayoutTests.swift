import Testing

@testable import WaitAlert

/// Which rows a region shows when they do not all fit, as a pure function.
@Suite("Region layout")
struct RegionLayoutTests {
    typealias Row = RegionLayout.Row<WaitAlertID>

    /// A group header and `count` child rows, the children made by `state(index)`.
    static func group(_ count: Int, state: (Int) -> Row.State) -> (header: WaitAlertID, rows: [Row]) {
        let header = WaitAlertID()
        return (
            header,
            [Row(id: header, parent: nil, state: .running)]
                + (0..<count).map { Row(id: WaitAlertID(), parent: header, state: state($0)) }
        )
    }

    @Test func everythingShowsWhenItFits() {
        let (_, rows) = Self.group(5) { _ in .running }
        let layout = RegionLayout.layout(rows, budget: 23)
        #expect(layout.rows == rows.map(\.id) && layout.hidden == nil)
    }

    @Test func whenRowsRunOutTheHeaderFailuresAndTheOldestRunningRowsStay() {
        let (header, rows) = Self.group(50) { index in
            index == 30 ? .failed : index < 10 ? .finished(at: .seconds(index)) : .running
        }
        let layout = RegionLayout.layout(rows, budget: 11)
        #expect(layout.rows.count == 10, "ten rows and the summary fill the eleven lines")
        #expect(layout.rows.first == header)
        #expect(layout.rows.contains(rows[31].id), "the failed row stays")
        // The header, the failed row, then the running rows that began first.
        #expect(Array(layout.rows.filter { $0 != header && $0 != rows[31].id }) == rows[11..<19].map(\.id))
        #expect(layout.hidden == RegionLayout.Hidden(running: 39 - 8, finished: 10))
        #expect(RegionLayout.summary(layout.hidden!) == "… 31 more running, 10 done")
    }

    /// Work waiting that has no row (tasks waiting for a slot) takes the summary line alone,
    /// whether the rows fit or not.
    @Test func workWaitingWithoutARowIsCountedInTheSummary() {
        let (_, few) = Self.group(4) { _ in .running }
        let fits = RegionLayout.layout(few, budget: 23, unlistedPending: 3272)
        #expect(fits.rows == few.map(\.id), "every row, and a line for the count")
        #expect(fits.hidden == RegionLayout.Hidden(pending: 3272))
        #expect(RegionLayout.summary(fits.hidden!) == "… 3272 pending")
        let tight = RegionLayout.layout(few, budget: 5, unlistedPending: 3272)
        #expect(tight.rows == few.prefix(4).map(\.id), "the last line is the summary's")
        #expect(tight.hidden == RegionLayout.Hidden(running: 1, pending: 3272))
        let (_, many) = Self.group(30) { index in index < 10 ? .pending : .running }
        let full = RegionLayout.layout(many, budget: 11, unlistedPending: 100)
        #expect(full.rows.count == 10)
        #expect(full.hidden == RegionLayout.Hidden(running: 11, pending: 110), "\(full.hidden!)")
    }

    @Test func aNewRowDoesNotPushARunningRowOut() {
        var (_, rows) = Self.group(30) { _ in .running }
        let before = RegionLayout.layout(rows, budget: 8).rows
        rows.append(Row(id: WaitAlertID(), parent: rows[0].id, state: .running))
        #expect(RegionLayout.layout(rows, budget: 8).rows == before)
    }

    @Test func aNestedRowBringsItsParent() {
        let (header, rows) = Self.group(20) { _ in .finished(at: .zero) }
        let child = Row(id: WaitAlertID(), parent: rows[15].id, state: .failed)
        let layout = RegionLayout.layout(rows + [child], budget: 4)
        #expect(layout.rows == [header, rows[15].id, child.id])
    }

    @Test func pendingStepsGiveWayToEverythingElse() {
        let (header, rows) = Self.group(12) { index in
            index < 6 ? .pending : index == 6 ? .finished(at: .seconds(1)) : .running
        }
        let layout = RegionLayout.layout(rows, budget: 8)
        #expect(layout.rows == [header] + rows[7...].map(\.id), "in tree order: \(layout.rows)")
        #expect(layout.hidden == RegionLayout.Hidden(running: 0, finished: 0, pending: 6))
        #expect(RegionLayout.summary(layout.hidden!) == "… 6 pending")
        let roomy = RegionLayout.layout(rows, budget: 20)
        #expect(roomy.rows.count == 13 && roomy.hidden == nil)
    }

    /// Over random trees and budgets: never more lines than the budget, ancestors always shown,
    /// tree order kept, and the summary counts what is left out.
    @Test func layoutInvariants() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<3_000 {
            var rows: [Row] = []
            for _ in 0..<(1 + rng.next(below: 120)) {
                let parent = rows.isEmpty || rng.next(below: 6) == 0 ? nil : rows[rng.next(below: rows.count)].id
                let state: Row.State =
                    switch rng.next(below: 5) {
                    case 0: .failed
                    case 4: .pending
                    case 1: .finished(at: .milliseconds(rng.next(below: 5000)))
                    default: .running
                    }
                rows.append(Row(id: WaitAlertID(), parent: parent, state: state))
            }
            let budget = 1 + rng.next(below: 40)
            let layout = RegionLayout.layout(rows, budget: budget)
            let lines = layout.rows.count + (layout.hidden == nil ? 0 : 1)
            #expect(lines <= budget)
            let shown = Set(layout.rows)
            let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
            for id in layout.rows where budget > 1 {
                if let parent = byID[id]?.parent { #expect(shown.contains(parent), "ancestors shown") }
            }
            let order = RegionLayout.treeOrder(rows).map(\.id).filter(shown.contains)
            #expect(layout.rows == order)
            if let hidden = layout.hidden {
                #expect(hidden.running + hidden.finished + hidden.pending == rows.count - layout.rows.count)
            } else {
                #expect(layout.rows.count == rows.count || budget <= 1)
            }
        }
    }
}
