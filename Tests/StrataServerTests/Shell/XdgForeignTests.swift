import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Two clients: one that exports a mapped toplevel ("org.example.app"), one that imports it and
/// makes it the parent of its own mapped toplevel ("org.example.portal").
private final class ForeignPair {
    // Released in this order: the clients' objects and clients before the server.
    let parent: TestToplevel
    let child: TestToplevel
    let exporting: TestXdgForeign
    let importing: TestXdgForeign
    let app: TestXdgShell
    let portal: TestXdgShell
    let server: TestServer

    init(version1: Bool = false) throws {
        server = try TestServer()
        app = try TestXdgShell(client: TestClient(server: server))
        portal = try TestXdgShell(client: TestClient(server: server))
        exporting = try TestXdgForeign(client: app.client, version1: version1)
        importing = try TestXdgForeign(client: portal.client, version1: version1)
        parent = try #require(app.makeToplevel())
        xdg_toplevel_set_app_id(parent.toplevel, "org.example.app")
        #expect(parent.map(argb: Colour.red))
        child = try #require(portal.makeToplevel())
        xdg_toplevel_set_app_id(child.toplevel, "org.example.portal")
        #expect(child.map(argb: Colour.green))
    }

    func window(_ appID: String) -> Window? { server.windows.windows.first { $0.appID == appID } }
    var parentWindow: Window? { window("org.example.app") }
    var childWindow: Window? { window("org.example.portal") }

    /// Exports the parent and waits for its handle.
    func exportParent() throws -> (TestExported, String) {
        let exported = try #require(exporting.export(parent.surface))
        #expect(app.client.roundtrip())
        return (exported, try #require(exported.handle))
    }

    /// Imports `handle` in the portal client and makes it the parent of the child toplevel.
    func importAsParent(_ handle: String) throws -> TestImported {
        let imported = try #require(importing.importToplevel(handle))
        imported.setParent(of: child.surface)
        #expect(portal.client.roundtrip())
        return imported
    }
}

/// xdg-foreign v2 and v1: handles, set_parent_of as the model's parent relation, the end of a
/// relation (destroyed), the spec's errors, refused cycles and the export budget.
@Suite struct XdgForeignTests {
    @Test(arguments: [false, true])
    func setParentOfMakesTheExportedToplevelTheParentAcrossClients(version1: Bool) throws {
        let pair = try ForeignPair(version1: version1)
        let (_, handle) = try pair.exportParent()
        let imported = try pair.importAsParent(handle)
        let parentWindow = try #require(pair.parentWindow)
        #expect(pair.childWindow?.parent === parentWindow)
        #expect(imported.destroyedEvents == 0)
        // Stacked as set_parent stacks: making the parent key raises its child above it.
        #expect(pair.server.windows.makeKey(parentWindow))
        #expect(pair.server.windows.windows.last === pair.childWindow)
    }

    @Test func handlesAre32HexadecimalCharactersAndDifferForEachExport() throws {
        let pair = try ForeignPair()
        let (_, first) = try pair.exportParent()
        let (_, second) = try pair.exportParent()
        #expect(first != second)
        for handle in [first, second] {
            #expect(handle.count == 32)
            #expect(handle.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
    }

    @Test func aV2HandleImportsThroughV1AndBack() throws {
        let pair = try ForeignPair()
        let (_, handle) = try pair.exportParent()
        let old = try TestXdgForeign(client: pair.portal.client, version1: true)
        let imported = try #require(old.importToplevel(handle))
        imported.setParent(of: pair.child.surface)
        #expect(pair.portal.client.roundtrip())
        #expect(pair.childWindow?.parent === pair.parentWindow)
        #expect(imported.destroyedEvents == 0)
    }

    @Test func destroyingTheExportSendsDestroyedOnceAndEndsTheRelation() throws {
        let pair = try ForeignPair()
        let (exported, handle) = try pair.exportParent()
        let imported = try pair.importAsParent(handle)
        exported.destroy()
        #expect(pair.app.client.roundtrip())
        #expect(pair.portal.client.roundtrip())
        #expect(imported.destroyedEvents == 1)
        #expect(pair.childWindow?.parent == nil)
        // The handle imports nothing any more; set_parent_of on the dead import does nothing.
        let again = try pair.importAsParent(handle)
        #expect(again.destroyedEvents == 1)
        imported.setParent(of: pair.child.surface)
        #expect(pair.portal.client.roundtrip())
        #expect(pair.childWindow?.parent == nil)
        #expect(imported.destroyedEvents == 1)
    }

    @Test func destroyingTheExportedToplevelSendsDestroyedAndSetParentOfItDoesNothing() throws {
        let pair = try ForeignPair()
        let (_, handle) = try pair.exportParent()
        let imported = try pair.importAsParent(handle)
        pair.parent.destroyToplevel()
        #expect(pair.app.client.roundtrip())
        #expect(pair.portal.client.roundtrip())
        #expect(imported.destroyedEvents == 1)
        #expect(pair.childWindow?.parent == nil)
        imported.setParent(of: pair.child.surface)
        let late = try pair.importAsParent(handle)
        #expect(late.destroyedEvents == 1)
        #expect(pair.childWindow?.parent == nil)
        #expect(pair.portal.client.connectionError == 0)
    }

    @Test func destroyingTheImportEndsTheRelationItSet() throws {
        let pair = try ForeignPair()
        let (_, handle) = try pair.exportParent()
        let imported = try pair.importAsParent(handle)
        #expect(pair.childWindow?.parent === pair.parentWindow)
        imported.destroy()
        #expect(pair.portal.client.roundtrip())
        #expect(pair.childWindow?.parent == nil)
    }

    @Test func setParentAfterSetParentOfReplacesTheRelationAndTheImportsEndLeavesIt() throws {
        let pair = try ForeignPair()
        let (_, handle) = try pair.exportParent()
        let imported = try pair.importAsParent(handle)
        let own = try #require(pair.portal.makeToplevel())
        xdg_toplevel_set_app_id(own.toplevel, "org.example.own")
        #expect(own.map(argb: Colour.blue))
        xdg_toplevel_set_parent(pair.child.toplevel, own.toplevel)
        #expect(pair.portal.client.roundtrip())
        let ownWindow = try #require(pair.window("org.example.own"))
        #expect(pair.childWindow?.parent === ownWindow)
        imported.destroy()
        #expect(pair.portal.client.roundtrip())
        #expect(pair.childWindow?.parent === ownWindow)
    }

    @Test(arguments: [
        "", "nonsense", "0123456789abcdef0123456789abcdeF", String(repeating: "ä", count: 2000),
        String(repeating: "f", count: 4000),
    ])
    func anUnknownGarbageOrHugeHandleGivesDestroyedAtOnce(handle: String) throws {
        let pair = try ForeignPair()
        _ = try pair.exportParent()
        let imported = try pair.importAsParent(handle)
        #expect(imported.destroyedEvents == 1)
        #expect(pair.childWindow?.parent == nil)
        #expect(pair.portal.client.connectionError == 0)
    }

    @Test(arguments: [false, true])
    func exportingASurfaceWithoutAToplevelIsInvalidSurface(version1: Bool) throws {
        let (_, shell) = try makeXdgFixture()
        let foreign = try TestXdgForeign(client: shell.client, version1: version1)
        let surface = try #require(shell.makeSurface())
        _ = foreign.export(surface)
        if version1 {
            // wl_display.error invalid_object: libwayland-client reports it as EINVAL.
            #expect(!shell.client.roundtrip())
            #expect(shell.client.connectionError == EINVAL)
        } else {
            expectXdgProtocolError(
                shell.client, code: ZXDG_EXPORTER_V2_ERROR_INVALID_SURFACE.rawValue, interface: "zxdg_exporter_v2")
        }
    }

    @Test(arguments: [false, true])
    func setParentOfAPlainSurfaceIsInvalidSurfaceEvenOnADeadImport(version1: Bool) throws {
        let pair = try ForeignPair(version1: version1)
        let imported = try #require(pair.importing.importToplevel("unknown"))
        let plain = try #require(pair.portal.makeSurface())
        imported.setParent(of: plain)
        if version1 {
            // wl_display.error invalid_object: libwayland-client reports it as EINVAL.
            #expect(!pair.portal.client.roundtrip())
            #expect(pair.portal.client.connectionError == EINVAL)
        } else {
            expectXdgProtocolError(
                pair.portal.client, code: ZXDG_IMPORTED_V2_ERROR_INVALID_SURFACE.rawValue, interface: "zxdg_imported_v2"
            )
        }
    }

    @Test func aParentCycleAcrossClientsIsRefusedWithoutAnError() throws {
        let pair = try ForeignPair()
        let (_, handle) = try pair.exportParent()
        _ = try pair.importAsParent(handle)
        // The portal exports its child; the app imports it and asks for it as its window's parent.
        let childExport = try #require(pair.importing.export(pair.child.surface))
        #expect(pair.portal.client.roundtrip())
        let childHandle = try #require(childExport.handle)
        let back = try #require(pair.exporting.importToplevel(childHandle))
        back.setParent(of: pair.parent.surface)
        #expect(pair.app.client.roundtrip())
        #expect(pair.parentWindow?.parent == nil)
        #expect(pair.childWindow?.parent === pair.parentWindow)
        #expect(back.destroyedEvents == 0)
        // The same through xdg_toplevel.set_parent inside one client is the spec's error.
        let selfExport = try #require(pair.exporting.export(pair.parent.surface))
        #expect(pair.app.client.roundtrip())
        let selfHandle = try #require(selfExport.handle)
        let selfImport = try #require(pair.exporting.importToplevel(selfHandle))
        selfImport.setParent(of: pair.parent.surface)
        #expect(pair.app.client.roundtrip())
        #expect(pair.parentWindow?.parent == nil)
    }

    @Test func aModalDialogOfAnotherClientsWindowKeepsKeyOverIt() throws {
        let pair = try ForeignPair()
        let (_, handle) = try pair.exportParent()
        _ = try pair.importAsParent(handle)
        let dialogs = try pair.portal.client.bind(xdg_wm_dialog_v1_interface_ptr())
        let dialog = try #require(xdg_wm_dialog_v1_get_xdg_dialog(dialogs, pair.child.toplevel))
        xdg_dialog_v1_set_modal(dialog)
        #expect(pair.portal.client.roundtrip())
        let parentWindow = try #require(pair.parentWindow)
        #expect(!pair.server.windows.makeKey(parentWindow))
        #expect(pair.childWindow?.isKeyWindow == true)
    }
}
