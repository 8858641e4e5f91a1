import CXCB
import Foundation
@testable import StrataServer
import StrataModel
import StrataTestSupport
import Testing

/// Who closes the pipes of the X ↔ Wayland selection bridge (docs/reliability.md, "Descriptor
/// ownership"), with a real Xwayland: a Wayland reader's fd is closed once by its request's
/// handler and the bridge's duplicate once by the transfer, whether the X owner finishes or dies
/// mid-transfer; for an X requestor, the pipe's write end is closed once after it went to the
/// Wayland source and its read end once when the transfer ends.
@Suite(.serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XSelectionDescriptorTests {
    private static func start() throws -> (TestServer, Xwayland) {
        try XTestHarness.start()
    }

    /// An X owner's text read by a Wayland client: the reader's fd and the bridge's duplicate of
    /// it are closed once each, when the owner sends everything and when it dies after a part.
    @Test(arguments: [false, true])
    func anXToWaylandTransferClosesEachDescriptorOnce(ownerDies: Bool) throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let x = try #require(TestXSelectionClient(display: xwayland.displayName))
        defer { x.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        x.data = [x.atom("UTF8_STRING"): [UInt8](repeating: 0x61, count: 200_000)]
        x.incrChunk = 50_000
        if ownerDies { x.dieAfterChunks = 2 }
        x.own(x.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 20) {
                x.pump(); return reader.control.selection != nil
            })
        var bytes: [UInt8] = []
        var eof = false
        let closes = Descriptors.recordingCloses {
            guard let fd = reader.control.receive("text/plain;charset=utf-8") else { return }
            defer { close(fd) }
            _ = reader.client.wait(seconds: 30) {
                x.pump()
                let (more, end) = readAvailable(fd)
                bytes += more
                eof = end
                return end
            }
        }
        #expect(eof)
        #expect(bytes.count == (ownerDies ? 100_000 : 200_000))
        #expect(closes.closed.count == 2 && closes.closedEachOnce, "closed: \(closes.closed)")
    }

    /// A Wayland selection converted for an X client: the pipe's two ends, each closed once.
    @Test func aWaylandToXTransferClosesEachEndOfItsPipeOnce() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let x = try #require(TestXSelectionClient(display: xwayland.displayName))
        defer { x.disconnect() }
        let copier = try ControlClient(server, flavor: .wlr)
        let source = try copier.copy("from Wayland")
        defer { withExtendedLifetime(source) {} }
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) != 0 })
        let closes = Descriptors.recordingCloses {
            x.convert(clipboard, to: x.atom("UTF8_STRING"))
            _ = server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.received != nil
            }
            // The transfer ends (its read end closed) at the end of the source's data.
            _ = server.run(seconds: 20) { xwayland.wm?.selections.allSatisfy { $0.requests.isEmpty } ?? true }
        }
        #expect(x.received == Array("from Wayland".utf8))
        #expect(closes.closed.count == 2 && closes.closedEachOnce, "closed: \(closes.closed)")
    }
}
