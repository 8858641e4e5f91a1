import Foundation
import Glibc
@testable import StrataRecording
import StrataControlProtocol
import StrataServer
import StrataTrace
import Testing

/// Where a trace's requests come from (`origin`, `ProcessAncestry`): the chain of parents in
/// /proc, from real processes and from made-up ones.
@Suite struct TraceOriginTests {
    /// The built strata-ctl beside this test binary.
    static let ctl: String? = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let path = (exe as NSString).deletingLastPathComponent + "/strata-ctl"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// A control request from a child of the command (sh forks strata-ctl) is `command`; one from
    /// a process Strata did not start (strata-ctl started by the test) is `outside`.
    @Test(.enabled(if: TraceOriginTests.ctl != nil))
    func aRequestFromTheCommandsChildIsCommandAndOneFromElsewhereOutside() throws {
        let ctl = try #require(Self.ctl)
        let harness = try ControlHarness()
        let path = harness.directory + "/origin.trace"
        let recorder = try TraceRecorder(compositor: harness.server.compositor, path: path, command: ["sh"])
        harness.control.recorder = recorder
        func start(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            process.environment = [ControlProtocol.environmentVariable: harness.control.path, "PATH": "/usr/bin:/bin"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        // `; exit 0`: sh forks strata-ctl instead of becoming it.
        let command = try start(["/bin/sh", "-c", "\"$0\" windows; exit 0", ctl])
        // Told before the loop runs again, so before the connection is accepted (as Strata does).
        harness.control.processDidStart(pid: command.processIdentifier, command: ["sh"], origin: .command)
        let stranger = try start([ctl, "screens"])
        // The barrier: both have their replies and ended.
        let deadline = Date().addingTimeInterval(60)
        while command.isRunning || stranger.isRunning, Date() < deadline { harness.server.step(timeout: 0.01) }
        #expect(!command.isRunning && !stranger.isRunning)
        recorder.stop()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONValue.parse(Data($0.utf8))
        }
        let requests = lines.filter { $0["type"] == "command" }
        let fromCommand = try #require(requests.first { $0["request"]?["command"] == "windows" })
        let fromStranger = try #require(requests.first { $0["request"]?["command"] == "screens" })
        #expect(fromCommand["origin"] == "command", "\(fromCommand)")
        #expect(fromCommand["peer_pid"]?.intValue != Int(command.processIdentifier), "sent by sh's child, not sh")
        #expect(fromStranger["origin"] == "outside", "\(fromStranger)")
        #expect(fromStranger["peer_pid"]?.intValue == Int(stranger.processIdentifier))
        let started = try #require(lines.first { $0["type"] == "client" && $0["event"] == "start" })
        #expect(started["origin"] == "command" && started["pid"]?.intValue == Int(command.processIdentifier))
    }

    /// A made-up process table: 10 ← 20 ← 30 (command root 10), 40 ← 50 (exec root 40), 60 ← 1.
    static let table: [Int32: ProcessAncestry.Status] = [
        10: .init(parent: 5, startTime: 100), 20: .init(parent: 10, startTime: 101),
        30: .init(parent: 20, startTime: 102),
        40: .init(parent: 5, startTime: 103), 50: .init(parent: 40, startTime: 104),
        60: .init(parent: 1, startTime: 105),
        5: .init(parent: 1, startTime: 1),
    ]

    @Test func theFirstRootOnTheChainOfParentsGivesTheOrigin() {
        var ancestry = ProcessAncestry { Self.table[$0] }
        ancestry.add(10, as: .command)
        ancestry.add(40, as: .exec)
        ancestry.add(77, as: .exec)  // gone already: no root
        #expect(ancestry.roots.count == 2)
        #expect(ancestry.origin(of: 30, strata: 5) == .command)
        #expect(ancestry.origin(of: 10, strata: 5) == .command)
        #expect(ancestry.origin(of: 50, strata: 5) == .exec)
        #expect(ancestry.origin(of: 60, strata: 5) == .outside)
        #expect(ancestry.origin(of: 5, strata: 5) == .strata)
        #expect(ancestry.origin(of: 99, strata: 5) == .unknown, "gone")
        #expect(ancestry.origin(of: 0, strata: 5) == .unknown, "no pid")
    }

    @Test func aReusedPidIsNoRootAndALongChainIsUnknown() {
        var table = Self.table
        var ancestry = ProcessAncestry { table[$0] }
        ancestry.add(10, as: .command)
        table[10] = .init(parent: 5, startTime: 999)  // 10 ended; another process has its pid
        let reused = ancestry
        #expect(reused.origin(of: 30, strata: 5) == .outside)
        // 1000 ← 1001 ← … ← 1100: longer than the walk.
        var long: [Int32: ProcessAncestry.Status] = [1000: .init(parent: 1, startTime: 1)]
        for pid in Int32(1001)...1100 { long[pid] = .init(parent: pid - 1, startTime: 1) }
        // 64 steps: from 1062 the walk reads 1062…1000 and reaches pid 1; from 1063 it stops short.
        #expect(ProcessAncestry { long[$0] }.origin(of: 1062, strata: 5) == .outside)
        #expect(ProcessAncestry { long[$0] }.origin(of: 1063, strata: 5) == .unknown)
        #expect(ProcessAncestry { long[$0] }.origin(of: 1100, strata: 5) == .unknown)
    }

    @Test func procStatIsReadAfterTheLastParenthesis() {
        let line =
            "1234 (a) b (c)) S 77 1234 1234 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 555 12345 10 18446744073709551615\n"
        #expect(ProcessAncestry.parse(ArraySlice(line.utf8)) == .init(parent: 77, startTime: 555))
        #expect(ProcessAncestry.parse(ArraySlice("1234 (x".utf8)) == nil)
        #expect(ProcessAncestry.readStatus(getpid())?.parent == getppid())
    }
}
