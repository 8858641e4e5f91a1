@testable import StrataControl
import StrataControlProtocol
import StrataTrace
import Testing

/// The one table of commands (`ControlCommand.all`) and the server's handlers agree: every row
/// has a handler of the kind its `reply` says, every handler has a row, and `hello` and
/// `TraceFormat.replayedCommands` are read off the table.
@Suite struct ControlCommandTableTests {
    @Test func everyRowHasAHandlerOfItsKindAndEveryHandlerARow() {
        let names = ControlCommand.all.map(\.name)
        #expect(Set(ControlCommandHandler.all.keys) == Set(names))
        for command in ControlCommand.all {
            switch ControlCommandHandler.all[command.name] {
            case .immediate?: #expect(command.reply == .immediate, "\(command.name)'s handler replies at once")
            case .deferred?: #expect(command.reply == .deferred, "\(command.name)'s handler may defer its reply")
            case nil: Issue.record("\(command.name) has no handler")
            }
        }
    }

    @Test func namesAndAliasesAreUnique() {
        let all = ControlCommand.all.flatMap { [$0.name] + $0.aliases }
        #expect(Set(all).count == all.count)
        #expect(ControlCommand.named("version")?.name == "hello")
        #expect(ControlCommand.named("no-such-command") == nil)
    }

    @Test func helloAndReplayAreReadOffTheTable() throws {
        #expect(ControlProtocol.commands == ControlCommand.all.map(\.name))
        let issued = ControlCommand.all.filter { $0.replay == .issuedAgain }.map(\.name)
        #expect(TraceFormat.replayedCommands == Set(issued))
        #expect(!TraceFormat.replayedCommands.contains("windows"))
        #expect(TraceFormat.replayedCommands.contains("set-level"))

        let harness = try ControlHarness()
        let reply = try harness.request(["command": "version"])
        #expect(reply["commands"]?.arrayValue?.compactMap(\.stringValue) == ControlCommand.all.map(\.name))
    }
}
