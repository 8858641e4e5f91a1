import Glibc

/// Closing a descriptor that Strata owns. Every descriptor a client, the control socket or a
/// process hands Strata has one owner, which closes it exactly once on every path
/// (docs/reliability.md, "Descriptor ownership"): a second close of the same number closes
/// whatever was given that number in between, another client's connection or Xwayland's socket.
///
/// The owners close through `close(_:)`, so a test can see what a path closed and how many times
/// (`recordingCloses`). The log belongs to the test's task: tests run in parallel and their
/// descriptor numbers are reused at once, so only what the test's own thread closed is counted.
public enum Descriptors {
    /// The descriptors closed through `close(_:)` while it was recording, in order.
    public final class CloseLog: @unchecked Sendable {
        public fileprivate(set) var closed: [Int32] = []

        /// How many times `fd` was closed.
        public func count(of fd: Int32) -> Int { closed.reduce(0) { $0 + ($1 == fd ? 1 : 0) } }

        /// Whether no descriptor was closed twice.
        public var closedEachOnce: Bool { Set(closed).count == closed.count }
    }

    @TaskLocal private static var log: CloseLog?

    /// Closes `fd` (its owner's one close).
    public static func close(_ fd: Int32) {
        log?.closed.append(fd)
        _ = Glibc.close(fd)
    }

    /// Runs `body` (on this task, as a test steps its server) and returns what it closed.
    public static func recordingCloses(_ body: () throws -> Void) rethrows -> CloseLog {
        let recorder = CloseLog()
        try $log.withValue(recorder) { try body() }
        return recorder
    }
}
