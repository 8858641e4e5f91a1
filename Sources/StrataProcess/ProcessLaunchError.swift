import Glibc

/// A process that could not be started: the command and the errno `posix_spawn` gave.
public struct ProcessLaunchError: Error, CustomStringConvertible, Equatable {
    public var command: String
    public var code: Int32

    public init(command: String, code: Int32) {
        self.command = command
        self.code = code
    }

    public var reason: String { String(cString: strerror(code)) }
    public var description: String { "cannot start '\(command)': \(reason)" }
}
