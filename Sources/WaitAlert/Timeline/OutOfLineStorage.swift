/// A value kept in a box of its own, so that a value holding it takes a pointer's room: for the
/// parts of a snapshot, a timeline or a row that most alerts never have. Immutable; a change
/// boxes the new value.
indirect enum OutOfLine<Value: Hashable & Sendable>: Hashable, Sendable {
    case value(Value)

    /// The value in the box.
    var unboxed: Value {
        switch self {
        case .value(let value): value
        }
    }
}

/// An optional value kept out of line (see ``OutOfLine``): the property it wraps takes a pointer's
/// room, and none at all while it is `nil`. For the optional parts of a value most instances never
/// have; equal and hashed as the value it holds. (A public property cannot take it, its type being
/// internal: ``WaitAlertSnapshot`` boxes its own with ``OutOfLine``.)
@propertyWrapper
@usableFromInline
struct OutOfLineOptional<Value: Hashable & Sendable>: Hashable, Sendable {
    private var storage: OutOfLine<Value>?

    init(wrappedValue: Value?) {
        storage = wrappedValue.map(OutOfLine.value)
    }

    @usableFromInline var wrappedValue: Value? {
        get { storage?.unboxed }
        set { storage = newValue.map(OutOfLine.value) }
    }
}

/// A timing kept out of line, shared by the timelines that follow it: a group's rows all follow
/// their alert's, so ten thousand rows hold one timing instead of ten thousand copies.
final class SharedTiming: Sendable {
    let timing: WaitAlertTiming

    init(_ timing: WaitAlertTiming) {
        self.timing = timing
    }
}

/// A value kept out of line, with value semantics: copies share one storage until one of them
/// changes, which then takes a storage of its own. For the parts of a timeline that a running
/// alert does not have yet, changed in place once it has them.
struct CopyOnWrite<Value: Sendable>: @unchecked Sendable {
    // Unchecked: the storage changes only through `value`'s `_modify`, and only while this is
    // its one reference, so no copy that another thread may read ever sees it change.
    private final class Storage {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var storage: Storage

    init(_ value: Value) {
        storage = Storage(value)
    }

    var value: Value {
        get { storage.value }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
            yield &storage.value
        }
    }
}
