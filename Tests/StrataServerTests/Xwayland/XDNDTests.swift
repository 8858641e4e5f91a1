import CStrataClientGlue
import CWaylandClient
import CXCB
import Foundation
import StrataModel
@testable import StrataServer
import StrataTestSupport
import Testing

/// A Wayland drag over an X window (`XDND`, `XDropTarget`): a real Xwayland, the X side as the
/// test over xcb (`TestXSelectionClient`: an XdndAware window, its client messages recorded),
/// a Wayland client dragging text (`DragClient`).
struct XDNDScene {
    // Released in this order: the Wayland client, the X client, then Xwayland and the server.
    let wayland: DragClient
    let x: TestXSelectionClient
    let target: xcb_window_t
    let wm: XWM
    let xwayland: Xwayland
    let server: TestServer
    var seat: Seat { server.compositor.seat }
    var output: ScreenOutput { server.compositor.scene.outputs[0] }

    /// The X window at (100, 0), 200×200, XdndAware of `version` (nil: not aware).
    init(version: UInt32? = 5) throws {
        let (server, xwayland) = try XTestHarness.start()
        self.server = server
        self.xwayland = xwayland
        guard let wm = xwayland.wm else { throw XwaylandError.setup("the XWM did not connect") }
        self.wm = wm
        let x = try #require(TestXSelectionClient(display: xwayland.displayName))
        self.x = x
        target = XTestHarness.createWindow(x.c, x: 100, y: 0, width: 200, height: 200, overrideRedirect: true)
        if let version {
            XTestHarness.set(
                x.c, target, x.atom("XdndAware"), type: XCB_ATOM_ATOM.rawValue, format: 32,
                XTestHarness.bytes([version]))
        }
        xcb_map_window(x.c, target)
        xcb_flush(x.c)
        do {
            wayland = try DragClient(server, x: 0)
        } catch {
            x.disconnect()
            xwayland.shutdown()
            throw error
        }
        let target = target
        let shown = server.run(seconds: 20) {
            wm.window(target)?.surface?.placement != nil && wm.window(target)?.window?.isVisible == true
        }
        guard shown else {
            x.disconnect()
            xwayland.shutdown()
            throw XwaylandError.setup("the X window did not show")
        }
        wayland.client.roundtrip()
    }

    func shutdown() {
        x.disconnect()
        xwayland.shutdown()
    }

    func motion(_ px: Double, _ py: Double) {
        seat.pointerMotion(on: output, x: px, y: py, time: 1)
    }

    /// Starts a drag of `source` from the Wayland window (pressed at (10, 10)).
    func startDrag(_ source: TestDataSource) {
        motion(10, 10)
        seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        wayland.client.roundtrip()
        wl_data_device_start_drag(
            wayland.device.device, source.source, wayland.surface.surface, nil, wayland.seat.lastPressSerial)
        wayland.client.roundtrip()
    }

    /// Starts a drag of `source` and moves it over the X window: whether its first XdndPosition
    /// came.
    func dragOverTarget(_ source: TestDataSource) -> Bool {
        startDrag(source)
        motion(150, 50)
        return wait { messages("XdndPosition").count == 1 }
    }

    /// The X window accepts (XdndStatus, copy): whether the source heard of it.
    func accept(_ source: TestDataSource) -> Bool {
        status()
        return wait { source.dragEvents.contains("target(text/plain)") }
    }

    func release() {
        seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        wayland.client.roundtrip()
    }

    /// Steps both sides until `condition`, 20 seconds at most.
    func wait(_ condition: () -> Bool) -> Bool {
        wayland.client.wait(seconds: 20) {
            x.pump()
            return condition()
        }
    }

    /// The client messages of `name` the X window got.
    func messages(_ name: String) -> [xcb_client_message_event_t] {
        let type = x.atom(name)
        return x.clientMessages.filter { $0.type == type }
    }

    /// A client message from the X window's client to `window` (the XWM's, unless given).
    func send(_ name: String, _ data: [UInt32], to window: xcb_window_t? = nil) {
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = window ?? wm.selectionWindow
        event.type = x.atom(name)
        withUnsafeMutableBytes(of: &event.data) { raw in
            for (index, word) in data.prefix(5).enumerated() {
                raw.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self)
            }
        }
        x.forge(event, to: event.window)
    }

    /// XdndStatus accepting with copy (or refusing).
    func status(accepts: Bool = true) {
        send("XdndStatus", [target, accepts ? 1 : 0, 0, 0, accepts ? x.atom("XdndActionCopy") : 0])
    }

    func finished(accepted: Bool = true) {
        send("XdndFinished", [target, accepted ? 1 : 0, accepted ? x.atom("XdndActionCopy") : 0])
    }
}

@Suite(
    "XDND: Wayland drags onto X windows", .serialized,
    .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XDNDTests {
    private static let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue

    @Test func aWaylandDragDropsTextOnAnXdndAwareXWindow() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let source = try s.wayland.source("hello by drag")
        #expect(s.dragOverTarget(source))
        let enter = try #require(s.messages("XdndEnter").first)
        #expect(enter.window == s.target)
        #expect(enter.data.data32.0 == s.wm.selectionWindow)
        #expect(enter.data.data32.1 >> 24 == 5)
        let types = [enter.data.data32.2, enter.data.data32.3, enter.data.data32.4]
        #expect(types.contains(s.x.atom("UTF8_STRING")))
        #expect(types.contains(s.x.atom("text/plain")))
        let position = try #require(s.messages("XdndPosition").first)
        #expect(position.data.data32.2 == 150 << 16 | 50)
        #expect(position.data.data32.4 == s.x.atom("XdndActionCopy"))
        // Motion while the position waits for its status: the latest point goes after it.
        s.motion(160, 60)
        s.motion(170, 70)
        s.status()
        #expect(s.wait { s.messages("XdndPosition").count == 2 && source.dragEvents.contains("action(\(Self.copy))") })
        let last = try #require(s.messages("XdndPosition").last)
        #expect(last.data.data32.2 == UInt32(170 << 16 | 70))
        #expect(source.dragEvents.contains("target(text/plain)"))
        s.status()
        s.release()
        #expect(s.wait { s.messages("XdndDrop").count == 1 })
        #expect(source.dragEvents.contains("dnd_drop_performed"))
        // The X window reads the data through XdndSelection, as a paste would.
        s.x.convert(s.x.atom("XdndSelection"), to: s.x.atom("UTF8_STRING"))
        #expect(s.wait { s.x.received != nil })
        #expect(s.x.received == Array("hello by drag".utf8))
        s.finished()
        #expect(s.wait { source.dragEvents.contains("dnd_finished") })
        #expect(!source.cancelled)
        #expect(s.wm.dnd.dropped == nil && s.wm.dnd.current == nil)
        // XdndSelection is given up once the drag is over.
        #expect(s.wait { s.x.owner(of: s.x.atom("XdndSelection")) == 0 })
    }

    @Test func moreThanThreeTypesGoInXdndTypeList() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let source = try TestDataSource(
            manager: s.wayland.manager, mimeTypes: ["text/plain", "text/html", "image/png", "text/uri-list"],
            payload: [])
        wl_data_source_set_actions(source.source, Self.copy)
        s.startDrag(source)
        s.motion(150, 50)
        #expect(s.wait { !s.messages("XdndEnter").isEmpty })
        let enter = try #require(s.messages("XdndEnter").first)
        #expect(enter.data.data32.1 & 1 == 1)
        let list = XTestHarness.words(s.x.c, s.wm.selectionWindow, s.x.atom("XdndTypeList"))
        for name in ["text/plain", "text/html", "image/png", "text/uri-list", "UTF8_STRING"] {
            #expect(list.contains(s.x.atom(name)), "\(name) missing")
        }
    }

    @Test func aTargetThatNeverAnswersGetsLeaveAtTheReleaseAndTheSourceIsCancelled() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let source = try s.wayland.source()
        #expect(s.dragOverTarget(source))
        // Motion piles up nowhere: one position waits for a status that never comes.
        for step in 0..<500 { s.motion(150 + Double(step % 100), 50) }
        s.release()
        #expect(s.wait { s.messages("XdndLeave").count == 1 && source.cancelled })
        #expect(s.messages("XdndPosition").count == 1)
        #expect(s.messages("XdndDrop").isEmpty)
        #expect(s.wm.dnd.current == nil && s.wm.dnd.dropped == nil)
    }

    @Test func aTargetThatNeverFinishesIsTimedOutAndTheSourceCancelled() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        s.wm.dnd.finishTimeout = 50
        let source = try s.wayland.source()
        #expect(s.dragOverTarget(source))
        #expect(s.accept(source))
        s.release()
        #expect(s.wait { s.messages("XdndDrop").count == 1 })
        #expect(s.wait { source.cancelled })
        #expect(source.dragEvents.suffix(2) == ["dnd_drop_performed", "cancelled"])
        #expect(s.wm.dnd.dropped == nil)
        // A late XdndFinished changes nothing.
        s.finished()
        for _ in 0..<5 { s.wayland.client.roundtrip(); s.x.pump() }
        #expect(!source.dragEvents.contains("dnd_finished"))
    }

    @Test func theDropWindowClosingBeforeItFinishesCancelsTheSource() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let source = try s.wayland.source()
        #expect(s.dragOverTarget(source))
        #expect(s.accept(source))
        s.release()
        #expect(s.wait { s.messages("XdndDrop").count == 1 })
        xcb_destroy_window(s.x.c, s.target)
        xcb_flush(s.x.c)
        #expect(s.wait { source.cancelled })
        #expect(s.wm.dnd.dropped == nil)
    }

    @Test func forgedStatusAndFinishedMessagesAreIgnored() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let source = try s.wayland.source()
        #expect(s.dragOverTarget(source))
        // Naming another window, or sent to a window not the XWM's: not the drag's.
        s.send("XdndStatus", [s.target &+ 1, 1, 0, 0, s.x.atom("XdndActionCopy")])
        s.send("XdndStatus", [s.target, 1, 0, 0, s.x.atom("XdndActionCopy")], to: s.x.window)
        // A finish before any drop.
        s.finished()
        // A flood of finishes before any drop.
        for _ in 0..<2000 { s.send("XdndFinished", [s.target, 1, 0]) }
        s.x.sync()
        for _ in 0..<10 { s.wayland.client.roundtrip(); s.x.pump() }
        #expect(source.dragEvents.isEmpty)
        // The real answer still counts.
        #expect(s.accept(source))
        // Statuses past the one the position asked for change nothing.
        for _ in 0..<2000 { s.status(accepts: false) }
        s.x.sync()
        for _ in 0..<10 { s.wayland.client.roundtrip(); s.x.pump() }
        #expect(!source.dragEvents.contains("target(null)"))
        s.release()
        #expect(s.wait { s.messages("XdndDrop").count == 1 })
        // Another window's finish does not finish this drop.
        s.send("XdndFinished", [s.target &+ 1, 1, s.x.atom("XdndActionCopy")])
        for _ in 0..<10 { s.wayland.client.roundtrip(); s.x.pump() }
        #expect(!source.dragEvents.contains("dnd_finished"))
        s.finished()
        #expect(s.wait { source.dragEvents.contains("dnd_finished") })
    }

    @Test func aWindowWithoutXdndAwareHearsNothingAndTheDropCancels() throws {
        let s = try XDNDScene(version: nil)
        defer { s.shutdown() }
        let source = try s.wayland.source()
        s.startDrag(source)
        s.motion(150, 50)
        for _ in 0..<20 { s.wayland.client.roundtrip(); s.x.pump() }
        s.release()
        #expect(s.wait { source.cancelled })
        #expect(s.x.clientMessages.isEmpty)
    }

    @Test func aSourceThatNeverWritesHoldsOneRequestUntilTheDropWindowsClientGoes() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let source = try s.wayland.source()
        source.holdsFDs = true
        #expect(s.dragOverTarget(source))
        #expect(s.accept(source))
        s.release()
        #expect(s.wait { s.messages("XdndDrop").count == 1 })
        s.x.convert(s.x.atom("XdndSelection"), to: s.x.atom("UTF8_STRING"))
        #expect(s.wait { source.heldFDs.count == 1 })
        let bridge = try #require(s.wm.dnd.selection)
        #expect(bridge.requests.count == 1)
        // Nothing comes, nothing blocks: the clipboard still goes to X meanwhile.
        let copier = try ControlClient(s.server, flavor: .wlr)
        let clipboardSource = try copier.copy("meanwhile")
        defer { withExtendedLifetime(clipboardSource) {} }
        let clipboard = s.x.atom("CLIPBOARD")
        #expect(s.wait { s.x.owner(of: clipboard) != 0 })
        #expect(s.x.received == nil && !s.x.refused)
        // The X client dies: its request ends (Strata's end of the pipe closes), the drop window
        // is gone (the source cancelled).
        s.x.disconnect()
        #expect(s.wait { bridge.requests.isEmpty && source.cancelled })
        let held = try #require(source.heldFDs.first)
        defer { close(held) }
        #expect(write(held, "x", 1) == -1 && errno == EPIPE)
    }

    @Test func aMoveOnlySourceAsksForMoveAndTheWindowsMoveIsItsAction() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let move = WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue
        let source = try s.wayland.source(actions: move)
        #expect(s.dragOverTarget(source))
        #expect(s.messages("XdndPosition").first?.data.data32.4 == s.x.atom("XdndActionMove"))
        // A copy the source does not offer: the action asked for, move.
        s.send("XdndStatus", [s.target, 1, 0, 0, s.x.atom("XdndActionCopy")])
        #expect(s.wait { source.dragEvents.contains("action(\(move))") })
        #expect(!source.dragEvents.contains("action(\(Self.copy))"))
    }

    @Test func messagesGoToTheWindowsXdndProxyWhenTheProxyNamesItself() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let proxy = try #require(TestXSelectionClient(display: s.xwayland.displayName))
        defer { proxy.disconnect() }
        let property = s.x.atom("XdndProxy")
        XTestHarness.set(
            s.x.c, s.target, property, type: XCB_ATOM_WINDOW.rawValue, format: 32, XTestHarness.bytes([proxy.window]))
        XTestHarness.set(
            proxy.c, proxy.window, property, type: XCB_ATOM_WINDOW.rawValue, format: 32,
            XTestHarness.bytes([proxy.window]))
        s.x.sync()
        proxy.sync()
        let source = try s.wayland.source()
        s.startDrag(source)
        s.motion(150, 50)
        let position = s.x.atom("XdndPosition")
        #expect(
            s.wait {
                proxy.pump(); return proxy.clientMessages.contains { $0.type == position }
            })
        // The message names the target window; the window itself hears nothing.
        #expect(proxy.clientMessages.first?.window == s.target)
        #expect(s.x.clientMessages.isEmpty)
    }

    @Test func leavingTheXWindowSendsLeaveAndTheWaylandWindowGetsTheDragAgain() throws {
        let s = try XDNDScene()
        defer { s.shutdown() }
        let source = try s.wayland.source()
        #expect(s.dragOverTarget(source))
        #expect(s.accept(source))
        s.motion(20, 20)
        #expect(s.wait { s.messages("XdndLeave").count == 1 })
        #expect(s.wait { source.dragEvents.last == "target(null)" || source.dragEvents.last == "action(0)" })
        s.release()
        #expect(s.wait { source.cancelled })
        #expect(s.messages("XdndDrop").isEmpty)
    }
}
