/// The earlier of two instants that may be missing; `nil` only when both are. How a step combines
/// its deadlines without making an array for them on every step.
func earliest(_ first: Duration?, _ second: Duration?) -> Duration? {
    guard let first else { return second }
    guard let second else { return first }
    return min(first, second)
}
