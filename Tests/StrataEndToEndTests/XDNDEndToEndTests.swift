import Foundation
import Glibc
import StrataTestSupport
import Testing

/// Drag and drop between a Wayland client and an X client, both ways (docs/xwayland.md, "Drag
/// and drop"): two
/// gtk4-demo "Clipboard" windows, one on Wayland, one under X11 through Xwayland, each in its own
/// D-Bus session, driven by `strata-ctl input` as a user's press, motions and release, and
/// checked by the screen (the X client shows what it received) and the trace.
@Suite struct XDNDEndToEndTests {
    typealias Ctl = PrimarySelectionEndToEndTests
    typealias DnD = DragAndDropEndToEndTests

    /// Strata (1280x720, `arguments` added) with two gtk4-demo "Clipboard" windows shown, one on
    /// Wayland and one under X11, each on a session bus of its own: the run and the windows' ids.
    static func twoClipboardDemos(_ arguments: [String]) async throws -> (StrataRun, (wayland: Int, x11: Int)) {
        // GTK 4.8 draws with cairo when there is no GL (Strata offers none).
        let run = try StrataRun(
            ["--size", "1280x720", "--hide-cursor"] + arguments,
            environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "GSK_RENDERER": "cairo"])
        _ = try #require(await run.socketName())
        let demo = ["gtk4-demo", "--run=clipboard"]
        #expect(try Ctl.ctl(run, ["exec", "--"] + StrataRun.dbusSession + demo).status == 0)
        #expect(
            try Ctl.ctl(run, ["exec", "--"] + StrataRun.dbusSession + ["env", "GDK_BACKEND=x11"] + demo).status == 0)
        let found = await StrataRun.poll(timeout: 30) { () -> (wayland: Int, x11: Int)? in
            let shown =
                (try? DnD.windows(run))?.filter {
                    $0["title"] as? String == "Clipboard" && $0["hidden"] as? Bool == false
                } ?? []
            guard let wayland = shown.first(where: { $0["kind"] as? String == "wayland" })?["id"] as? Int,
                let x11 = shown.first(where: { $0["kind"] as? String == "x11" })?["id"] as? Int
            else { return nil }
            return (wayland, x11)
        }
        let ids = try #require(found, "the two Clipboard windows never showed; stderr: \(run.stderr.suffix(2000))")
        return (run, ids)
    }

    /// Whether ink (what GTK shows of a drop) appears in `area` of the settled 1280x720 screen
    /// within 20 s: checked only once the screen settled, because a failed drop's icon, an X
    /// window, crosses the area on its way back to the source.
    static func inkSettles(_ run: StrataRun, in area: (Int, Int, Int, Int)) async throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, let screen = try await Ctl.settled(run, (0, 0, 1280, 720)) {
            var pixels: [UInt32] = []
            for y in area.1..<area.1 + area.3 {
                for x in area.0..<area.0 + area.2 { pixels.append(screen[y * 1280 + x]) }
            }
            if Ctl.ink(pixels) > 30 { return true }
        }
        return false
    }

    @Test(
        .enabled(
            if: ["gtk4-demo", "dbus-daemon", "Xwayland"].allSatisfy(StrataRun.isInstalled),
            "gtk4-demo, dbus-daemon or Xwayland is not installed"))
    func textDraggedFromAWaylandGtk4ClientIsDroppedIntoAnX11One() async throws {
        let scratch = try ScratchFolder(prefix: "strata-xdnd-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let trace = scratch.path + "/drag.trace"
        let (run, ids) = try await Self.twoClipboardDemos(["--record", trace])
        #expect(try Ctl.ctl(run, ["move", String(ids.wayland), "--to", "50,50"]).status == 0)
        #expect(try Ctl.ctl(run, ["move", String(ids.x11), "--to", "600,50"]).status == 0)
        // The X window's drop area (right of its Paste button; no client-side shadow under X11)
        // is empty before the drop.
        let dropArea = (690, 192, 255, 26)
        _ = try #require(try await Ctl.settled(run, (0, 0, 1280, 720)), "the screen never settled")
        #expect(Ctl.ink(Ctl.region(try #require(try Ctl.screenshot(run)), dropArea)) == 0)

        // Select "this!" of the left entry ("Copy this!") by a press and a drag across it, then
        // drag the selection into the X window's drop area.
        try DnD.drag(run, from: (200, 164), through: [204, 210, 220, 240, 260, 300], y: 220)
        _ = try await Ctl.settled(run, (50, 140, 370, 50))
        try DnD.drag(run, from: (212, 164), through: [215, 220, 230, 300, 500, 700, 760, 780], y: 205)

        // GTK shows what was dropped: "Text" and the text itself, dark ink in the drop area.
        let dropped = await StrataRun.poll(timeout: 20) { () -> Bool? in
            guard let now = try? Ctl.screenshot(run) else { return nil }
            return Ctl.ink(Ctl.region(now, dropArea)) > 30 ? true : nil
        }
        #expect(dropped == true, "nothing appeared in the X window's drop area")
        run.send(SIGTERM)
        _ = await run.finish()

        let drags = try DnD.dragLines(trace)
        #expect(drags.compactMap { $0["event"] as? String } == ["start", "enter", "leave", "enter", "leave", "end"])
        #expect(drags.count == 6 && drags[1]["window"] as? Int == ids.wayland && drags[3]["window"] as? Int == ids.x11)
        #expect(drags.last?["reason"] as? String == "dropped" && drags.last?["action"] as? String == "copy")
    }

    @Test(
        .enabled(
            if: ["gtk4-demo", "dbus-daemon", "Xwayland"].allSatisfy(StrataRun.isInstalled),
            "gtk4-demo, dbus-daemon or Xwayland is not installed"))
    func textDraggedFromAnX11Gtk4ClientIsDroppedIntoAWaylandOne() async throws {
        let (run, ids) = try await Self.twoClipboardDemos([])
        #expect(try Ctl.ctl(run, ["move", String(ids.x11), "--to", "50,50"]).status == 0)
        #expect(try Ctl.ctl(run, ["move", String(ids.wayland), "--to", "600,50"]).status == 0)
        // The Wayland window's drop area (right of its Paste button) is empty before the drop.
        let dropArea = (690, 212, 270, 30)
        _ = try #require(try await Ctl.settled(run, (0, 0, 1280, 720)), "the screen never settled")
        #expect(Ctl.ink(Ctl.region(try #require(try Ctl.screenshot(run)), dropArea)) == 0)

        // Select "this!" of the X window's entry (smaller type under X11, no shadow) by a press
        // and a drag across it, then drag the selection into the Wayland window's drop area: the
        // X client holds the pointer through its grab and finds the XWM's drop window there.
        try DnD.drag(run, from: (187, 141), through: [195, 205, 230, 300], y: 141)
        _ = try await Ctl.settled(run, (50, 120, 360, 40))
        try DnD.drag(run, from: (200, 141), through: [203, 210, 230, 300, 500, 700, 780, 800], y: 227)

        // GTK shows what was dropped: "Text" and the text itself, dark ink in the drop area,
        // once the screen settled (the X drag icon, an X window, crosses the area on its way
        // back to the source when a drop fails).
        #expect(
            try await Self.inkSettles(run, in: dropArea), "nothing appeared in the Wayland window's drop area")
        run.send(SIGTERM)
        _ = await run.finish()
    }

    @Test(
        .enabled(
            if: ["gtk3-demo", "gtk4-demo", "dbus-daemon", "Xwayland"].allSatisfy(StrataRun.isInstalled),
            "gtk3-demo, gtk4-demo, dbus-daemon or Xwayland is not installed"))
    func anImageDraggedFromAnX11Gtk3ClientIsDroppedIntoAWaylandGtk4One() async throws {
        let run = try StrataRun(
            ["--size", "1280x720", "--hide-cursor"],
            environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "GSK_RENDERER": "cairo"])
        _ = try #require(await run.socketName())
        #expect(
            try Ctl.ctl(run, ["exec", "--"] + StrataRun.dbusSession + ["gtk4-demo", "--run=clipboard"]).status == 0)
        #expect(
            try Ctl.ctl(
                run,
                ["exec", "--"] + StrataRun.dbusSession + ["env", "GDK_BACKEND=x11", "gtk3-demo", "--run=clipboard"]
            ).status == 0)
        let found = await StrataRun.poll(timeout: 30) { () -> (wayland: Int, x11: Int, main: Int)? in
            let shown = (try? DnD.windows(run))?.filter { $0["hidden"] as? Bool == false } ?? []
            let clipboards = shown.filter { $0["title"] as? String == "Clipboard" }
            guard let wayland = clipboards.first(where: { $0["kind"] as? String == "wayland" })?["id"] as? Int,
                let x11 = clipboards.first(where: { $0["kind"] as? String == "x11" })?["id"] as? Int,
                let main = shown.first(where: { $0["title"] as? String == "Application Class" })?["id"] as? Int
            else { return nil }
            return (wayland, x11, main)
        }
        let ids = try #require(found, "the Clipboard windows never showed; stderr: \(run.stderr.suffix(2000))")
        // gtk3-demo's main window out of the way, its Clipboard demo (a dialog of it) at (50, 50).
        #expect(try Ctl.ctl(run, ["move", String(ids.main), "--to", "500,400"]).status == 0)
        #expect(try Ctl.ctl(run, ["move", String(ids.x11), "--to", "50,50"]).status == 0)
        #expect(try Ctl.ctl(run, ["move", String(ids.wayland), "--to", "600,50"]).status == 0)
        let dropArea = (690, 212, 270, 30)
        _ = try #require(try await Ctl.settled(run, (0, 0, 1280, 720)), "the screen never settled")
        #expect(Ctl.ink(Ctl.region(try #require(try Ctl.screenshot(run)), dropArea)) == 0)

        // The red "stop" image at the bottom of gtk3-demo's Clipboard demo is a drag source
        // (image/png and the other image types of GdkPixbuf).
        try DnD.drag(run, from: (106, 246), through: [110, 120, 140, 300, 500, 700, 780, 800], y: 227)

        // GTK 4 shows what was dropped: "Image" (dark ink) and the image.
        #expect(
            try await Self.inkSettles(run, in: dropArea), "nothing appeared in the Wayland window's drop area")
        run.send(SIGTERM)
        _ = await run.finish()
    }
}
