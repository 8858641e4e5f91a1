import Foundation
import Glibc
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataRecording
import StrataServer
import StrataTestSupport
import Testing

/// `--record-protocol`: the requests and events of chosen clients in the trace
/// (docs/experiments.md, "Traces").
@Suite struct ProtocolRecordingTests {
    func protocolLines(_ path: String) throws -> [JSONValue] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }.filter {
            $0["type"] == "protocol"
        }
    }

    @Test func aChosenClientsMessagesAreInTheTraceUpToItsLimit() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/protocol.trace"
        let recorder = try TraceRecorder(compositor: harness.server.compositor, path: path)
        recorder.logProtocol(of: [String(getpid())], maximumPerClient: 6)
        let client = try TestClient(server: harness.server)
        _ = try client.makeSurface(width: 10, height: 10, argb: 0xff00_ff00)
        #expect(client.roundtrip())
        recorder.stop()
        let lines = try protocolLines(path)
        #expect(lines.count == 7, "6 messages and the line saying the client was cut")
        #expect(lines.first?["direction"] == "request")
        #expect(lines.first?["interface"] == "wl_display")
        #expect(lines.first?["object"]?.intValue == 1)
        #expect(lines.first?["message"] == "get_registry")
        #expect(
            lines.contains {
                $0["direction"] == "event" && $0["interface"] == "wl_registry" && $0["message"] == "global"
            })
        #expect(lines.last?["truncated"] == true)
        #expect(lines.last?["limit"]?.intValue == 6)
        #expect(lines.allSatisfy { $0["client"]?.intValue == 1 })
    }

    @Test func aClientNobodyChoseIsNotInTheTrace() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/protocol.trace"
        let recorder = try TraceRecorder(compositor: harness.server.compositor, path: path)
        recorder.logProtocol(of: ["org.example.other", "999999999"])
        let client = try TestClient(server: harness.server)
        _ = try client.makeSurface(width: 10, height: 10, argb: 0xff00_ff00)
        #expect(client.roundtrip())
        recorder.stop()
        #expect(try protocolLines(path).isEmpty)
        let all = try String(contentsOfFile: path, encoding: .utf8)
        #expect(all.contains("\"event\":\"connect\""), "the client itself is in the trace")
    }

    /// An app id chooses its client in any case (`AppIDMatch`).
    @Test func anAppIDChoosesItsClientInAnyCase() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/protocol.trace"
        let recorder = try TraceRecorder(compositor: harness.server.compositor, path: path)
        recorder.logProtocol(of: ["ORG.Example.Case"])
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let client = shell.client
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: 0xff00_ff00))
        let windows = harness.server.compositor.windows
        let window = try #require(windows.windows.first)
        windows.setAppID(window, "org.example.case")
        #expect(client.roundtrip())
        recorder.stop()
        #expect(try protocolLines(path).contains { $0["message"] == "sync" })
    }
}
