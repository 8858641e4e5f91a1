import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// xdg_wm_dialog_v1 and strata_window_v1's set_modal (version 2): the model's modal flag, what it
/// does to key, already_used, and the dialog object's end.
@Suite struct XdgDialogTests {
    /// A mapped parent toplevel, and a child toplevel with the parent set, not mapped yet.
    private func parentAndChild(_ shell: TestXdgShell) throws -> (TestToplevel, TestToplevel) {
        let parent = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(parent.toplevel, "org.example.document")
        #expect(parent.map(argb: Colour.red))
        let child = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(child.toplevel, "org.example.dialog")
        xdg_toplevel_set_parent(child.toplevel, parent.toplevel)
        return (parent, child)
    }

    private func window(_ server: TestServer, _ appID: String) -> Window? {
        server.windows.windows.first { $0.appID == appID }
    }

    @Test func aModalDialogKeepsKeyWhileItsParentIsClickedOrAskedForKey() throws {
        let (server, shell) = try makeXdgFixture()
        let (parent, child) = try parentAndChild(shell)
        let manager = try shell.client.bind(xdg_wm_dialog_v1_interface_ptr())
        let dialog = try #require(xdg_wm_dialog_v1_get_xdg_dialog(manager, child.toplevel))
        xdg_dialog_v1_set_modal(dialog)
        #expect(child.map(argb: Colour.green))
        let parentWindow = try #require(window(server, "org.example.document"))
        let childWindow = try #require(window(server, "org.example.dialog"))
        #expect(childWindow.isModal)
        #expect(childWindow.parent === parentWindow)
        #expect(childWindow.isKeyWindow)
        #expect(!server.windows.makeKey(parentWindow))
        server.windows.pointerDidClick(parentWindow)
        #expect(childWindow.isKeyWindow)
        #expect(shell.client.roundtrip())
        #expect(child.isActivated)
        #expect(!parent.isActivated)

        xdg_dialog_v1_unset_modal(dialog)
        #expect(shell.client.roundtrip())
        #expect(!childWindow.isModal)
        #expect(server.windows.makeKey(parentWindow))
    }

    @Test func destroyingTheDialogObjectUnsetsModalAndANewOneMayBeMade() throws {
        let (server, shell) = try makeXdgFixture()
        let (_, child) = try parentAndChild(shell)
        let manager = try shell.client.bind(xdg_wm_dialog_v1_interface_ptr())
        let dialog = try #require(xdg_wm_dialog_v1_get_xdg_dialog(manager, child.toplevel))
        xdg_dialog_v1_set_modal(dialog)
        #expect(child.map(argb: Colour.green))
        let childWindow = try #require(window(server, "org.example.dialog"))
        #expect(childWindow.isModal)
        xdg_dialog_v1_destroy(dialog)
        #expect(shell.client.roundtrip())
        #expect(!childWindow.isModal)
        let again = try #require(xdg_wm_dialog_v1_get_xdg_dialog(manager, child.toplevel))
        xdg_dialog_v1_set_modal(again)
        #expect(shell.client.roundtrip())
        #expect(childWindow.isModal)
    }

    @Test func aSecondDialogObjectForOneToplevelIsAlreadyUsed() throws {
        let (_, shell) = try makeXdgFixture()
        let (_, child) = try parentAndChild(shell)
        let manager = try shell.client.bind(xdg_wm_dialog_v1_interface_ptr())
        _ = xdg_wm_dialog_v1_get_xdg_dialog(manager, child.toplevel)
        _ = xdg_wm_dialog_v1_get_xdg_dialog(manager, child.toplevel)
        expectXdgProtocolError(
            shell.client, code: XDG_WM_DIALOG_V1_ERROR_ALREADY_USED.rawValue, interface: "xdg_wm_dialog_v1")
    }

    @Test func aDialogWhoseToplevelIsDestroyedIsInert() throws {
        let (server, shell) = try makeXdgFixture()
        let (_, child) = try parentAndChild(shell)
        let manager = try shell.client.bind(xdg_wm_dialog_v1_interface_ptr())
        let dialog = try #require(xdg_wm_dialog_v1_get_xdg_dialog(manager, child.toplevel))
        #expect(child.map(argb: Colour.green))
        child.destroyToplevel()
        xdg_dialog_v1_set_modal(dialog)
        xdg_dialog_v1_unset_modal(dialog)
        xdg_dialog_v1_destroy(dialog)
        #expect(shell.client.roundtrip())
        #expect(window(server, "org.example.dialog") == nil)
        #expect(server.windows.windows.allSatisfy { !$0.isModal })
    }

    @Test func aModalChildShownWhileItsParentIsKeyTakesKeyThroughTheWire() throws {
        let (server, shell) = try makeXdgFixture()
        let (parent, child) = try parentAndChild(shell)
        let windows = try TestWindowManager(client: shell.client)
        let object = try #require(windows.window(for: child))
        object.setShowWithoutKey()
        object.setModal(true)
        #expect(child.map(argb: Colour.green))
        #expect(shell.client.roundtrip())
        let childWindow = try #require(window(server, "org.example.dialog"))
        #expect(childWindow.isModal)
        #expect(childWindow.isKeyWindow, "a modal child keeps key over its key parent, asked without key or not")
        #expect(child.isActivated && !parent.isActivated)
        object.setModal(false)
        #expect(shell.client.roundtrip())
        #expect(!childWindow.isModal)
    }

    @Test func activatingTheParentOfAModalDialogMakesTheDialogKey() throws {
        let (server, shell) = try makeXdgFixture()
        let seat = try TestSeat(client: shell.client)
        _ = seat.getKeyboard()
        let (parent, child) = try parentAndChild(shell)
        let manager = try shell.client.bind(xdg_wm_dialog_v1_interface_ptr())
        let dialog = try #require(xdg_wm_dialog_v1_get_xdg_dialog(manager, child.toplevel))
        xdg_dialog_v1_set_modal(dialog)
        #expect(child.map(argb: Colour.green))
        let other = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(other.toplevel, "org.example.other")
        #expect(other.map(argb: Colour.blue))
        #expect(server.windows.keyWindow?.appID == "org.example.other")
        // A key press in the key window gives the serial of a token that activates the parent.
        let activation = try shell.client.bind(xdg_activation_v1_interface_ptr())
        server.compositor.seat.key(30, pressed: true, time: 1)
        #expect(shell.client.roundtrip())
        let token = try #require(
            XdgActivationTests.token(
                activation, client: shell.client, serial: seat.lastPressSerial,
                seat: seat.seat, surface: other.surface))
        xdg_activation_v1_activate(activation, token, parent.surface)
        #expect(shell.client.roundtrip())
        #expect(server.windows.keyWindow?.appID == "org.example.dialog")
        #expect(window(server, "org.example.document")?.isKeyWindow == false)
    }

    @Test func theWindowExtensionGlobalIsVersion2() throws {
        let (_, shell) = try makeXdgFixture()
        let global = try #require(shell.client.globals["strata_window_manager_v1"])
        #expect(global.version == 2)
    }
}
