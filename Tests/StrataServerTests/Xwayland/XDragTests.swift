import CStrataClientGlue
import CWaylandClient
import CXCB
import Foundation
import StrataModel
@testable import StrataServer
import StrataTestSupport
import Testing

/// An X client's drag over a Wayland window (`XDrag`, `XDragSource`): a real Xwayland, the X
/// side as the test over xcb (`TestXSelectionClient` owning XdndSelection, speaking XDND to the
/// drop window it finds as the topmost XdndAware window under the point, as GTK and Qt do), a
/// Wayland client with a data device as the destination (`DragClient`, at (0, 0), 40×40).
@Suite(
    "XDND: X drags onto Wayland windows", .serialized,
    .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XDragTests {
    private static let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue

    /// The X client owns XdndSelection with `text` as UTF8_STRING, presses on its window (at
    /// (100, 0)) and moves the pointer onto the Wayland window: the drop window it finds there.
    private func begin(_ s: XDNDScene, text: String = "hello from X") throws -> xcb_window_t {
        let x = s.x
        x.data[x.atom("UTF8_STRING")] = Array(text.utf8)
        x.own(x.atom("XdndSelection"))
        #expect(s.wait { s.wm.dnd.selection?.xOwner == x.window })
        s.motion(150, 50)
        s.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        s.motion(10, 10)
        var found: xcb_window_t?
        #expect(
            s.wait {
                found = Self.topmostAware(x.c, at: 10, 10); return found != nil
            })
        let window = try #require(found)
        #expect(window == s.wm.dnd.xDrag?.window)
        return window
    }

    /// The topmost mapped child of the root containing (px, py) that is XdndAware.
    static func topmostAware(_ c: OpaquePointer, at px: Int, _ py: Int) -> xcb_window_t? {
        guard let screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data,
            let tree = xcb_query_tree_reply(c, xcb_query_tree(c, screen.pointee.root), nil)
        else { return nil }
        defer { free(tree) }
        let count = Int(xcb_query_tree_children_length(tree))
        guard let children = xcb_query_tree_children(tree) else { return nil }
        for index in stride(from: count - 1, through: 0, by: -1) {
            let child = children[index]
            guard let attributes = xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, child), nil)
            else { continue }
            let viewable = attributes.pointee.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue)
            free(attributes)
            guard viewable, let geometry = xcb_get_geometry_reply(c, xcb_get_geometry(c, child), nil) else {
                continue
            }
            let g = geometry.pointee
            free(geometry)
            guard px >= Int(g.x), py >= Int(g.y), px < Int(g.x) + Int(g.width), py < Int(g.y) + Int(g.height)
            else { continue }
            let aware = XTestHarness.words(c, child, atom(c, "XdndAware"))
            return aware.isEmpty ? nil : child
        }
        return nil
    }

    private static func atom(_ c: OpaquePointer, _ name: String) -> xcb_atom_t {
        guard let reply = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, UInt16(name.utf8.count), name), nil) else {
            return 0
        }
        defer { free(reply) }
        return reply.pointee.atom
    }

    private func enter(_ s: XDNDScene, _ drop: xcb_window_t, from source: xcb_window_t? = nil) {
        s.send("XdndEnter", [source ?? s.x.window, 5 << 24, s.x.atom("UTF8_STRING"), 0, 0], to: drop)
    }

    private func position(
        _ s: XDNDScene, _ drop: xcb_window_t, _ px: UInt32, _ py: UInt32, from source: xcb_window_t? = nil
    ) {
        s.send("XdndPosition", [source ?? s.x.window, 0, px << 16 | py, 0, s.x.atom("XdndActionCopy")], to: drop)
    }

    /// Enter and a position at (10, 10); the Wayland window's offer accepted with copy.
    private func enterAndAccept(_ s: XDNDScene, _ drop: xcb_window_t) throws -> OpaquePointer {
        enter(s, drop)
        position(s, drop, 10, 10)
        #expect(s.wait { s.wayland.device.dragOffer != nil })
        #expect(
            s.wayland.device.takeDragEvents() == [
                .sourceActions(Self.copy), .enter(surface: s.wayland.surface.id, x: 10, y: 10, hasOffer: true),
            ])
        #expect(s.wayland.device.dragMimeTypes.contains("text/plain;charset=utf-8"))
        let offer = try #require(s.wayland.device.dragOffer)
        wl_data_offer_accept(offer, s.wayland.device.enterSerial, "text/plain;charset=utf-8")
        wl_data_offer_set_actions(offer, Self.copy, Self.copy)
        #expect(s.wait { s.messages("XdndStatus").last.map { $0.data.data32.1 & 1 == 1 } == true })
        let status = try #require(s.messages("XdndStatus").last)
        #expect(status.window == s.x.window)
        #expect(status.data.data32.0 == drop)
        #expect(status.data.data32.4 == s.x.atom("XdndActionCopy"))
        return offer
    }

    @Test func anXDragDropsTextOnAWaylandWindowThatReadsItAndFinishes() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let drop = try begin(s)
        let offer = try enterAndAccept(s, drop)
        position(s, drop, 12, 14)
        #expect(s.wait { s.wayland.device.dragEvents.contains(.motion(x: 12, y: 14)) })
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        s.send("XdndDrop", [s.x.window, 0, 0, 0, 0], to: drop)
        #expect(s.wait { s.wayland.device.dragEvents.contains(.drop) })
        #expect(s.wm.dnd.xDrag?.isMapped == false)
        let fd = try #require(s.wayland.device.receiveDrag("text/plain;charset=utf-8"))
        defer { close(fd) }
        var bytes: [UInt8] = []
        #expect(
            s.wait {
                let r = readAvailable(fd)
                bytes += r.bytes
                return r.eof
            })
        #expect(String(decoding: bytes, as: UTF8.self) == "hello from X")
        wl_data_offer_finish(offer)
        #expect(s.wait { !s.messages("XdndFinished").isEmpty })
        let finished = try #require(s.messages("XdndFinished").first)
        #expect(finished.data.data32.0 == drop && finished.data.data32.1 & 1 == 1)
        #expect(finished.data.data32.2 == s.x.atom("XdndActionCopy"))
        #expect(s.wm.dnd.xDrag?.stage == .idle)
    }

    @Test func aDropTheWaylandWindowDidNotAcceptIsRefusedAtOnce() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let drop = try begin(s)
        enter(s, drop)
        position(s, drop, 10, 10)
        #expect(s.wait { s.wayland.device.dragOffer != nil && !s.messages("XdndStatus").isEmpty })
        #expect(s.messages("XdndStatus").allSatisfy { $0.data.data32.1 & 1 == 0 })
        s.send("XdndDrop", [s.x.window, 0, 0, 0, 0], to: drop)
        #expect(s.wait { !s.messages("XdndFinished").isEmpty })
        #expect(s.messages("XdndFinished").first.map { $0.data.data32.1 & 1 } == 0)
        #expect(!s.wayland.device.dragEvents.contains(.drop))
        #expect(s.wait { s.wayland.device.dragEvents.last == .leave })
    }

    @Test func messagesFromAnotherWindowThanTheDragsSourceAreIgnored() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let drop = try begin(s)
        // An enter from a window that does not own XdndSelection: nothing.
        enter(s, drop, from: s.target)
        position(s, drop, 10, 10, from: s.target)
        // The real drag (its enter is the Wayland window's first drag event: the forged ones
        // before it made none); a forged drop and leave from another window change nothing.
        let offer = try enterAndAccept(s, drop)
        s.send("XdndLeave", [s.target, 0, 0, 0, 0], to: drop)
        s.send("XdndDrop", [s.target, 0, 0, 0, 0], to: drop)
        position(s, drop, 11, 11)
        #expect(s.wait { s.wayland.device.dragEvents.contains(.motion(x: 11, y: 11)) })
        #expect(s.wm.dnd.xDrag?.stage == .entered)
        #expect(!s.wayland.device.dragEvents.contains(.drop))
        _ = offer
    }

    @Test func theSourceQuittingMidDragLeavesTheWaylandWindow() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let drop = try begin(s)
        _ = try enterAndAccept(s, drop)
        s.x.disconnect()
        #expect(s.wait { s.wayland.device.dragEvents.last == .leave })
        #expect(s.wm.dnd.xDrag?.stage == .idle)
    }

    @Test func aWaylandWindowThatNeverFinishesIsTimedOutAndTheSourceHearsARefusal() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        s.wm.dnd.xDrag?.finishTimeout = 50
        let drop = try begin(s)
        _ = try enterAndAccept(s, drop)
        s.send("XdndDrop", [s.x.window, 0, 0, 0, 0], to: drop)
        #expect(s.wait { s.wayland.device.dragEvents.contains(.drop) })
        #expect(s.wait { !s.messages("XdndFinished").isEmpty })
        #expect(s.messages("XdndFinished").first.map { $0.data.data32.1 & 1 } == 0)
        #expect(s.wm.dnd.xDrag?.stage == .idle)
    }

    @Test func aFloodOfPositionsIsAnsweredWithoutPilingUpAndTheDragGoesOn() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let drop = try begin(s)
        let offer = try enterAndAccept(s, drop)
        for step in 0..<2000 { position(s, drop, UInt32(step % 30), 5) }
        position(s, drop, 33, 33)
        #expect(s.wait { s.wayland.device.dragEvents.contains(.motion(x: 33, y: 33)) })
        #expect(s.wm.deferredWriteCount < 8)
        s.send("XdndDrop", [s.x.window, 0, 0, 0, 0], to: drop)
        #expect(s.wait { s.wayland.device.dragEvents.contains(.drop) })
        wl_data_offer_finish(offer)
        #expect(s.wait { s.messages("XdndFinished").first.map { $0.data.data32.1 & 1 == 1 } == true })
    }

    @Test func theDropWindowIsUnmappedOverXWindowsAndWhenTheButtonGoesUp() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let drop = try begin(s)
        s.motion(150, 50)
        #expect(s.wm.dnd.xDrag?.isMapped == false)
        #expect(s.wait { Self.topmostAware(s.x.c, at: 150, 50) == s.target })
        s.motion(10, 10)
        #expect(s.wait { Self.topmostAware(s.x.c, at: 10, 10) == drop })
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        #expect(s.wm.dnd.xDrag?.isMapped == false)
        #expect(s.wait { Self.topmostAware(s.x.c, at: 10, 10) == nil })
    }

    @Test func aPressOnAWaylandWindowNeverMapsTheDropWindow() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        s.x.own(s.x.atom("XdndSelection"))
        #expect(s.wait { s.wm.dnd.selection?.xOwner == s.x.window })
        s.motion(10, 10)
        s.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        s.motion(20, 20)
        #expect(s.wm.dnd.xDrag?.isMapped == false)
        // Pressed on the X window, the same motion maps it.
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        s.motion(150, 50)
        s.seat.pointerButton(BTN_LEFT, pressed: true, time: 4)
        s.motion(20, 20)
        #expect(s.wm.dnd.xDrag?.isMapped == true)
    }

    @Test func aDroppedWaylandWindowThatGoesWithoutFinishingRefusesTheDropAtOnce() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        s.wm.dnd.xDrag?.finishTimeout = 600_000
        let drop = try begin(s)
        let offer = try enterAndAccept(s, drop)
        s.send("XdndDrop", [s.x.window, 0, 0, 0, 0], to: drop)
        #expect(s.wait { s.wayland.device.dragEvents.contains(.drop) })
        // The window closes: its offer goes unfinished (a v3 offer: it gave up).
        wl_data_offer_destroy(offer)
        #expect(s.wait { !s.messages("XdndFinished").isEmpty })
        #expect(s.messages("XdndFinished").first.map { $0.data.data32.1 & 1 } == 0)
        #expect(s.wm.dnd.xDrag?.stage == .idle)
    }
}
