import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// Drag and drop between two real GTK processes (two gtk3-demo or two gtk4-demo "Clipboard"
/// windows, each in its own D-Bus session so they are two applications), driven by
/// `strata-ctl input` as a user's press, motions and release, and checked by the screen and the
/// trace.
@Suite struct DragAndDropEndToEndTests {
    typealias Ctl = PrimarySelectionEndToEndTests

    /// Pixels of the stop sign's red (the drop target's image before the drop).
    static func red(_ pixels: [UInt32]) -> Int {
        pixels.filter { ($0 >> 16) & 0xff > 0xb0 && ($0 >> 8) & 0xff < 0x40 && $0 & 0xff < 0x40 }.count
    }

    /// Pixels of the warning sign's orange (the dragged image).
    static func orange(_ pixels: [UInt32]) -> Int {
        pixels.filter {
            ($0 >> 16) & 0xff > 0xd0 && ($0 >> 8) & 0xff > 0x70 && ($0 >> 8) & 0xff < 0xd0 && $0 & 0xff < 0x60
        }.count
    }

    /// The windows as `strata-ctl windows --json` lists them.
    static func windows(_ run: StrataRun) throws -> [[String: Any]] {
        let output = try Ctl.ctl(run, ["windows", "--json"]).output
        let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        return (object?["windows"] as? [[String: Any]]) ?? []
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("gtk3-demo") && StrataRun.isInstalled("dbus-daemon"),
            "gtk3-demo or dbus-daemon is not installed"))
    func anImageDraggedFromOneGtk3ClientIsDroppedIntoAnother() async throws {
        let scratch = try ScratchFolder(prefix: "strata-dnd-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.path
        let trace = dir + "/drag.trace"
        let run = try StrataRun(
            ["--size", "1280x720", "--hide-cursor", "--record", trace, "--record-protocol", "gtk3-demo"],
            environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none"])
        _ = try #require(await run.socketName())
        for _ in 0..<2 {
            #expect(
                try Ctl.ctl(run, ["exec", "--"] + StrataRun.dbusSession + ["gtk3-demo", "--run=clipboard"]).status == 0)
        }
        // Each gtk3-demo shows its main window and the Clipboard demo's.
        let clipboards = await StrataRun.poll(timeout: 30) { () -> [Int]? in
            let shown =
                (try? Self.windows(run))?.filter {
                    $0["title"] as? String == "Clipboard" && $0["hidden"] as? Bool == false
                } ?? []
            let ids = shown.compactMap { $0["id"] as? Int }.sorted()
            return ids.count == 2 ? ids : nil
        }
        let ids = try #require(clipboards, "two Clipboard windows never showed; stderr: \(run.stderr.suffix(2000))")
        for window in try Self.windows(run) where window["title"] as? String != "Clipboard" {
            if let id = window["id"] as? Int { #expect(try Ctl.ctl(run, ["hide", String(id)]).status == 0) }
        }
        #expect(try Ctl.ctl(run, ["move", String(ids[0]), "--to", "50,50"]).status == 0)
        #expect(try Ctl.ctl(run, ["move", String(ids[1]), "--to", "600,50"]).status == 0)

        // In Debian 12's Adwaita layout each window's two images (a warning and a stop sign,
        // 24×24) are at (28, 200) and (56, 200) of the window: the source is the left window's
        // warning sign, the target the right window's stop sign.
        let target = (644, 238, 24, 24)
        let settled = try #require(try await Ctl.settled(run, (0, 0, 1280, 720)), "the screen never settled")
        #expect(
            Self.red(Ctl.region(try #require(try Ctl.screenshot(run)), target)) > 50,
            "no stop sign where the target should be")
        _ = settled

        // A press on the warning sign, motions past GTK's drag threshold and over to the target.
        #expect(try Ctl.ctl(run, ["input", "pointer", "move", "78", "250"]).status == 0)
        #expect(try Ctl.ctl(run, ["input", "pointer", "button", "left", "down"]).status == 0)
        for x in [82, 88, 95, 110, 150, 250, 400, 550, 640, 650, 656] {
            #expect(try Ctl.ctl(run, ["input", "pointer", "move", String(x), "250"]).status == 0)
        }
        // During the drag GTK's icon (the warning sign) follows the pointer, drawn by Strata.
        let iconShown = await StrataRun.poll(timeout: 20) { () -> Bool? in
            guard let now = try? Ctl.screenshot(run) else { return nil }
            return Self.orange(Ctl.region(now, (656, 250, 40, 40))) > 30 ? true : nil
        }
        #expect(iconShown == true, "no drag icon at the pointer")
        #expect(try Ctl.ctl(run, ["input", "pointer", "button", "left", "up"]).status == 0)

        // The target now shows the dragged image: the stop sign's red is gone, orange is there.
        let dropped = await StrataRun.poll(timeout: 20) { () -> Bool? in
            guard let now = try? Ctl.screenshot(run) else { return nil }
            let pixels = Ctl.region(now, target)
            return Self.red(pixels) == 0 && Self.orange(pixels) > 30 ? true : nil
        }
        #expect(dropped == true, "the target image did not change")
        run.send(SIGTERM)
        _ = await run.finish()

        // The trace tells the drag's steps, and the protocol lines the negotiation's end.
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let drags = lines.filter { $0["type"] as? String == "drag" }
        #expect(drags.compactMap { $0["event"] as? String } == ["start", "enter", "leave", "enter", "leave", "end"])
        #expect(drags.first?["icon"] as? Bool == true && drags.first?["source"] as? Bool == true)
        #expect(drags[safe: 1]?["window"] as? Int == ids[0] && drags[safe: 3]?["window"] as? Int == ids[1])
        #expect(drags.last?["reason"] as? String == "dropped" && drags.last?["action"] as? String == "copy")
        let messages = lines.filter { $0["type"] as? String == "protocol" }.compactMap { line -> String? in
            guard let interface = line["interface"] as? String, let message = line["message"] as? String else {
                return nil
            }
            return interface + "." + message
        }
        for expected in [
            "wl_data_device.start_drag", "wl_data_offer.accept", "wl_data_offer.set_actions", "wl_data_device.drop",
            "wl_data_offer.receive", "wl_data_source.dnd_drop_performed", "wl_data_offer.finish",
            "wl_data_source.dnd_finished",
        ] {
            #expect(messages.contains(expected), "no \(expected) in the protocol lines")
        }
    }
}

extension DragAndDropEndToEndTests {
    /// The drag lines of a trace file.
    static func dragLines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["type"] as? String == "drag" }
    }

    /// Starts `command` twice (each in its own D-Bus session) and waits for its two Clipboard
    /// windows; hides the others and puts the two at (50, 50) and (600, 50). Their ids, in order.
    static func twoClipboardWindows(_ run: StrataRun, _ command: [String]) async throws -> [Int] {
        for _ in 0..<2 {
            #expect(try Ctl.ctl(run, ["exec", "--"] + StrataRun.dbusSession + command).status == 0)
        }
        let clipboards = await StrataRun.poll(timeout: 30) { () -> [Int]? in
            let shown =
                (try? Self.windows(run))?.filter {
                    $0["title"] as? String == "Clipboard" && $0["hidden"] as? Bool == false
                } ?? []
            let ids = shown.compactMap { $0["id"] as? Int }.sorted()
            return ids.count == 2 ? ids : nil
        }
        let ids = try #require(clipboards, "two Clipboard windows never showed; stderr: \(run.stderr.suffix(2000))")
        for window in try Self.windows(run) where window["title"] as? String != "Clipboard" {
            if let id = window["id"] as? Int { #expect(try Ctl.ctl(run, ["hide", String(id)]).status == 0) }
        }
        #expect(try Ctl.ctl(run, ["move", String(ids[0]), "--to", "50,50"]).status == 0)
        #expect(try Ctl.ctl(run, ["move", String(ids[1]), "--to", "600,50"]).status == 0)
        return ids
    }

    /// A press at `from`, motions along `path` (y), a release: a user's drag.
    static func drag(_ run: StrataRun, from: (Int, Int), through xs: [Int], y: Int) throws {
        #expect(try Ctl.ctl(run, ["input", "pointer", "move", String(from.0), String(from.1)]).status == 0)
        #expect(try Ctl.ctl(run, ["input", "pointer", "button", "left", "down"]).status == 0)
        for x in xs { #expect(try Ctl.ctl(run, ["input", "pointer", "move", String(x), String(y)]).status == 0) }
        #expect(try Ctl.ctl(run, ["input", "pointer", "button", "left", "up"]).status == 0)
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("gtk4-demo") && StrataRun.isInstalled("dbus-daemon"),
            "gtk4-demo or dbus-daemon is not installed"))
    func textDraggedFromOneGtk4ClientIsDroppedIntoAnother() async throws {
        let scratch = try ScratchFolder(prefix: "strata-dnd4-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.path
        let trace = dir + "/drag.trace"
        // GTK 4.8 draws with cairo when there is no GL (Strata offers none).
        let run = try StrataRun(
            ["--size", "1280x720", "--hide-cursor", "--record", trace],
            environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "GSK_RENDERER": "cairo"])
        _ = try #require(await run.socketName())
        let ids = try await Self.twoClipboardWindows(run, ["gtk4-demo", "--run=clipboard"])
        // The right window's drop area (right of its Paste button) is empty before the drop.
        let dropArea = (690, 212, 270, 30)
        _ = try #require(try await Ctl.settled(run, (0, 0, 1280, 720)), "the screen never settled")
        #expect(Ctl.ink(Ctl.region(try #require(try Ctl.screenshot(run)), dropArea)) == 0)

        // Select "this!" of the left entry ("Copy this!") by a press and a drag across it, then
        // drag the selection to the right window's drop area.
        try Self.drag(run, from: (200, 164), through: [204, 210, 220, 240, 260, 300], y: 220)
        _ = try await Ctl.settled(run, (50, 140, 370, 50))
        try Self.drag(run, from: (212, 164), through: [215, 220, 230, 300, 500, 700, 760, 780], y: 227)

        // GTK shows what was dropped: "Text" and the text itself, dark ink in the drop area.
        let dropped = await StrataRun.poll(timeout: 20) { () -> Bool? in
            guard let now = try? Ctl.screenshot(run) else { return nil }
            return Ctl.ink(Ctl.region(now, dropArea)) > 30 ? true : nil
        }
        #expect(dropped == true, "nothing appeared in the drop area")
        run.send(SIGTERM)
        _ = await run.finish()

        let drags = try Self.dragLines(trace)
        #expect(drags.compactMap { $0["event"] as? String } == ["start", "enter", "leave", "enter", "leave", "end"])
        #expect(drags[safe: 1]?["window"] as? Int == ids[0] && drags[safe: 3]?["window"] as? Int == ids[1])
        #expect(drags.last?["reason"] as? String == "dropped" && drags.last?["action"] as? String == "copy")
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
