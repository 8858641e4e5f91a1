import CXCB
import Foundation
@testable import StrataServer
import StrataModel
import StrataTestSupport
import Testing

/// The XWM as X's clipboard manager (`XClipboardManager`: SAVE_TARGETS keeps what an X owner
/// copied once it quits) and `MULTIPLE` answered for a Wayland source (`XSelection+Multiple`),
/// with a real Xwayland, the test as X clients over xcb and a data control client on the
/// Wayland side.
@Suite(
    "X clipboard manager and MULTIPLE", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage)
)
struct XClipboardManagerTests {
    /// Reads `fd` while stepping, until its end.
    private static func readToEnd(_ fd: Int32, _ reader: ControlClient, pumping x: TestXSelectionClient?) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = reader.client.wait(seconds: 30) {
            x?.pump()
            let (more, end) = readAvailable(fd)
            bytes += more
            return end
        }
        return bytes
    }

    @Test func whatAnXOwnerSavedBeforeQuittingStaysOnTheClipboardForWaylandAndX() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let owner = try XTestHarness.selectionClient(xwayland)
        defer { owner.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        let clipboard = owner.atom("CLIPBOARD")
        owner.data = [
            owner.atom("UTF8_STRING"): Array("saved from X".utf8), owner.atom("text/html"): Array("<i>X</i>".utf8),
        ]
        owner.targets = [owner.atom("TARGETS"), owner.atom("UTF8_STRING"), owner.atom("text/html")]
        owner.own(clipboard)
        #expect(
            reader.client.wait(seconds: 20) {
                owner.pump(); return reader.control.selection != nil
            })
        // The XWM is the clipboard manager.
        let manager = owner.atom("CLIPBOARD_MANAGER")
        #expect(owner.owner(of: manager) == wm.selectionWindow)

        // Quitting, the owner asks the manager to save its clipboard, and answers the conversions.
        owner.convert(manager, to: owner.atom("SAVE_TARGETS"), property: owner.atom("STRATA_TEST_SAVE"))
        #expect(
            server.run(seconds: 20) {
                owner.pump(); return owner.received != nil || owner.refused
            })
        #expect(!owner.refused, "SAVE_TARGETS was refused")
        #expect(wm.clipboardManager?.savedBytes == "saved from X".utf8.count + "<i>X</i>".utf8.count)
        owner.disconnect()

        // Wayland clients still paste it, every type.
        #expect(
            reader.client.wait(seconds: 20) { wm.clipboardManager?.source != nil && reader.control.selection != nil })
        #expect(reader.control.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain", "text/html"])
        let fd = try #require(reader.control.receive("text/plain;charset=utf-8"))
        defer { close(fd) }
        #expect(String(decoding: Self.readToEnd(fd, reader, pumping: nil), as: UTF8.self) == "saved from X")
        let html = try #require(reader.control.receive("text/html"))
        defer { close(html) }
        #expect(String(decoding: Self.readToEnd(html, reader, pumping: nil), as: UTF8.self) == "<i>X</i>")

        // So do X clients: the XWM owns CLIPBOARD with it.
        let pasting = try XTestHarness.selectionClient(xwayland)
        defer { pasting.disconnect() }
        #expect(server.run(seconds: 20) { pasting.owner(of: clipboard) == wm.selectionWindow })
        pasting.convert(clipboard, to: pasting.atom("UTF8_STRING"))
        #expect(
            server.run(seconds: 20) {
                reader.client.roundtrip(); pasting.pump(); return pasting.received != nil
            })
        #expect(pasting.received == Array("saved from X".utf8))

        // A new copy replaces it, and the saved data is let go.
        let copier = try ControlClient(server, flavor: .wlr)
        let source = try copier.copy("new from Wayland")
        defer { withExtendedLifetime(source) {} }
        #expect(server.run(seconds: 20) { wm.clipboardManager?.source == nil })
    }

    /// An owner that never answers holds the save (a second request is refused meanwhile); its
    /// death ends the save with nothing kept, and the clipboard is empty.
    @Test func aSaveIsOneAtATimeAndAnOwnerThatDiesMidSaveLeavesNothing() throws {
        let (server, xwayland, wm) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let owner = try XTestHarness.selectionClient(xwayland)
        defer { owner.disconnect() }
        let asker = try XTestHarness.selectionClient(xwayland)
        defer { asker.disconnect() }
        let reader = try ControlClient(server, flavor: .wlr)
        let manager = asker.atom("CLIPBOARD_MANAGER"), save = asker.atom("SAVE_TARGETS")
        // No X owner: nothing to save.
        asker.convert(manager, to: save, property: asker.atom("STRATA_TEST_SAVE"))
        #expect(
            server.run(seconds: 20) {
                asker.pump(); return asker.received != nil || asker.refused
            })
        #expect(asker.refused)

        owner.data = [owner.atom("UTF8_STRING"): Array("x".utf8)]
        owner.own(owner.atom("CLIPBOARD"))
        #expect(
            reader.client.wait(seconds: 20) {
                owner.pump(); return reader.control.selection != nil
            })
        // The owner is not pumped from here: it never answers the save's conversions.
        asker.convert(manager, to: save, property: asker.atom("STRATA_TEST_SAVE"))
        #expect(server.run(seconds: 20) { wm.clipboardManager?.isSaving == true })
        let second = try XTestHarness.selectionClient(xwayland)
        defer { second.disconnect() }
        second.convert(manager, to: save, property: second.atom("STRATA_TEST_SAVE"))
        #expect(
            server.run(seconds: 20) {
                second.pump(); return second.refused
            })
        #expect(!asker.refused && asker.received == nil)

        owner.disconnect()
        #expect(
            server.run(seconds: 20) {
                asker.pump(); return asker.refused
            })
        #expect(wm.clipboardManager?.isSaving == false && wm.clipboardManager?.savedBytes == 0)
        #expect(reader.client.wait(seconds: 20) { reader.control.selection == nil })
    }

    @Test func multipleAnswersEachPairAndRefusesWhatIsNotOffered() throws {
        let (server, xwayland, _) = try XTestHarness.startWithWM()
        defer { xwayland.shutdown() }
        let x = try XTestHarness.selectionClient(xwayland)
        defer { x.disconnect() }
        let copier = try ControlClient(server, flavor: .wlr)
        let source = try copier.copy("from Wayland")
        defer { withExtendedLifetime(source) {} }
        let clipboard = x.atom("CLIPBOARD")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) != 0 })
        let (a, b, c, d) = (x.atom("STRATA_A"), x.atom("STRATA_B"), x.atom("STRATA_C"), x.atom("STRATA_D"))
        let pairs = x.atom("STRATA_PAIRS")
        let utf8 = x.atom("UTF8_STRING"), png = x.atom("image/png"), targets = x.atom("TARGETS")
        x.setProperty(
            pairs, type: x.atom("ATOM_PAIR"), words: [utf8, a, png, b, targets, c, utf8, 0, x.atom("MULTIPLE"), d])
        x.convert(clipboard, to: x.atom("MULTIPLE"), property: pairs)
        #expect(
            server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.received != nil || x.refused
            })
        #expect(!x.refused)
        // Written back: what was not converted is None (image/png is not offered; a pair without
        // a property and a nested MULTIPLE are refused).
        let written = (x.received ?? []).withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(written == [utf8, a, 0, b, targets, c, 0, 0, 0, d])
        #expect(x.property(a).bytes == Array("from Wayland".utf8))
        #expect(x.property(a).type == utf8)
        #expect(x.property(b).bytes.isEmpty)
        let list = x.property(c).bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(list.contains(utf8) && list.contains(x.atom("MULTIPLE")) && !list.contains(png))

        // Without a property MULTIPLE is refused; a hundred pairs are cut to sixteen.
        x.convert(clipboard, to: x.atom("MULTIPLE"), property: 0)
        #expect(
            server.run(seconds: 20) {
                x.pump(); return x.refused
            })
        x.setProperty(
            pairs, type: x.atom("ATOM_PAIR"), words: Array((0..<100).map { [utf8, x.atom("STRATA_P\($0)")] }.joined()))
        x.convert(clipboard, to: x.atom("MULTIPLE"), property: pairs)
        #expect(
            server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.received != nil || x.refused
            })
        #expect((x.received ?? []).count == 16 * 8)
        #expect(x.property(x.atom("STRATA_P15")).bytes == Array("from Wayland".utf8))
        #expect(x.property(x.atom("STRATA_P16")).bytes.isEmpty)
    }
}
