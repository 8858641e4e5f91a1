import Glibc

/// How to start a process with `posix_spawn`: its arguments, environment, working directory and
/// standard streams, the descriptors it inherits, and a clean signal state. The one place every
/// Strata target starts a process (`strata -- cmd`, Xwayland, ffmpeg for video, the replayer's
/// Strata, the tests' clients); nothing here waits or blocks.
public struct ProcessLaunch {
    /// Where a standard stream of the child comes from or goes to.
    public enum Stream {
        /// The parent's own stream.
        case inherit
        /// `/dev/null`.
        case null
        /// A file, created or truncated (mode 0600).
        case file(String)
        /// A descriptor of the parent, duplicated onto the stream.
        case descriptor(Int32)
    }

    /// The program and its arguments; `arguments[0]` is looked up in `PATH` when it has no '/'.
    public var arguments: [String]
    /// `NAME=value` pairs, or nil for the parent's environment.
    public var environment: [String: String]?
    /// The child's working directory (nil: the parent's).
    public var workingDirectory: String?
    public var standardInput: Stream = .inherit
    public var standardOutput: Stream = .inherit
    public var standardError: Stream = .inherit
    /// Descriptors the child keeps at the same numbers (their close-on-exec flag is cleared in
    /// the child only).
    public var inheritedDescriptors: [Int32] = []
    /// Starts the child in a process group of its own (so a test can kill it with its children).
    public var newProcessGroup = false
    /// Starts the child in this existing process group instead (ignored with `newProcessGroup`).
    public var processGroup: pid_t?

    public init(_ arguments: [String], environment: [String: String]? = nil) {
        self.arguments = arguments
        self.environment = environment
    }

    /// Starts the process; its pid. Every signal is at its default disposition and none is
    /// blocked in the child (Strata blocks the signals its loop handles, and a child would
    /// inherit that).
    public func spawn() throws(ProcessLaunchError) -> pid_t {
        guard let program = arguments.first, !program.isEmpty else {
            throw ProcessLaunchError(command: "", code: ENOENT)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let workingDirectory {
            guard let addChdir = Self.addChdir else { throw ProcessLaunchError(command: program, code: ENOSYS) }
            let result = addChdir(&actions, workingDirectory)
            guard result == 0 else { throw ProcessLaunchError(command: program, code: result) }
        }
        for (number, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .inherit: break
            case .null:
                posix_spawn_file_actions_addopen(&actions, number, "/dev/null", number == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, number, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, number)
            }
        }
        // dup2 onto itself clears close-on-exec in the child (glibc ≥ 2.29).
        for fd in inheritedDescriptors { posix_spawn_file_actions_adddup2(&actions, fd, fd) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        } else if let processGroup {
            posix_spawnattr_setpgroup(&attributes, processGroup)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { pairs in
            pairs.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let result: Int32
        if let envp {
            result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        } else {
            result = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        }
        guard result == 0 else { throw ProcessLaunchError(command: program, code: result) }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which the Glibc module does not
    /// import; looked up at run time.
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    private static let addChdir: AddChdir? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()
}
