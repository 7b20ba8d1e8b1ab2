// Control sequences (CSI): cursor motion, erasing, private modes; `CSI m` is in Screen+GraphicRendition.swift.

extension InMemoryTerminal.Screen {
    /// Applies a control sequence; returns `false` when it is not supported.
    mutating func apply(_ sequence: InMemoryTerminal.ControlSequence) -> Bool {
        guard sequence.intermediates.isEmpty else { return false }
        switch sequence.privateMarker {
        case nil:
            break
        case UInt8(ascii: "?"):
            return setPrivateModes(sequence)
        default:
            return false
        }
        if sequence.final == UInt8(ascii: "m") {
            return selectGraphicRendition(sequence.parameters)
        }
        guard !sequence.hasSubparameters else { return false }
        let count = sequence.parameters.count
        switch sequence.final {
        case UInt8(ascii: "A") where count <= 1:
            if sequence.count(at: 0) > cursorRow { trace.clampedUp(from: cursorRow, by: sequence.count(at: 0)) }
            moveCursor(row: cursorRow - sequence.count(at: 0), column: cursorColumn)
        case UInt8(ascii: "B") where count <= 1:
            moveCursor(row: cursorRow + sequence.count(at: 0), column: cursorColumn)
        case UInt8(ascii: "C") where count <= 1:
            moveCursor(row: cursorRow, column: cursorColumn + sequence.count(at: 0))
        case UInt8(ascii: "D") where count <= 1:
            moveCursor(row: cursorRow, column: cursorColumn - sequence.count(at: 0))
        case UInt8(ascii: "G") where count <= 1:
            moveCursor(row: cursorRow, column: sequence.count(at: 0) - 1)
        case UInt8(ascii: "H") where count <= 2, UInt8(ascii: "f") where count <= 2:
            moveCursor(row: sequence.count(at: 0) - 1, column: sequence.count(at: 1) - 1)
        case UInt8(ascii: "K") where count <= 1:
            return eraseInLine(mode: sequence.value(at: 0) ?? 0)
        case UInt8(ascii: "J") where count <= 1:
            return eraseInDisplay(mode: sequence.value(at: 0) ?? 0)
        case UInt8(ascii: "s") where count == 0:
            saveCursor()
        case UInt8(ascii: "u") where count == 0:
            restoreCursor()
        default:
            return false
        }
        return true
    }

    /// `CSI ? … h` and `CSI ? … l`; returns `false` when any mode is not supported.
    private mutating func setPrivateModes(_ sequence: InMemoryTerminal.ControlSequence) -> Bool {
        let isSet: Bool
        switch sequence.final {
        case UInt8(ascii: "h"): isSet = true
        case UInt8(ascii: "l"): isSet = false
        default: return false
        }
        guard !sequence.parameters.isEmpty, !sequence.hasSubparameters else { return false }
        var isSupported = true
        for index in sequence.parameters.indices {
            switch sequence.value(at: index) {
            case 7:
                autowraps = isSet
                if !isSet { isWrapPending = false }
            case 25:
                isCursorVisible = isSet
            case 2004:
                isPasteBracketed = isSet
            case 2026:
                // Synchronized output: a frame applied at once. Applied as it comes here; only
                // whether the blocks balance is kept.
                if isSet, !isSynchronizing { synchronizedUpdates += 1 }
                isSynchronizing = isSet
            default:
                isSupported = false
            }
        }
        return isSupported
    }

    // MARK: Erasing

    /// Blanks `range` of `row`; a line erased to its end no longer continues on the next one.
    private mutating func erase(row: Int, columns range: Range<Int>) {
        guard !range.isEmpty else { return }
        trace.touch(row: scrollback.count + row)
        if range.count == columns {
            grid[row] = InMemoryTerminal.Line(columns: columns)
            return
        }
        // Blanking the two ends blanks the other half of any wide character the range cuts.
        put(.blank, row: row, column: range.lowerBound)
        put(.blank, row: row, column: range.upperBound - 1)
        for column in range.dropFirst().dropLast() {
            grid[row].cells[column] = .blank
        }
        if range.upperBound == columns {
            grid[row].wrapColumn = nil
        }
    }

    private mutating func eraseInLine(mode: Int) -> Bool {
        switch mode {
        case 0: erase(row: cursorRow, columns: cursorColumn..<columns)
        case 1: erase(row: cursorRow, columns: 0..<(cursorColumn + 1))
        case 2: erase(row: cursorRow, columns: 0..<columns)
        default: return false
        }
        isWrapPending = false
        return true
    }

    private mutating func eraseInDisplay(mode: Int) -> Bool {
        let rowsToErase: Range<Int>
        switch mode {
        case 0:
            erase(row: cursorRow, columns: cursorColumn..<columns)
            rowsToErase = (cursorRow + 1)..<rows
        case 1:
            erase(row: cursorRow, columns: 0..<(cursorColumn + 1))
            rowsToErase = 0..<cursorRow
        case 2:
            rowsToErase = 0..<rows
        default:
            return false
        }
        for row in rowsToErase {
            erase(row: row, columns: 0..<columns)
        }
        isWrapPending = false
        return true
    }
}
