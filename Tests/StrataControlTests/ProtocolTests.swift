import Foundation
import Glibc
import StrataControl
import StrataControlProtocol
import StrataModel
import Testing

/// The envelope: errors for bad input, the connection staying usable, limits, half-close,
/// slow readers.
@Suite struct ProtocolTests {
    @Test func helloTellsTheProtocolVersionAndTheCommands() throws {
        let harness = try ControlHarness()
        let reply = try harness.request(["id": "greeting", "command": "hello"])
        #expect(reply.isOK)
        #expect(reply["id"] == "greeting")
        #expect(reply["protocol"]?.intValue == ControlProtocol.version)
        #expect(reply["commands"]?.arrayValue?.count == ControlProtocol.commands.count)
    }

    @Test func socketIsPrivateAndRemovedWhenTheServerStops() throws {
        let harness = try ControlHarness()
        var info = stat()
        #expect(stat(harness.control.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        harness.control.stop()
        #expect(!FileManager.default.fileExists(atPath: harness.control.path))
    }

    @Test func badJSONGetsAnErrorAndTheConnectionStaysUsable() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        client.send("this is not json\n{\"id\": 1, \"command\": \n[1, 2]\n\"text\"\n")
        let replies = client.lines(4)
        #expect(replies.count == 4)
        #expect(replies.allSatisfy { $0["ok"]?.boolValue == false && $0.errorCode == "bad_json" && $0["id"] == .null })
        #expect(try client.request(["command": "sync"]).isOK)
    }

    @Test func unknownCommandAndMalformedEnvelopesAreErrors() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        let unknown = try client.request(["id": 7, "command": "fly"])
        #expect(unknown.errorCode == "unknown_command")
        #expect(unknown["id"]?.intValue == 7)
        #expect(try client.request(["id": 8]).errorCode == "bad_request")
        #expect(try client.request(["id": 9, "command": 3]).errorCode == "bad_request")
        client.send("{\"id\": [1], \"command\": \"hello\"}\n{\"id\": 1.5, \"command\": \"hello\"}\n")
        #expect(client.lines(2).map(\.errorCode) == ["bad_request", "bad_request"])
        #expect(try client.request(["command": "hello"]).isOK)
    }

    @Test func unknownIdsAreErrors() throws {
        let harness = try ControlHarness()
        harness.window("a")
        let client = try harness.connect()
        #expect(try client.request(["command": "make-key", "window": 99]).errorCode == "unknown_window")
        #expect(try client.request(["command": "make-key", "window": "no.such.app"]).errorCode == "unknown_window")
        #expect(try client.request(["command": "make-key", "window": -3]).errorCode == "unknown_window")
        #expect(try client.request(["command": "screen-remove", "screen": 42]).errorCode == "unknown_screen")
        #expect(try client.request(["command": "screen-remove", "screen": "HDMI-9"]).errorCode == "unknown_screen")
        harness.window("a")
        #expect(try client.request(["command": "raise", "window": "a"]).errorCode == "ambiguous_window")
    }

    @Test func missingAndIllTypedArgumentsAreErrors() throws {
        let harness = try ControlHarness()
        harness.window("a")
        let client = try harness.connect()
        #expect(try client.request(["command": "set-level", "window": 1]).errorCode == "missing_argument")
        #expect(
            try client.request(["command": "set-level", "window": 1, "level": "sky"]).errorCode == "invalid_argument")
        #expect(
            try client.request(["command": "set-level", "window": [1], "level": "alert"]).errorCode
                == "invalid_argument")
        #expect(try client.request(["command": "pointer-move", "x": "left", "y": 3]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "pointer-move", "x": 1e300, "y": 3]).errorCode == "invalid_argument")
        #expect(
            try client.request(["command": "screen-brightness", "screen": 1, "value": 2]).errorCode
                == "invalid_argument")
        #expect(
            try client.request(["command": "screen-mode", "screen": 1, "mode": "big"]).errorCode == "invalid_argument")
        #expect(
            try client.request(["command": "screen-mode", "screen": 1, "mode": "100x100"]).errorCode
                == "mode_not_available")
        #expect(
            try client.request(["command": "screen-transform", "screen": 1, "transform": "45"]).errorCode
                == "invalid_argument")
        #expect(
            try client.request(["command": "screen-mirror", "screen": 1, "enabled": "maybe"]).errorCode
                == "invalid_argument")
        #expect(
            try client.request(["command": "move", "window": 1, "screen": 1, "x": 5]).errorCode == "missing_argument")
        #expect(try client.request(["command": "exec", "argv": "ls"]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "exec", "argv": []]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "screenshot", "path": "relative.png"]).errorCode == "invalid_argument")
        #expect(
            try client.request(["command": "touch", "phase": "hover", "touch_id": 1]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "key", "key": "NoSuchKeysym"]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "type", "text": "bell \u{7}"]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "pointer-scroll", "dy": 0.5]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "policy", "name": "random"]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "events", "since": -1]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "sync"]).isOK)
    }

    @Test func oversizeLineIsRejectedAndDiscardedUpToItsNewline() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        let huge =
            "{\"id\": 1, \"command\": \"hello\", \"pad\": \""
            + String(repeating: "x", count: ControlProtocol.maximumLineLength + 10) + "\"}\n"
        client.send(huge + "{\"id\": 2, \"command\": \"sync\"}\n")
        let replies = client.lines(2)
        #expect(replies.count == 2)
        #expect(replies.first?.errorCode == "line_too_long")
        #expect(replies.last?["id"]?.intValue == 2 && replies.last?.isOK == true)
    }

    @Test func halfClosedConnectionGetsEveryReplyThenCloses() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        // The last request has no newline: end of file ends it.
        client.send(
            "{\"id\": 1, \"command\": \"hello\"}\n{\"id\": 2, \"command\": \"screens\"}\n{\"id\": 3, \"command\": \"sync\"}"
        )
        client.shutdownWriting()
        let replies = client.lines(3)
        #expect(replies.map { $0["id"]?.intValue } == [1, 2, 3])
        #expect(replies.allSatisfy { $0.isOK })
        #expect(client.isClosedByServer())
        #expect(harness.control.connectionCount == 0)
    }

    @Test func clientThatDisconnectsMidRequestIsForgotten() throws {
        let harness = try ControlHarness()
        do {
            let client = try harness.connect()
            client.send("{\"id\": 1, \"comm")
            harness.server.step()
            #expect(harness.control.connectionCount == 1)
        }
        // Until the server has seen the client go (late under load: another test's posix_spawn
        // child holds a copy of the client's socket until its exec).
        #expect(harness.server.run(seconds: 10) { harness.control.connectionCount == 0 })
        #expect(try harness.request(["command": "hello"]).isOK)
    }

    @Test func slowEventsSubscriberIsDroppedWithoutStallingTheCompositor() throws {
        let harness = try ControlHarness()
        harness.control.maximumQueuedBytes = 16 * 1024
        let a = harness.window("a"), b = harness.window("b")
        let slow = try harness.connect()
        #expect(try slow.request(["command": "events"])["following"] == true)
        let other = try harness.connect()
        // 4,000 events (~100 bytes each) against a 16 KiB queue that the reader never drains.
        // Writes are non-blocking: were they not, this loop would hang on a full socket (and the
        // test command's time bound would end it), so finishing is the check, not a clock.
        for _ in 0..<2_000 {
            harness.windows.orderFront(a)
            harness.windows.orderFront(b)
        }
        harness.server.step()
        #expect(slow.isClosedByServer())
        #expect(harness.logged.contains { $0.contains("dropped") })
        #expect(try other.request(["command": "windows"]).isOK)
    }

    @Test func eventsReplayTheKeptOnesThenStreamNewOnesInOrder() throws {
        let harness = try ControlHarness()
        let start = harness.windows.notifications.lastSequence
        let a = harness.window("a")
        let client = try harness.connect()
        let reply = try client.request(["command": "events", "since": JSONValue(start)])
        #expect(reply["following"] == true)
        let replayed = client.lines(4)
        #expect(
            replayed.map { $0["name"]?.stringValue } == [
                "windowDidOpen", "windowDidChangeFrame", "windowDidBecomeVisible", "windowDidBecomeKey",
            ])
        harness.windows.hide(a)
        let live = client.lines(2)
        #expect(live.compactMap { $0["name"]?.stringValue } == ["windowDidResignKey", "windowDidBecomeHidden"])
        let sequences = (replayed + live).compactMap { $0["sequence"]?.intValue }
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
        // A subscribed connection still answers requests.
        #expect(try client.request(["command": "sync"]).isOK)
    }

    @Test func eventsWithoutFollowReturnTheKeptOnesInTheReply() throws {
        let harness = try ControlHarness()
        let start = harness.windows.notifications.lastSequence
        harness.window("a")
        let reply = try harness.request(["command": "events", "since": JSONValue(start), "follow": false])
        #expect(reply["events"]?.arrayValue?.first?["name"] == "windowDidOpen")
        #expect(reply["truncated"] == false)
    }

    @Test func eventHistoryIsBoundedAndSaysWhenEventsWereDropped() throws {
        let harness = try ControlHarness()
        let start = harness.windows.notifications.lastSequence
        let a = harness.window("a"), b = harness.window("b")
        for _ in 0..<ControlProtocol.eventHistory { harness.windows.orderFront(a); harness.windows.orderFront(b) }
        let reply = try harness.request(["command": "events", "since": JSONValue(start), "follow": false])
        #expect(reply["truncated"] == true)
        #expect(reply["events"]?.arrayValue?.count == ControlProtocol.eventHistory)
    }
}
