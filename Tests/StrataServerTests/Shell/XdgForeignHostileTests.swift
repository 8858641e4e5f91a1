import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// Hostile xdg-foreign and xdg_dialog clients: floods of exports, repeated set_parent_of,
/// repeated modal switches. Each stays within its budget or is disconnected, and nobody else
/// notices.
@Suite struct XdgForeignHostileTests {
    @Test func aClientExportingAHundredThousandHandlesGetsNoMemoryPastTheBudget() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let exporter = try #require(client.bind("zxdg_exporter_v2"))
            let toplevel = client.makeToplevel(core)
            var sent = 0
            for index in 0..<100_000 {
                guard
                    client.request(
                        exporter, "zxdg_exporter_v2.export_toplevel", .newID(client.newID()), .object(toplevel.surface))
                else { break }
                sent += 1
                if index % 1000 == 0 { client.pump() }
            }
            #expect(sent > ClientBudget.maxExportsPerClient)
            client.expectOverBudget(naming: "more than \(ClientBudget.maxExportsPerClient) xdg-foreign exports")
        }
        harness.expectUnharmed()
    }

    @Test func theBudgetCountsLiveExportsOnly() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let exporter = try #require(client.bind("zxdg_exporter_v2"))
            let toplevel = client.makeToplevel(core)
            for _ in 0..<(ClientBudget.maxExportsPerClient * 4) {
                let id = client.newID()
                client.request(exporter, "zxdg_exporter_v2.export_toplevel", .newID(id), .object(toplevel.surface))
                client.request(id, "zxdg_exported_v2.destroy")
            }
            #expect(client.roundtrip(limit: 1000))
            #expect(client.error == nil)
        }
        harness.expectUnharmed()
    }

    @Test func setParentOfRepeatedAHundredThousandTimesKeepsOneRelation() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let exporter = try #require(client.bind("zxdg_exporter_v2"))
            let importer = try #require(client.bind("zxdg_importer_v2"))
            let parent = client.makeToplevel(core)
            let child = client.makeToplevel(core)
            client.keepsEvents = true
            let exported = client.newID()
            client.request(exporter, "zxdg_exporter_v2.export_toplevel", .newID(exported), .object(parent.surface))
            #expect(client.roundtrip())
            let handle = try #require(client.events(for: exported).first?.string(atWord: 0))
            client.keepsEvents = false
            let imported = client.newID()
            client.request(importer, "zxdg_importer_v2.import_toplevel", .newID(imported), .string(handle))
            for index in 0..<100_000 {
                // Alternately its own parent's child and nobody's: the relation is made and
                // ended each time.
                if index % 2 == 0 {
                    client.request(imported, "zxdg_imported_v2.set_parent_of", .object(child.surface))
                } else {
                    client.request(child.toplevel, "xdg_toplevel.set_parent", .object(0))
                }
                if index % 2000 == 0 { client.pump() }
            }
            #expect(client.roundtrip(limit: 1000))
            #expect(client.error == nil)
            let windows = harness.server.windows.windows
            #expect(windows.count == 3)
            #expect(windows.allSatisfy { $0.parent == nil })
        }
        harness.expectUnharmed()
    }

    @Test func modalSwitchedAHundredThousandTimesEndsWhereItWasAsked() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let dialogs = try #require(client.bind("xdg_wm_dialog_v1"))
            let parent = client.makeToplevel(core)
            let child = client.makeToplevel(core)
            client.request(child.toplevel, "xdg_toplevel.set_parent", .object(parent.toplevel))
            let dialog = client.newID()
            client.request(dialogs, "xdg_wm_dialog_v1.get_xdg_dialog", .newID(dialog), .object(child.toplevel))
            for index in 0..<100_000 {
                client.request(dialog, index % 2 == 0 ? "xdg_dialog_v1.set_modal" : "xdg_dialog_v1.unset_modal")
                if index % 2000 == 0 { client.pump() }
            }
            client.request(dialog, "xdg_dialog_v1.set_modal")
            #expect(client.roundtrip(limit: 1000))
            #expect(client.error == nil)
            let modal = harness.server.windows.windows.filter(\.isModal)
            #expect(modal.count == 1)
            #expect(modal.first?.isKeyWindow == true)
        }
        harness.expectUnharmed()
    }
}
