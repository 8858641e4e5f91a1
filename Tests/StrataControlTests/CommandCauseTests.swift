import Foundation
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataServer
import Testing

/// Every control command's changes have the cause `command`, its words and its connection
/// (set once, in the control server's dispatch); a refused `make-key` is a `keyRequestWasRefused`.
@Suite struct CommandCauseTests {
    /// The notifications posted while `body` runs.
    private func posted(_ harness: ControlHarness, _ body: () throws -> Void) throws -> [PostedNotification] {
        var posted: [PostedNotification] = []
        let token = harness.windows.notifications.addObserver(phase: .recording) { posted.append($0) }
        defer { token.remove() }
        try body()
        return posted
    }

    @Test func aMakeKeyCommandIsACommandOfItsConnection() throws {
        let harness = try ControlHarness()
        let a = harness.window("a")
        harness.window("b")
        let first = try harness.connect(), second = try harness.connect()
        var requesters: [String] = []
        for client in [first, second] {
            let target = requesters.isEmpty ? a : harness.windows.windows.first { $0 !== a }!
            var reply: JSONValue = .null
            let changes = try posted(harness) {
                reply = try client.request(["command": "make-key", "window": JSONValue(Int(target.id.rawValue))])
            }
            #expect(reply.isOK)
            #expect(changes.map(\.name) == ["windowDidResignKey", "windowDidBecomeKey"])
            let cause = try #require(changes.last?.cause)
            #expect(cause.kind == .command)
            #expect(cause.request == "make-key window=\(target.id.rawValue)")
            #expect(cause.requester.hasPrefix("control "))
            #expect(cause.requestedAt != 0)
            #expect(changes.allSatisfy { $0.cause == cause })
            requesters.append(cause.requester)
        }
        #expect(requesters[0] != requesters[1], "each connection is its own requester")
    }

    @Test func aRefusedMakeKeyCommandIsAKeyRequestWasRefused() throws {
        let harness = try ControlHarness()
        let hidden = harness.window("hidden")
        harness.windows.hide(hidden)
        let key = harness.window("key")
        harness.windows.setHoldsKey(key, true)
        let other = harness.window("other", key: false)
        let client = try harness.connect()
        for (window, words) in [(hidden, "it is hidden"), (other, "holds key")] {
            var reply: JSONValue = .null
            let changes = try posted(harness) {
                reply = try client.request(["command": "make-key", "window": JSONValue(Int(window.id.rawValue))])
            }
            #expect(reply.errorCode == "invalid_argument")
            #expect(reply["error"]?["message"]?.stringValue?.contains(words) == true)
            #expect(changes.map(\.notification) == [.keyRequestWasRefused(window.id)])
            #expect(changes.first?.cause?.kind == .command)
            #expect(changes.first?.cause?.requester.hasPrefix("control ") == true)
        }
        harness.windows.setHoldsKey(key, false)
        harness.windows.lock()
        var reply: JSONValue = .null
        let locked = try posted(harness) {
            reply = try client.request(["command": "make-key", "window": JSONValue(Int(other.id.rawValue))])
        }
        #expect(reply["error"]?["message"]?.stringValue?.contains("the session is locked") == true)
        #expect(locked.map(\.notification) == [.keyRequestWasRefused(other.id)])
    }

    @Test func closingTheKeyWindowGivesTheSuccessorItsOwnCauseWithTheCommandsRequest() throws {
        let harness = try ControlHarness()
        let first = harness.window("first")
        let second = harness.window("second")
        var reply: JSONValue = .null
        let changes = try posted(harness) {
            reply = try harness.request(["command": "close", "window": JSONValue(Int(second.id.rawValue))])
        }
        #expect(reply.isOK)
        let key = try #require(changes.first { $0.name == "windowDidBecomeKey" })
        #expect(key.notification == .windowDidBecomeKey(first.id))
        #expect(key.cause?.kind == .successor)
        #expect(key.cause?.request == "close window=\(second.id.rawValue)")
        #expect(key.cause?.requester.hasPrefix("control ") == true)
        #expect(key.cause?.decidedBy == "uikit")
        #expect(changes.first { $0.name == "windowDidResignKey" }?.cause?.kind == .command)
    }

    @Test func theEventsStreamCarriesTheCauseFields() throws {
        let harness = try ControlHarness()
        let a = harness.window("a")
        harness.window("b")
        let client = try harness.connect()
        #expect(try client.request(["command": "make-key", "window": JSONValue(Int(a.id.rawValue))]).isOK)
        let reply = try client.request(["command": "events", "since": 0, "follow": false])
        let key = try #require(reply["events"]?.arrayValue?.last { $0["name"] == "windowDidBecomeKey" })
        #expect(key["cause"] == "command")
        #expect(key["request"]?.stringValue == "make-key window=\(a.id.rawValue)")
        #expect(key["requester"]?.stringValue?.hasPrefix("control ") == true)
        #expect(key["requested_ns"]?.intValue != nil)
    }

    @Test func aCommandsWordsQuoteSpacesAndLeaveOutTheID() throws {
        let harness = try ControlHarness()
        harness.window("my app")
        var reply: JSONValue = .null
        let changes = try posted(harness) {
            reply = try harness.request(["id": 7, "command": "set-level", "window": "title:MY APP", "level": "alert"])
        }
        #expect(reply.isOK)
        let level = try #require(changes.first { $0.name == "windowDidChangeLevel" })
        #expect(level.cause?.request == #"set-level level=alert window="title:MY APP""#)
    }
}
