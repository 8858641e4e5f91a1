import CXCB
import Foundation
@testable import StrataServer
import StrataModel
import StrataTestSupport
import Testing

/// The clipboard and the primary selection between X and Wayland clients (`XSelection`), with a
/// real Xwayland, the test as an X client over xcb (`TestXSelectionClient`) and a data control
/// client on the Wayland side: targets ↔ MIME types, INCR, and hostile peers (an X owner dying
/// mid-transfer, a Wayland source that never writes, a huge TARGETS list).
@Suite("X ↔ Wayland selections", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XwaylandSelectionTests {
    /// Reads `fd` while stepping, until its end; the bytes.
    private static func readToEnd(
        _ fd: Int32, _ reader: ControlClient, pumping x: TestXSelectionClient,
        seconds: Double = 30
    ) -> (bytes: [UInt8], eof: Bool) {
        var bytes: [UInt8] = []
        var eof = false
        _ = reader.client.wait(seconds: seconds) {
            x.pump()
            let (more, end) = readAvailable(fd)
            bytes += more
            eof = end
            return end
        }
        return (bytes, eof)
    }

    @Test func anXOwnersTargetsAreOfferedAsMimeTypesAndItsTextIsPastedInAWaylandClient() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        x.data = [
            x.atom("UTF8_STRING"): Array("héllo from X".utf8), XCB_ATOM_STRING.rawValue: Array("hello from X".utf8),
            x.atom("text/html"): Array("<b>X</b>".utf8), x.atom("COMPOUND_TEXT"): [1, 2],
        ]
        x.targets = [
            x.atom("TARGETS"), x.atom("UTF8_STRING"), XCB_ATOM_STRING.rawValue, x.atom("text/html"),
            x.atom("COMPOUND_TEXT"),
        ]
        x.own(x.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection != nil
            })
        #expect(reader.control.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain", "text/html"])
        #expect(reader.control.primarySelection == nil)
        let fd = try #require(reader.control.receive("text/plain;charset=utf-8"))
        defer { close(fd) }
        let (bytes, eof) = Self.readToEnd(fd, reader, pumping: x)
        #expect(String(decoding: bytes, as: UTF8.self) == "héllo from X")
        #expect(eof)
        // text/plain is UTF8_STRING's data too (STRING is Latin-1).
        let plain = try #require(reader.control.receive("text/plain"))
        defer { close(plain) }
        #expect(String(decoding: Self.readToEnd(plain, reader, pumping: x).bytes, as: UTF8.self) == "héllo from X")
        let html = try #require(reader.control.receive("text/html"))
        defer { close(html) }
        #expect(String(decoding: Self.readToEnd(html, reader, pumping: x).bytes, as: UTF8.self) == "<b>X</b>")
        #expect(wm.selections.allSatisfy { $0.conversionCount == 0 })
        // The owner goes: the clipboard is cleared.
        x.disconnect()
        #expect(reader.client.wait(seconds: 20) { reader.control.selection == nil })
    }

    @Test func twoMegabytesFromAnXOwnerComeByIncrIntoAWaylandReader() throws {
        let (server, xwayland, _) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let reader = try ControlClient(server, flavor: .ext)
        let payload = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        x.data = [x.atom("UTF8_STRING"): payload]
        x.incrChunk = 100_000
        x.own(XCB_ATOM_PRIMARY.rawValue)
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.primarySelection != nil
            })
        #expect(reader.control.primarySelectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        let fd = try #require(reader.control.receive("text/plain;charset=utf-8", primary: true))
        defer { close(fd) }
        let (bytes, eof) = Self.readToEnd(fd, reader, pumping: x)
        #expect(eof)
        #expect(bytes.count == payload.count)
        #expect(bytes == payload)
        #expect(x.chunksSent == 21)
    }

    @Test func anXOwnerThatDiesMidTransferEndsTheWaylandReadersPipeAndClearsTheSelection() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        x.data = [x.atom("UTF8_STRING"): [UInt8](repeating: 0x61, count: 1_000_000)]
        x.incrChunk = 50_000
        x.dieAfterChunks = 3
        x.own(x.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection != nil
            })
        let fd = try #require(reader.control.receive("text/plain;charset=utf-8"))
        defer { close(fd) }
        let (bytes, eof) = Self.readToEnd(fd, reader, pumping: x)
        #expect(eof)
        #expect(bytes.count == 150_000)
        #expect(!x.isConnected)
        #expect(reader.client.wait(seconds: 20) { reader.control.selection == nil })
        #expect(wm.selections.allSatisfy { $0.conversionCount == 0 && $0.source == nil })
        // The bridge still works: a new X owner is offered.
        let next = try XTestHarness.selectionClient(xwayland)
        defer { next.disconnect() }
        next.data = [next.atom("UTF8_STRING"): Array("next".utf8)]
        next.own(next.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 20) {
                next.pump(); return reader.control.selection != nil
            })
        let again = try #require(reader.control.receive("text/plain;charset=utf-8"))
        defer { close(again) }
        #expect(Self.readToEnd(again, reader, pumping: next).bytes == Array("next".utf8))
    }

    /// The XWM reads the owner's last chunk; the owner sees that read's delete and dies; the
    /// XWM's next read of its connection finds both the chunk and the owner's end (handled
    /// first, as events are): the chunk still reaches the reader.
    @Test func aChunkReadWhenTheOwnerDiesArrivesInTheSameReadAsItsEndAndIsStillWritten() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let watcher = try XTestHarness.selectionClient(xwayland)
        defer { watcher.disconnect() }
        let clipboard = x.atom("CLIPBOARD")
        watcher.watchOwner(of: clipboard)
        let bridge = try #require(wm.selections.first { $0.atom == clipboard })
        let reader = try ControlClient(server, flavor: .wlr)
        x.data = [x.atom("UTF8_STRING"): [UInt8](repeating: 0x62, count: 100_000)]
        x.incrChunk = 10_000
        x.dieAfterChunks = 3
        x.own(clipboard)
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection != nil
            })
        let fd = try #require(reader.control.receive("text/plain;charset=utf-8"))
        defer { close(fd) }
        // The third chunk is in the property (the pipe holds all three: 64 KiB). Xwayland is
        // stopped (SIGSTOP; the XWM bypasses server grabs), so the XWM's read of that chunk
        // waits for its answer.
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return x.chunksSent == 3
            })
        x.sync()
        let pid = try #require(xwayland.pid)
        kill(pid, SIGSTOP)
        let fetching = reader.client.wait(seconds: 20) {
            guard let head = bridge.headConversion else { return false }
            return head.stage == .fetching && head.written == 20_000
        }
        kill(pid, SIGCONT)
        #expect(fetching)
        // Strata is not stepped now: Xwayland answers the read, the owner sees its delete and
        // dies, and the watcher sees the owner's end, which Xwayland sent the XWM too.
        let changesBefore = watcher.ownerChangesSeen
        for _ in 0..<100 where x.isConnected { x.pump(waitingUpTo: 0.1) }
        #expect(!x.isConnected)
        for _ in 0..<100 where watcher.ownerChangesSeen == changesBefore { watcher.pump(waitingUpTo: 0.1) }
        #expect(watcher.ownerChangesSeen > changesBefore)
        let (bytes, eof) = Self.readToEnd(fd, reader, pumping: watcher)
        #expect(eof)
        #expect(bytes.count == 30_000)
        #expect(reader.client.wait(seconds: 20) { reader.control.selection == nil })
        #expect(bridge.conversionCount == 0)
    }

    /// The owner writes a chunk and dies at once while the XWM still holds the chunk before it
    /// (the reader has not read): both reach the reader, then its pipe ends.
    @Test func aChunkWrittenJustBeforeTheOwnerDiesIsWrittenAfterTheOneHeld() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let clipboard = x.atom("CLIPBOARD")
        let bridge = try #require(wm.selections.first { $0.atom == clipboard })
        let reader = try ControlClient(server, flavor: .wlr)
        x.data = [x.atom("UTF8_STRING"): [UInt8](repeating: 0x63, count: 1_000_000)]
        x.incrChunk = 50_000
        x.dieAfterChunks = 3
        x.diesAsItWritesTheLastChunk = true
        x.own(clipboard)
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection != nil
            })
        let fd = try #require(reader.control.receive("text/plain;charset=utf-8"))
        defer { close(fd) }
        // Nothing is read until the owner is gone: the second chunk fills the pipe (64 KiB),
        // the third comes while the XWM still holds most of the second.
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection == nil
            })
        #expect(!x.isConnected)
        #expect(bridge.drainingCount == 1)
        let (bytes, eof) = Self.readToEnd(fd, reader, pumping: x)
        #expect(eof)
        #expect(bytes.count == 150_000)
        #expect(bridge.conversionCount == 0)
    }

    @Test func aHugeTargetsListIsCutToTheMimeTypeCap() throws {
        let (server, xwayland, _) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        let named = (0..<300).map { x.atom("text/x-strata-\($0)") }
        // 100,000 targets (400 kB): 300 MIME-type atoms over and over, then UTF8_STRING.
        x.targets = (0..<100_000).map { named[$0 % named.count] } + [x.atom("UTF8_STRING")]
        x.data = [x.atom("UTF8_STRING"): Array("text".utf8)]
        x.own(x.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 30) {
                x.pump(); return reader.control.selection != nil
            })
        // The first 256 targets are read; 128 of them are named and offered.
        let types = reader.control.selectionMimeTypes
        #expect(types.count == ClientBudget.maxMimeTypesPerSource)
        #expect(types.first == "text/x-strata-0")
        #expect(!types.contains("text/plain;charset=utf-8"))
    }

    @Test func aWaylandSelectionIsOwnedInXAndConvertedForAnXClient() throws {
        let (server, xwayland, _) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let copier = try ControlClient(server, flavor: .wlr)
        let clipboardSource = try copier.copy("from Wayland")
        let primarySource = try copier.copy("primary from Wayland", primary: true, types: ["text/plain", "text/html"])
        defer { withExtendedLifetime((clipboardSource, primarySource)) {} }
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) != 0 && x.owner(of: XCB_ATOM_PRIMARY.rawValue) != 0 })
        x.convert(clipboard, to: x.atom("TARGETS"))
        #expect(
            server.run(seconds: 20) {
                x.pump(); return x.received != nil
            })
        let targets = (x.received ?? []).withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        for name in ["TARGETS", "TIMESTAMP", "UTF8_STRING", "TEXT", "text/plain;charset=utf-8", "text/plain"] {
            #expect(targets.contains(x.atom(name)), "\(name) missing")
        }
        #expect(!targets.contains(x.atom("text/html")))
        x.convert(clipboard, to: x.atom("UTF8_STRING"))
        #expect(
            server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.received != nil
            })
        #expect(x.received == Array("from Wayland".utf8))
        #expect(x.receivedType == x.atom("UTF8_STRING"))
        // Primary: STRING is the plain text offered; text/html as it is; an unknown target is refused.
        x.convert(XCB_ATOM_PRIMARY.rawValue, to: XCB_ATOM_STRING.rawValue)
        #expect(
            server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.received != nil
            })
        #expect(x.received == Array("primary from Wayland".utf8))
        #expect(x.receivedType == XCB_ATOM_STRING.rawValue)
        // TEXT: the owner picks the encoding, UTF-8.
        x.convert(clipboard, to: x.atom("TEXT"))
        #expect(
            server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.received != nil
            })
        #expect(x.received == Array("from Wayland".utf8))
        #expect(x.receivedType == x.atom("UTF8_STRING"))
        x.convert(XCB_ATOM_PRIMARY.rawValue, to: x.atom("image/png"))
        #expect(
            server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.refused
            })
        // The Wayland selection cleared: X has no owner any more.
        copier.control.set(nil)
        copier.client.roundtrip()
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) == 0 })
    }

    /// The requestor's window a top-level (its end seen through the root) or a child window
    /// (through the StructureNotify the XWM selects on it).
    @Test(arguments: [false, true])
    func aWaylandSourceThatNeverWritesHoldsOneRequestUntilTheRequestorsWindowGoes(nested: Bool) throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let copier = try ControlClient(server, flavor: .wlr)
        let silent = try copier.control.makeSource(mimeTypes: ["text/plain;charset=utf-8"], payload: [])
        silent.holdsFDs = true
        copier.control.set(silent)
        copier.client.roundtrip()
        let x = try #require(TestXSelectionClient(display: xwayland.displayName, nested: nested))
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) != 0 })
        x.convert(clipboard, to: x.atom("UTF8_STRING"))
        let bridge = try #require(wm.selections.first { $0.selection === server.compositor.seat.clipboard })
        #expect(
            copier.client.wait(seconds: 20) {
                x.pump(); return silent.heldFDs.count == 1
            })
        #expect(bridge.requests.count == 1)
        // Nothing comes, nothing times out: the requestor is still waiting.
        for _ in 0..<20 { copier.client.roundtrip(); x.pump() }
        #expect(x.received == nil && !x.refused)
        // The X client dies: its window goes, the request ends and Strata's end of the pipe closes.
        x.disconnect()
        #expect(server.run(seconds: 20) { bridge.requests.isEmpty })
        let held = try #require(silent.heldFDs.first)
        defer { close(held) }
        // Polled: a process another test spawns at that moment holds a copy of every descriptor
        // of this process until its exec.
        #expect(server.run(seconds: 20) { write(held, "x", 1) == -1 && errno == EPIPE })
    }

    @Test func aSilentXOwnerHoldsAtMostSixteenConversionsAndItsDeathEndsThemAll() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        x.data = [x.atom("UTF8_STRING"): Array("never sent".utf8)]
        x.own(x.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection != nil
            })
        // From now on the owner answers nothing.
        var fds: [Int32] = []
        defer { for fd in fds { close(fd) } }
        for _ in 0..<(XSelection.maxQueuedConversions + 1) {
            fds.append(try #require(reader.control.receive("text/plain;charset=utf-8")))
        }
        reader.client.roundtrip()
        let bridge = try #require(wm.selections.first { $0.selection === server.compositor.seat.clipboard })
        #expect(bridge.conversionCount == XSelection.maxQueuedConversions)
        // The one past the queue is refused: its end of file can come late under load (readToEnd).
        let refused = StrataTestSupport.readToEnd(fds[XSelection.maxQueuedConversions], stepping: reader.client)
        let ends = fds.prefix(XSelection.maxQueuedConversions).map { readAvailable($0) }
        #expect(ends.allSatisfy { $0.bytes.isEmpty && !$0.eof })
        #expect(refused.bytes.isEmpty && refused.eof)
        // A reader that closes its end leaves the queue at once (the fd's error is watched).
        close(fds.remove(at: 2))
        #expect(reader.client.wait(seconds: 20) { bridge.conversionCount == XSelection.maxQueuedConversions - 1 })
        x.disconnect()
        #expect(reader.client.wait(seconds: 20) { bridge.conversionCount == 0 && reader.control.selection == nil })
        #expect(fds.allSatisfy { StrataTestSupport.readToEnd($0, stepping: reader.client).eof })
    }

    @Test func anXTransferStopsAtSixtyFourMebibytes() throws {
        let (server, xwayland, _) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        x.data = [x.atom("UTF8_STRING"): [UInt8](repeating: 0x62, count: XSelection.maxTransferBytes + 3_000_000)]
        x.incrChunk = 4 << 20
        x.own(x.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection != nil
            })
        let fd = try #require(reader.control.receive("text/plain;charset=utf-8"))
        defer { close(fd) }
        var count = 0
        var eof = false
        _ = reader.client.wait(seconds: 60) {
            x.pump()
            let (more, end) = readAvailable(fd)
            count += more.count
            eof = end
            return end
        }
        #expect(eof)
        // 16 chunks of 4 MiB fit; the 17th would pass the cap: the transfer ends before it.
        #expect(count == XSelection.maxTransferBytes)
    }

    @Test func anXOwnerThatRefusesTargetsClearsTheWaylandSelection() throws {
        let (server, xwayland, _) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let copier = try ControlClient(server, flavor: .wlr)
        let source = try copier.copy("from Wayland")
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) != 0 })
        x.answersTargets = false
        x.data = [x.atom("UTF8_STRING"): Array("x".utf8)]
        x.own(clipboard)
        #expect(
            copier.client.wait(seconds: 20) {
                x.pump(); return source.cancelled && copier.control.selection == nil
            })
        #expect(server.compositor.seat.clipboard.source == nil)
    }

    @Test func moreThanSixteenXRequestsAtOnceAreRefused() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let copier = try ControlClient(server, flavor: .wlr)
        let silent = try copier.control.makeSource(mimeTypes: ["text/plain;charset=utf-8"], payload: [])
        silent.holdsFDs = true
        copier.control.set(silent)
        copier.client.roundtrip()
        let clients = try (0...XSelection.maxRequests).map { _ in try XTestHarness.selectionClient(xwayland) }
        defer {
            for client in clients { client.disconnect() }
            for fd in silent.heldFDs { close(fd) }
        }
        let clipboard = clients[0].atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { clients[0].owner(of: clipboard) != 0 })
        for client in clients { client.convert(clipboard, to: client.atom("UTF8_STRING")) }
        let bridge = try #require(wm.selections.first { $0.selection === server.compositor.seat.clipboard })
        #expect(
            copier.client.wait(seconds: 20) {
                clients.forEach { $0.pump() }
                return clients.last?.refused == true && silent.heldFDs.count == XSelection.maxRequests
            })
        #expect(bridge.requests.count == XSelection.maxRequests)
        #expect(clients.dropLast().allSatisfy { !$0.refused && $0.received == nil })
    }

    @Test func forgedOwnerChangesAndSelectionRequestsFromAnXClientAreIgnored() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let copier = try ControlClient(server, flavor: .wlr)
        let silent = try copier.control.makeSource(mimeTypes: ["text/plain;charset=utf-8"], payload: [])
        silent.holdsFDs = true
        copier.control.set(silent)
        copier.client.roundtrip()
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) == wm.selectionWindow })
        // A SelectionRequest naming a window that does not exist, and an XFixes owner change.
        var request = xcb_selection_request_event_t()
        request.response_type = UInt8(XCB_SELECTION_REQUEST)
        request.owner = wm.selectionWindow
        request.requestor = 0x7fff_fff0
        request.selection = clipboard
        request.target = x.atom("UTF8_STRING")
        request.property = x.atom("P")
        var owner = xcb_xfixes_selection_notify_event_t()
        let xfixes = try #require(xcb_get_extension_data(x.c, strata_xcb_xfixes_id()))
        owner.response_type = xfixes.pointee.first_event
        owner.window = wm.selectionWindow
        owner.owner = x.window
        owner.selection = clipboard
        for _ in 0..<40 { x.forge(request, to: wm.selectionWindow) }
        x.forge(owner, to: wm.selectionWindow)
        // Then a real request: the XWM gets Xwayland's events in order, so once it has taken this
        // one it has handled the forged ones (a fixed number of round trips could look before
        // they arrived, and pass for nothing under load).
        x.convert(clipboard, to: x.atom("UTF8_STRING"))
        let bridge = try #require(wm.selections.first { $0.selection === server.compositor.seat.clipboard })
        #expect(
            copier.client.wait(seconds: 20) {
                x.pump()
                return x.refused || bridge.requests.contains { $0.requestor == x.window } && silent.heldFDs.count >= 1
            })
        defer { for fd in silent.heldFDs { close(fd) } }
        #expect(!x.refused)
        #expect(bridge.requests.count == 1 && silent.heldFDs.count == 1, "only the real request is served")
        #expect(bridge.ownsXSelection && bridge.xOwner == 0 && !silent.cancelled)
        #expect(server.compositor.seat.clipboard.source != nil)
    }

    @Test func anXRequestorThatDiesMidIncrEndsTheTransferAndClosesTheSourcesPipe() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let copier = try ControlClient(server, flavor: .wlr)
        // The test writes the source's data itself, as the pipe takes it.
        let source = try copier.control.makeSource(mimeTypes: ["text/plain;charset=utf-8"], payload: [])
        source.holdsFDs = true
        copier.control.set(source)
        copier.client.roundtrip()
        let x = try XTestHarness.selectionClient(xwayland)
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) == wm.selectionWindow })
        x.dieAfterReading = 3
        x.convert(clipboard, to: x.atom("UTF8_STRING"))
        #expect(
            copier.client.wait(seconds: 20) {
                x.pump(); return source.heldFDs.count == 1
            })
        let fd = try #require(source.heldFDs.first)
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        let bridge = try #require(wm.selections.first { $0.selection === server.compositor.seat.clipboard })
        let block = [UInt8](repeating: 0x63, count: 16 << 10)
        var written = 0
        var writeError: Int32 = 0
        // 4 MiB offered; the requestor reads 3 chunks of 64 KiB and dies.
        #expect(
            copier.client.wait(seconds: 30) {
                x.pump()
                while written < 4 << 20 {
                    let count = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    if count > 0 { written += count; continue }
                    if count < 0, errno != EAGAIN { writeError = errno }
                    break
                }
                return writeError != 0
            })
        #expect(writeError == EPIPE)
        #expect(!x.isConnected && x.chunksRead == 3)
        #expect(bridge.requests.isEmpty)
        // What was written: the three chunks read, one held, at most a pipe's worth besides.
        #expect(written >= 4 * XSelection.incrChunk && written < 4 << 20)
    }

    @Test func aWaylandClientOfferingEverNewMimeTypesMakesAtMost4096XAtoms() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let copier = try ControlClient(server, flavor: .wlr)
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        func exists(_ name: String) -> Bool {
            let cookie = xcb_intern_atom(x.c, 1, UInt16(name.utf8.count), name)
            guard let reply = xcb_intern_atom_reply(x.c, cookie, nil) else { return false }
            defer { free(reply) }
            return reply.pointee.atom != 0
        }
        var sources: [TestDataControlSource] = []
        defer { withExtendedLifetime(sources) {} }
        // 33 sources of 128 new names each: 4,224 names, past the cap.
        for round in 0..<33 {
            let types = (0..<128).map { "application/x-strata-\(round)-\($0)" }
            let source = try copier.control.makeSource(mimeTypes: types, payload: [])
            copier.control.set(source)
            copier.client.roundtrip()
            sources.append(source)
            #expect(
                server.run(seconds: 20) { wm.selections.allSatisfy { $0.conversionCount == 0 } && wm.replies.isEmpty })
        }
        #expect(wm.createdAtomNames.count == XWM.maxCreatedAtoms)
        #expect(exists("application/x-strata-0-0") && exists("application/x-strata-31-127"))
        #expect(!exists("application/x-strata-32-0") && !exists("application/x-strata-32-127"))
        // What X clients have made is still offered.
        let made = x.atom("application/x-strata-32-5")
        let last = try copier.control.makeSource(
            mimeTypes: ["application/x-strata-32-5", "application/x-strata-33-0"], payload: [])
        sources.append(last)
        copier.control.set(last)
        copier.client.roundtrip()
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { wm.replies.isEmpty && x.owner(of: clipboard) == wm.selectionWindow })
        x.convert(clipboard, to: x.atom("TARGETS"))
        #expect(
            server.run(seconds: 20) {
                x.pump(); return x.received != nil
            })
        let targets = (x.received ?? []).withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(targets.contains(made))
        #expect(!exists("application/x-strata-33-0"))
    }

    @Test func ownersChangingWhileAReaderDoesNotReadLeaveAtMostTwoConversionsWriting() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let reader = try ControlClient(server, flavor: .wlr)
        let bridge = try #require(wm.selections.first { $0.selection === server.compositor.seat.clipboard })
        var owners: [TestXSelectionClient] = []
        var fds: [Int32] = []
        defer {
            for owner in owners { owner.disconnect() }
            for fd in fds { close(fd) }
        }
        // Four owners in turn, each answering 1 MiB in one property to a reader that reads
        // nothing: the pipe takes 64 KiB, the rest is held.
        for index in 0..<4 {
            let x = try XTestHarness.selectionClient(xwayland)
            owners.append(x)
            x.data = [x.atom("UTF8_STRING"): [UInt8](repeating: UInt8(0x41 + index), count: 1 << 20)]
            let events = reader.control.selectionEvents
            x.own(x.atom("CLIPBOARD"))
            #expect(
                reader.client.wait(seconds: 20) {
                    owners.forEach { $0.pump() }
                    return reader.control.selectionEvents > events && reader.control.selection != nil
                })
            #expect(bridge.drainingCount == min(index, XSelection.maxDraining))
            fds.append(try #require(reader.control.receive("text/plain;charset=utf-8")))
            // Written into the pipe (readable), the rest held.
            let fd = fds[index]
            #expect(
                reader.client.wait(seconds: 20) {
                    x.pump()
                    var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    return poll(&pending, 1, 0) > 0 && bridge.conversionCount == bridge.drainingCount + 1
                })
        }
        // The third owner's conversion was dropped when the fourth came: its reader gets what the
        // pipe took, then the end; the first two still hold theirs.
        let third = StrataTestSupport.readToEnd(fds[2], stepping: reader.client)
        #expect(third.eof && third.bytes.count < 1 << 20 && !third.bytes.isEmpty)
        #expect(!readAvailable(fds[0]).eof)
        #expect(bridge.drainingCount == XSelection.maxDraining)
    }
}
