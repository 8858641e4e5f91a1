import CStrataClientGlue
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// The compositor's own selections (`Seat.setCompositorSelection`, `Seat.observeSelection`): what
/// a nested backend uses to pass the parent session's clipboard in and Strata's out.
@Suite struct CompositorSelectionTests {
    @Test(arguments: Seat.SelectionKind.allCases)
    func aCompositorSelectionReachesClientsAndTheirReceiveIsProvided(kind: Seat.SelectionKind) throws {
        let server = try TestServer()
        let reader = try ControlClient(server, flavor: .ext)
        var asked: [String] = []
        let source = CompositorSelectionSource(mimeTypes: ["text/plain", "image/png"]) { type, fd in
            asked.append(type)
            _ = "from outside".withCString { write(fd, $0, strlen($0)) }
        }
        server.compositor.seat.setCompositorSelection(source, kind)
        let primary = kind == .primary
        #expect(
            reader.client.wait {
                (primary ? reader.control.primarySelectionMimeTypes : reader.control.selectionMimeTypes) == [
                    "text/plain", "image/png",
                ]
            })
        let fd = try #require(reader.control.receive("text/plain", primary: primary))
        defer { close(fd) }
        var text: [UInt8] = []
        #expect(
            reader.client.wait {
                let (bytes, eof) = readAvailable(fd)
                text += bytes
                return eof
            })
        #expect(String(decoding: text, as: UTF8.self) == "from outside")
        #expect(asked == ["text/plain"])
        // A type not offered is never asked for.
        let other = try #require(reader.control.receive("text/html", primary: primary))
        defer { close(other) }
        #expect(reader.client.wait { readAvailable(other).eof })
        #expect(asked == ["text/plain"])
    }

    @Test func aCompositorSourcesTypesAreBoundedAsAClientsAre() {
        var types = (0..<300).map { "type/\($0)" }
        types.insert(String(repeating: "x", count: ClientBudget.maxMimeTypeLength + 1), at: 2)
        types.insert("type/0", at: 4)
        types.insert("", at: 6)
        types.insert("bad\u{0}type", at: 8)
        let source = CompositorSelectionSource(mimeTypes: types) { _, _ in }
        #expect(source.mimeTypes == (0..<ClientBudget.maxMimeTypesPerSource).map { "type/\($0)" })
        // Long types: the event bytes are bounded too.
        let long = (0..<200).map { "\($0)/" + String(repeating: "y", count: 250) }
        let bounded = CompositorSelectionSource(mimeTypes: long) { _, _ in }
        #expect(bounded.mimeTypes.count == ClientBudget.maxMimeBytesPerSource / (254 + 16))
        #expect(bounded.mimeTypes.reduce(0) { $0 + $1.utf8.count + 16 } <= ClientBudget.maxMimeBytesPerSource)
    }

    @Test func anObserverIsToldOfClientSelectionsAndReadsThemUntilCancelled() throws {
        let server = try TestServer()
        let writer = try ControlClient(server, flavor: .wlr)
        var told: [[String]?] = []
        var latest: SelectionObserver.Contents?
        let observer = server.compositor.seat.observeSelection(.clipboard) { contents in
            told.append(contents?.mimeTypes)
            latest = contents
        }
        #expect(told == [nil])
        let source = try writer.copy("hello", types: ["text/plain"])
        #expect(told == [nil, ["text/plain"]])
        let contents = try #require(latest)
        #expect(contents.compositorSource == nil && contents.isCurrent)
        var fds: [Int32] = [0, 0]
        #expect(strata_client_pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        #expect(!contents.receive("image/png", fd: fds[1]))
        #expect(contents.receive("text/plain", fd: fds[1]))
        close(fds[1])
        var text: [UInt8] = []
        #expect(
            writer.client.wait {
                let (bytes, eof) = readAvailable(fds[0])
                text += bytes
                return eof
            })
        close(fds[0])
        #expect(text == Array("hello".utf8) && source.sendRequests == ["text/plain"])
        source.destroy()
        writer.client.roundtrip()
        #expect(told == [nil, ["text/plain"], nil])
        #expect(!contents.isCurrent)
        observer.cancel()
        _ = try writer.copy("again")
        #expect(told.count == 3)
    }

    @Test func aReplacedCompositorSourceIsCancelledAndClearingOnlyClearsItsOwn() throws {
        let server = try TestServer()
        let writer = try ControlClient(server, flavor: .ext)
        let seat = server.compositor.seat!
        var cancelled = 0
        let mine = CompositorSelectionSource(mimeTypes: ["text/plain"]) { _, _ in }
        mine.onCancel = { cancelled += 1 }
        var last: SelectionObserver.Contents?
        let observer = seat.observeSelection(.primary) { last = $0 }
        defer { observer.cancel() }
        seat.setCompositorSelection(mine, .primary)
        #expect(last?.compositorSource === mine)
        _ = try writer.copy("a client's", primary: true)
        #expect(cancelled == 1 && mine.isCancelled)
        #expect(last?.compositorSource == nil && last?.mimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        // Clearing a source that no longer holds the selection leaves the client's alone.
        seat.clearCompositorSelection(mine, .primary)
        #expect(last?.mimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        #expect(cancelled == 1)
    }
}
