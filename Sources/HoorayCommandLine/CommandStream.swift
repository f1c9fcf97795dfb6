import Foundation
import HoorayKit

/// Where a listing command writes its output as it reads its records, rather than in one reply:
/// `hooray moments` with a hundred thousand moments starts printing at once and holds one page.
///
/// `hooray` sets one for a command whose ``CommandSpec/streams`` is `true` while it runs the
/// command in its own process; it writes to the terminal (through a pager, when there is one) or
/// to the pipe. Elsewhere, such as in `hoorayd` or a test, there is none, and the command answers
/// with a whole ``CommandReply`` as any other does:
///
/// ```swift
/// if let stream = CommandStream.current {
///     try await book.forEachNewestFirst { moment in
///         stream.write(line(for: moment) + "\n")
///         return true
///     }
///     return CommandReply()
/// }
/// ```
///
/// With `--json` a stream must still print what `CommandReply.json` would: one JSON document,
/// such as an array written element by element.
public final class CommandStream: Sendable {
    /// The stream of the command running in this task, if `hooray` gave it one.
    @TaskLocal public static var current: CommandStream?

    private let sink: @Sendable (String) -> Void
    private let wrote = LockedFlag()

    /// Creates a stream that hands what is written to `sink`, in order.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Writes text as it is; add the newlines.
    public func write(_ text: String) {
        wrote.set()
        sink(text)
    }

    /// Whether anything was written: then the reply's text and JSON are not printed.
    public var isUsed: Bool { wrote.isSet }
}

/// A flag set once, read from any thread.
final class LockedFlag: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
