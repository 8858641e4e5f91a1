import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// `WM_TRANSIENT_FOR` makes an X window the child of the X window it names in the model (as
/// xdg_toplevel.set_parent), at map or after; `_NET_WM_STATE_MODAL` makes it modal for it (as
/// xdg_dialog_v1). Raising the parent keeps its dialogs above it.
@Suite(
    "The XWM's transients and modal windows", .serialized,
    .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMTransientTests {
    private typealias H = XTestHarness

    private static func setTransient(_ c: OpaquePointer, _ window: xcb_window_t, for parent: xcb_window_t) {
        H.set(
            c, window, XCB_ATOM_WM_TRANSIENT_FOR.rawValue, type: XCB_ATOM_WINDOW.rawValue, format: 32,
            H.bytes([parent]))
    }

    /// The most parents any of `windows` has (100 at most: a longer chain is counted as 100).
    private static func longestChain(_ windows: [Window]) -> Int {
        windows.map { window in
            var count = 0
            var parent = window.parent
            while let p = parent, count < 100 {
                count += 1
                parent = p.parent
            }
            return count
        }.max() ?? 0
    }

    /// A chain mapped from its last window to its first: each window's dialog is linked before
    /// the window itself has its parent, and the tree below a window counts when it is linked,
    /// so the chain still stops at 32 parents (measured only upwards, it grew to 39).
    @Test func aChainMappedFromItsEndStillStopsAtThirtyTwoParents() throws {
        var logged: [String] = []
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        xwayland.log = { logged.append($0) }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        var chain: [xcb_window_t] = []
        for index in 0..<40 {
            let window = H.createWindow(c, x: 0, y: 0, width: 20, height: 20)
            H.setClass(c, window, "chain\(index)")
            if let previous = chain.last { Self.setTransient(c, window, for: previous) }
            chain.append(window)
        }
        for window in chain.reversed() {
            xcb_map_window(c, window)
            xcb_flush(c)
            let mapped = chain.count - (chain.firstIndex(of: window) ?? 0)
            #expect(server.run(seconds: 10) { H.x11Windows(server).filter(\.isVisible).count == mapped })
        }
        func model(_ name: String) -> Window? { H.x11Windows(server).first { $0.appID == name } }
        // chain7 (31 parents below it once chain39 is linked) was refused under chain6.
        #expect(Self.longestChain(H.x11Windows(server)) == 32)
        #expect(model("chain7")?.parent == nil && model("chain8")?.parent === model("chain7"))
        #expect(logged.filter { $0.contains("more than 32 parents") }.count == 1)
        // The chain's last 7 windows destroyed, their trees leave the measures above them:
        // chain7 asked again fits under chain6 (6 + 1 + 25 levels).
        for window in chain[33...] { xcb_destroy_window(c, window) }
        xcb_flush(c)
        #expect(server.run(seconds: 10) { H.x11Windows(server).count == 33 })
        Self.setTransient(c, chain[7], for: chain[6])
        xcb_flush(c)
        #expect(server.run(seconds: 10) { model("chain7")?.parent === model("chain6") })
        #expect(Self.longestChain(H.x11Windows(server)) == 32)
    }

    private static func setTitle(_ c: OpaquePointer, _ window: xcb_window_t, _ title: String) {
        H.set(c, window, H.atom(c, "_NET_WM_NAME"), type: H.atom(c, "UTF8_STRING"), format: 8, Array(title.utf8))
    }

    /// A window of class `name` mapped and shown (key), with `before` run on it before the map.
    private static func mapped(
        _ server: TestServer, _ c: OpaquePointer, _ name: String,
        before: (xcb_window_t) -> Void = { _ in }
    ) throws -> (xcb_window_t, Window) {
        let window = H.createWindow(c, x: 0, y: 0, width: 60, height: 40)
        H.setClass(c, window, name)
        before(window)
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == name && $0.isVisible } })
        return (window, try #require(H.x11Windows(server).first { $0.appID == name }))
    }

    /// A property change the XWM reads after the ones before it: once the title is in, so is
    /// every property set before it.
    private static func barrier(_ server: TestServer, _ c: OpaquePointer, _ window: xcb_window_t, _ model: Window) {
        let title = "barrier \(UInt32.random(in: 0...UInt32.max))"
        setTitle(c, window, title)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.title == title })
    }

    @Test func aTransientSetAtMapIsTheChildAndStaysAboveItsRaisedParent() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (parent, parentModel) = try Self.mapped(server, c, "parent")
        let (_, dialog) = try Self.mapped(server, c, "dialog") { Self.setTransient(c, $0, for: parent) }
        #expect(dialog.parent === parentModel)
        let (_, other) = try Self.mapped(server, c, "other")
        #expect(server.windows.windows.map(\.appID) == ["parent", "dialog", "other"])
        server.windows.orderFront(parentModel)
        #expect(server.windows.windows.map(\.appID) == ["other", "parent", "dialog"])
        // Making the parent key moves nothing: the dialog is above it already.
        #expect(server.windows.makeKey(parentModel))
        #expect(server.windows.windows.map(\.appID) == ["other", "parent", "dialog"])
        server.windows.orderBack(parentModel)
        #expect(server.windows.windows.map(\.appID) == ["parent", "dialog", "other"])
        #expect(other.parent == nil)
    }

    @Test func aTransientSetOrChangedAfterMapAndUnsetFollowsInTheModel() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (dialog, dialogModel) = try Self.mapped(server, c, "dialog")
        let (first, firstModel) = try Self.mapped(server, c, "first")
        let (second, secondModel) = try Self.mapped(server, c, "second")
        #expect(dialogModel.parent == nil)
        Self.setTransient(c, dialog, for: first)
        Self.barrier(server, c, dialog, dialogModel)
        #expect(dialogModel.parent === firstModel)
        // It was behind its new parent: ordered front, above it.
        #expect(server.windows.windows.map(\.appID) == ["first", "second", "dialog"])
        Self.setTransient(c, dialog, for: second)
        Self.barrier(server, c, dialog, dialogModel)
        #expect(dialogModel.parent === secondModel)
        xcb_delete_property(c, dialog, XCB_ATOM_WM_TRANSIENT_FOR.rawValue)
        Self.barrier(server, c, dialog, dialogModel)
        #expect(dialogModel.parent == nil)
        // Transient for the root, itself, or a window that does not exist: no parent.
        for target in [H.root(c), dialog, first | 0xfff0] {
            Self.setTransient(c, dialog, for: target)
            Self.barrier(server, c, dialog, dialogModel)
            #expect(dialogModel.parent == nil)
        }
        // The parent destroyed: the child is left without a parent, as a Wayland child is.
        Self.setTransient(c, dialog, for: first)
        Self.barrier(server, c, dialog, dialogModel)
        #expect(dialogModel.parent === firstModel)
        xcb_destroy_window(c, first)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { firstModel.isClosed })
        #expect(dialogModel.parent == nil)
        #expect(dialogModel.isVisible)
    }

    @Test func aTransientMappedBeforeItsParentBecomesItsChildWhenTheParentMaps() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let parent = H.createWindow(c, x: 0, y: 0, width: 60, height: 40)
        H.setClass(c, parent, "parent")
        let (_, dialog) = try Self.mapped(server, c, "dialog") { Self.setTransient(c, $0, for: parent) }
        #expect(dialog.parent == nil)
        xcb_map_window(c, parent)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "parent" } })
        let parentModel = try #require(H.x11Windows(server).first { $0.appID == "parent" })
        #expect(dialog.parent === parentModel)
    }

    @Test func aCycleOfTransientsIsRefusedAndLoggedOnce() throws {
        var logged: [String] = []
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        xwayland.log = { logged.append($0) }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (a, aModel) = try Self.mapped(server, c, "a")
        let (b, bModel) = try Self.mapped(server, c, "b") { Self.setTransient(c, $0, for: a) }
        #expect(bModel.parent === aModel)
        for _ in 0..<3 {
            Self.setTransient(c, a, for: b)
            Self.barrier(server, c, a, aModel)
        }
        #expect(aModel.parent == nil)
        #expect(bModel.parent === aModel)
        #expect(logged.filter { $0.contains("WM_TRANSIENT_FOR") }.count == 1)
        // The XWM keeps going: b is still a's child and a new transient works.
        let (_, cModel) = try Self.mapped(server, c, "c") { Self.setTransient(c, $0, for: b) }
        #expect(cModel.parent === bModel)
    }

    @Test func aModalTransientTakesKeyFromItsParentAtMapAndByMessage() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let state = H.atom(c, "_NET_WM_STATE")
        let modal = H.atom(c, "_NET_WM_STATE_MODAL")
        #expect(H.words(c, H.root(c), H.atom(c, "_NET_SUPPORTED")).contains(modal))
        let (parent, parentModel) = try Self.mapped(server, c, "parent")
        let (_, dialog) = try Self.mapped(server, c, "dialog") {
            Self.setTransient(c, $0, for: parent)
            H.set(c, $0, state, type: XCB_ATOM_ATOM.rawValue, format: 32, H.bytes([modal]))
        }
        #expect(dialog.isModal)
        #expect(dialog.isKeyWindow)
        // Asking for the parent gives key to its modal dialog.
        #expect(!server.windows.makeKey(parentModel))
        #expect(dialog.isKeyWindow)
        // A second dialog made modal by message after map.
        let (second, secondModel) = try Self.mapped(server, c, "second") { Self.setTransient(c, $0, for: parent) }
        #expect(!secondModel.isModal)
        H.sendToRoot(c, window: second, type: state, [1, modal, 0, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { secondModel.isModal })
        #expect(server.run(seconds: 20) { H.words(c, second, state).contains(modal) })
        #expect(server.windows.modalBlocker(of: parentModel) === secondModel)
        H.sendToRoot(c, window: second, type: state, [0, modal, 0, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { !secondModel.isModal })
        #expect(server.windows.modalBlocker(of: parentModel) === dialog)
    }

    @Test func aChainOfTransientsStopsAtThirtyTwoParentsAndManyWaitForOneParent() throws {
        var logged: [String] = []
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        xwayland.log = { logged.append($0) }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        // 40 windows, each transient for the one before: the 33rd parent and later are refused.
        var previous: xcb_window_t = 0
        var chain: [xcb_window_t] = []
        for index in 0..<40 {
            let window = H.createWindow(c, x: 0, y: 0, width: 20, height: 20)
            H.setClass(c, window, "chain\(index)")
            if previous != 0 { Self.setTransient(c, window, for: previous) }
            xcb_map_window(c, window)
            chain.append(window)
            previous = window
        }
        xcb_flush(c)
        #expect(server.run(seconds: 30) { H.x11Windows(server).filter(\.isVisible).count == 40 })
        func model(_ name: String) -> Window? { H.x11Windows(server).first { $0.appID == name } }
        // The XWM links each window as its properties and its parent's arrive, which may be out
        // of order: whichever link would make the 33rd parent is refused.
        #expect(Self.longestChain(H.x11Windows(server)) == 32)
        #expect(logged.filter { $0.contains("more than 32 parents") }.count >= 1)
        // 100 windows transient for one that has not mapped: its children once it maps.
        let parent = H.createWindow(c, x: 0, y: 0, width: 20, height: 20)
        H.setClass(c, parent, "late parent")
        for index in 0..<100 {
            let window = H.createWindow(c, x: 0, y: 0, width: 20, height: 20)
            H.setClass(c, window, "waiting\(index)")
            Self.setTransient(c, window, for: parent)
            xcb_map_window(c, window)
        }
        xcb_flush(c)
        #expect(server.run(seconds: 30) { H.x11Windows(server).filter(\.isVisible).count == 140 })
        xcb_map_window(c, parent)
        xcb_flush(c)
        #expect(server.run(seconds: 30) { model("late parent")?.isVisible == true })
        let late = try #require(model("late parent"))
        #expect(H.x11Windows(server).filter { $0.parent === late }.count == 100)
        // Raised, the parent is behind its 100 dialogs, in front of the chain.
        server.windows.orderFront(late)
        #expect(server.windows.windows.suffix(101).first === late)
    }
}
