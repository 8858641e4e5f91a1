import Foundation
import Glibc
import StrataProcess
import StrataTestSupport
import Testing

/// `ProcessLaunch` and `ExitStatus` against real processes (/bin/sh).
@Suite final class ProcessLaunchTests {
    /// The test's scratch directories, removed with the test.
    private var scratches: [ScratchFolder] = []

    /// A fresh directory for a test's files, removed with the suite.
    private func scratch() throws -> String {
        let folder = try ScratchFolder(prefix: "strata-launch")
        scratches.append(folder)
        return folder.path
    }

    private func contents(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func anExitCodeIsReportedAsTheShellDoes() throws {
        let pid = try ProcessLaunch(["/bin/sh", "-c", "exit 3"]).spawn()
        #expect(ExitStatus.wait(pid) == 3)
    }

    @Test func aProcessEndedByASignalReportsOneHundredTwentyEightPlusTheSignal() throws {
        let pid = try ProcessLaunch(["sh", "-c", "kill -9 $$"]).spawn()
        #expect(ExitStatus.wait(pid) == 137)
    }

    @Test func aStatusIsDescribedInWordsAsAnExitCodeOrASignal() {
        #expect(ExitStatus.describe(0) == "exited with status 0")
        #expect(ExitStatus.describe(3) == "exited with status 3")
        #expect(ExitStatus.describe(137) == "was killed by signal 9")
    }

    @Test func aRunningProcessIsNotReapedAndAnEndedOneIs() throws {
        // A socket pair made close-on-exec at once (a pipe() then fcntl could be inherited in
        // between by a process another test thread starts, and the end of file come only when
        // that process ends).
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        // The child waits for its standard input to close.
        var launch = ProcessLaunch(["sh", "-c", "read line; exit 5"])
        launch.standardInput = .descriptor(ends[0])
        let pid = try launch.spawn()
        close(ends[0])
        #expect(ExitStatus.reap(pid) == nil)
        close(ends[1])
        #expect(ExitStatus.wait(pid) == 5)
        #expect(ExitStatus.reap(pid) == 1, "a child already reaped reads as a lost status")
    }

    @Test func aMissingProgramIsAClearError() throws {
        #expect(throws: ProcessLaunchError(command: "strata-no-such-program", code: ENOENT)) {
            try ProcessLaunch(["strata-no-such-program"]).spawn()
        }
        #expect(
            ProcessLaunchError(command: "x", code: ENOENT).description == "cannot start 'x': No such file or directory")
        #expect(throws: ProcessLaunchError(command: "", code: ENOENT)) { try ProcessLaunch([]).spawn() }
    }

    @Test func theEnvironmentWorkingDirectoryAndStreamsAreTheOnesAskedFor() throws {
        let directory = try scratch()
        var launch = ProcessLaunch(
            ["/bin/sh", "-c", "echo \"$STRATA_PROBE $(pwd)\"; echo oops >&2"],
            environment: ["STRATA_PROBE": "probe", "PATH": "/usr/bin:/bin"])
        launch.workingDirectory = directory
        launch.standardOutput = .file(directory + "/out")
        launch.standardError = .file(directory + "/err")
        #expect(ExitStatus.wait(try launch.spawn()) == 0)
        #expect(contents(directory + "/out") == "probe \(directory)\n")
        #expect(contents(directory + "/err") == "oops\n")
    }

    @Test func aNullStandardInputReadsAsEmpty() throws {
        var launch = ProcessLaunch(["sh", "-c", "read line && exit 1; exit 0"])
        launch.standardInput = .null
        #expect(ExitStatus.wait(try launch.spawn()) == 0)
    }

    @Test func anInheritedDescriptorStaysOpenAcrossTheExecAndOthersDoNot() throws {
        var kept: [Int32] = [-1, -1]
        var closed: [Int32] = [-1, -1]
        #expect(pipe(&kept) == 0)
        #expect(pipe(&closed) == 0)
        for fd in kept + closed { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { for fd in kept + closed { close(fd) } }
        var launch = ProcessLaunch([
            "sh", "-c", "echo kept > /proc/$$/fd/\(kept[1]) && ! test -e /proc/$$/fd/\(closed[1])",
        ])
        launch.inheritedDescriptors = [kept[1]]
        #expect(ExitStatus.wait(try launch.spawn()) == 0)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(kept[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "kept\n")
    }

    @Test func theChildStartsWithNoBlockedSignalAndDefaultDispositions() throws {
        let directory = try scratch()
        // The parent blocks SIGTERM and ignores SIGUSR1, as Strata's loop does with the signals
        // it handles; the child must not inherit either.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let oldHandler = signal(SIGUSR1, SIG_IGN)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            signal(SIGUSR1, oldHandler)
        }
        var launch = ProcessLaunch(["sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"])
        launch.standardOutput = .file(directory + "/out")
        #expect(ExitStatus.wait(try launch.spawn()) == 0)
        let lines = contents(directory + "/out").split(separator: "\n")
        #expect(lines.first == "SigBlk:\t0000000000000000")
        // SIGUSR1 is signal 10: bit 9 of SigIgn.
        let ignored = lines.last.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) } ?? .max
        #expect(ignored & (1 << 9) == 0)
    }

    @Test func aNewProcessGroupIsLedByTheChild() throws {
        let directory = try scratch()
        var launch = ProcessLaunch(["sh", "-c", "cut -d ' ' -f 5 /proc/$$/stat; echo $$"])
        launch.newProcessGroup = true
        launch.standardOutput = .file(directory + "/out")
        #expect(ExitStatus.wait(try launch.spawn()) == 0)
        let lines = contents(directory + "/out").split(separator: "\n")
        #expect(lines.count == 2 && lines[0] == lines[1])
    }
}
