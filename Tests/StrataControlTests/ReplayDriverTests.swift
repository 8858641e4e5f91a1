import Foundation
import StrataControlProtocol
import StrataTrace
import Testing

/// `ReplayDriver` on hand-written traces: which of the recorded command and the recorded
/// requests drives a replay, which requests are replayed, and when the trace cannot tell.
@Suite struct ReplayDriverTests {
    static let shCommand = #"["sh","-c","strata-ctl exec -- foot --app-id one; sleep 1.5"]"#

    func trace(command: String? = ReplayDriverTests.shCommand, _ lines: [String]) throws -> TraceFile {
        let field = command.map { #","command":\#($0)"# } ?? ""
        let header =
            #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[],"sequence":0\#(field)}"#
        return try TraceFile(data: Data(([header] + lines).joined(separator: "\n").utf8), name: "t")
    }

    /// The `client start` line of the command (pid 100).
    let start = #"{"type":"client","event":"start","pid":100,"command":["sh"],"origin":"command","sequence":0}"#

    func connect(_ client: Int, pid: Int? = 300, origin: String?) -> String {
        let pid = pid.map { #","pid":\#($0)"# } ?? ""
        let origin = origin.map { #","origin":"\#($0)""# } ?? ""
        return #"{"type":"client","event":"connect","client":\#(client)\#(pid)\#(origin),"sequence":1}"#
    }

    func opened(_ window: Int, origin: String?) -> String {
        let origin = origin.map { #","origin":"\#($0)""# } ?? ""
        return #"{"type":"event","name":"windowDidOpen"\#(origin),"sequence":\#(window + 1),"window":\#(window)}"#
    }

    func request(_ command: String, origin: String?, extra: String = "") -> String {
        let origin = origin.map { #","origin":"\#($0)""# } ?? ""
        return
            #"{"type":"command","request":{"command":"\#(command)"\#(extra)},"reply":{"ok":true},"peer_pid":200\#(origin),"sequence":1}"#
    }

    let exec = #","argv":["foot","--app-id","one"]"#

    /// The issue's case: `sh -c 'strata-ctl exec -- foot …'`: the client and its window came from
    /// the exec'd foot, so the requests drive: the exec (from the command's tree) is replayed
    /// and sh is not run.
    @Test func aCommandWhoseChildExecsAClientIsReplayedByItsRequests() throws {
        let trace = try trace([
            start, request("exec", origin: "command", extra: exec), connect(1, origin: "exec"),
            opened(1, origin: "exec"),
        ])
        let driver = try ReplayDriver(trace: trace)
        #expect(driver.kind == .requests)
        #expect(driver.command == nil, "the command is not run")
        #expect(driver.replays(line: 2), "the exec its child sent is replayed")
        #expect(driver.reason.contains("made no client and no window of its own"), "\(driver.reason)")
        #expect(driver.details.count == 3)
    }

    /// `strata-ctl run` as the command: its requests come from the command's own pid; the same.
    @Test func anExperimentRunAsTheCommandIsReplayedByItsRequests() throws {
        let trace = try trace([
            start, request("exec", origin: "command", extra: exec), connect(1, origin: "exec"),
            opened(1, origin: "exec"), request("raise", origin: "command"),
        ])
        let driver = try ReplayDriver(trace: trace)
        #expect(driver.kind == .requests && driver.replays(line: 2) && driver.replays(line: 5))
    }

    /// A command that starts a client itself: it runs again, and the requests its tree sent are
    /// not replayed (it sends them again); those from outside are, and those of exec'd
    /// processes never (they run again and send them).
    @Test func aCommandThatMadeAClientDrivesAndItsOwnRequestsAreNotReplayed() throws {
        let trace = try trace([
            start, connect(1, origin: "command"), opened(1, origin: "command"),
            request("raise", origin: "command"), request("hide", origin: "outside"),
            request("exec", origin: "command", extra: exec), request("show", origin: "exec"),
        ])
        let driver = try ReplayDriver(trace: trace)
        #expect(driver.kind == .command)
        #expect(driver.command == ["sh", "-c", "strata-ctl exec -- foot --app-id one; sleep 1.5"])
        #expect(driver.reason.contains("line 3"), "the first client of the command's tree is named: \(driver.reason)")
        #expect(
            !driver.replays(line: 4) && driver.replays(line: 5) && !driver.replays(line: 6) && !driver.replays(line: 7))
    }

    /// One window of the command's tree is enough (an X window: no client line of its own).
    @Test func aWindowOfTheCommandsTreeMakesTheCommandDrive() throws {
        let trace = try trace([start, connect(1, pid: nil, origin: "strata"), opened(1, origin: "command")])
        #expect(try ReplayDriver(trace: trace).kind == .command)
    }

    /// Requests of an exec'd process are not replayed under the requests driver either.
    @Test func requestsOfAnExecdProcessAreNeverReplayed() throws {
        let trace = try trace([
            start, request("exec", origin: "command", extra: exec), connect(1, origin: "exec"),
            request("raise", origin: "exec"), request("hide", origin: "outside"),
        ])
        let driver = try ReplayDriver(trace: trace)
        #expect(
            driver.kind == .requests && driver.replays(line: 2) && !driver.replays(line: 4) && driver.replays(line: 5))
    }

    @Test func aTraceWithoutACommandIsDrivenByItsRequests() throws {
        let trace = try trace(command: nil, [connect(1, origin: "outside"), request("raise", origin: "outside")])
        let driver = try ReplayDriver(trace: trace)
        #expect(driver.kind == .requests && driver.command == nil && driver.replays(line: 2))
        #expect(driver.reason == "the trace has no command: its requests drive")
        #expect(throws: ReplayDriver.Undecided.self) { try ReplayDriver(trace: trace, forced: .command) }
        // An older Strata's trace without a command: only its requests can drive.
        let old = try self.trace(command: nil, [request("raise", origin: nil)])
        #expect {
            try ReplayDriver(trace: old)
        } throws: { error in
            "\(error)".hasSuffix(
                "it has no origin (a trace of an older Strata, or a peer gone before it was seen); pass --driver requests to replay it"
            )
        }
        #expect(try ReplayDriver(trace: old, forced: .requests).replays(line: 1))
    }

    /// A client or window of unknown origin, or one without the field (an older Strata's trace),
    /// when nothing of the command's tree decides: the replay cannot tell and names the line.
    @Test func anUnknownOrMissingOriginCannotDecideAndNamesTheLine() throws {
        for origin in ["unknown", nil] {
            let trace = try trace([
                start, request("exec", origin: "command", extra: exec), connect(1, origin: "exec"),
                opened(1, origin: origin),
            ])
            do {
                _ = try ReplayDriver(trace: trace)
                Issue.record("decided without the origin of line 5")
            } catch {
                #expect(
                    error.description.hasPrefix(
                        "cannot tell whether the command or its requests drive the replay: line 5 (#2 windowDidOpen"),
                    "\(error.description)")
                #expect(error.description.contains(origin == nil ? "has no origin" : "has origin unknown"))
                #expect(error.description.contains("pass --driver command or --driver requests"))
            }
        }
    }

    /// A replayed request of unknown origin: whether a process the replay runs sends it again
    /// cannot be told. A read-only request's origin does not matter (it is never replayed).
    @Test func aReplayedRequestOfUnknownOriginCannotDecide() throws {
        let trace = try trace([
            start, connect(1, origin: "command"), request("windows", origin: nil), request("raise", origin: nil),
        ])
        #expect {
            try ReplayDriver(trace: trace)
        } throws: { error in
            "\(error)".hasPrefix(
                "cannot tell whether line 5 (#1 command raise → ok) is sent again by a process the replay runs: it has no origin"
            )
        }
    }

    /// `--driver`: the user's choice stands, and requests of unknown origin are replayed.
    @Test func theUsersChoiceOverridesAndReplaysRequestsOfUnknownOrigin() throws {
        // An older Strata's trace: no origin anywhere.
        let trace = try trace([
            start, connect(1, origin: nil), opened(1, origin: nil), request("exec", origin: nil, extra: exec),
        ])
        #expect(throws: ReplayDriver.Undecided.self) { try ReplayDriver(trace: trace) }
        let requests = try ReplayDriver(trace: trace, forced: .requests)
        #expect(requests.kind == .requests && requests.command == nil && requests.replays(line: 4))
        #expect(requests.reason == "--driver requests (the user's choice)")
        let command = try ReplayDriver(trace: trace, forced: .command)
        #expect(command.kind == .command && command.command?.first == "sh" && command.replays(line: 4))
        // A choice against the origins: the command's own requests still are not replayed.
        let made = try self.trace([start, connect(1, origin: "command"), request("raise", origin: "command")])
        #expect(!(try ReplayDriver(trace: made, forced: .command)).replays(line: 3))
        #expect(try ReplayDriver(trace: made, forced: .requests).replays(line: 3))
    }
}
