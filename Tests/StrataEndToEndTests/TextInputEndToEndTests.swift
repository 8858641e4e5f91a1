import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// Text into real GTK 3 and GTK 4 clients (Debian's gtk3-demo and gtk4-demo, whose entries speak
/// zwp_text_input_v3):
/// strata-im-client commits through zwp_input_method_v2, wtype types through the virtual
/// keyboard; each changes the entry's pixels, and nothing outside the entry's window.
@Suite struct TextInputEndToEndTests {
    static func shell(_ script: String) -> [String] { ["/bin/sh", "-c", script] }

    /// The part of `after` that differs from `before`, as (minX, minY, maxX, maxY), or nil.
    static func changedBox(_ before: PNGFile.Pixels, _ after: PNGFile.Pixels) -> (Int, Int, Int, Int)? {
        guard before.width == after.width, before.height == after.height else {
            return (0, 0, after.width, after.height)
        }
        var box: (Int, Int, Int, Int)?
        for y in 0..<after.height {
            for x in 0..<after.width where before.at(x, y) != after.at(x, y) {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    /// "x,y WxH" from the FRAME column of `strata-ctl windows`' row titled `title`.
    static func frame(of title: String, in table: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let row = table.split(separator: "\n").first(where: { $0.contains(title) }) else { return nil }
        // The FRAME column: "X,Y WxH" (other columns may follow it).
        let fields = row.split(separator: " ")
        for index in fields.indices.dropLast() {
            let origin = fields[index].split(separator: ",").compactMap { Int($0) }
            let size = fields[index + 1].split(separator: "x").compactMap { Int($0) }
            if origin.count == 2, size.count == 2 { return (origin[0], origin[1], size[0], size[1]) }
        }
        return nil
    }

    /// A demo with a focused entry: the program, its --run name, its window's title, GTK's
    /// settings folder name.
    struct Demo: CustomTestStringConvertible, Sendable {
        var program: String
        var run: String
        var title: String
        var settings: String
        var testDescription: String { program }
    }

    /// Both demos, installed or not: a missing one is a skipped case (which CI counts as a
    /// failure), never a case that silently drops out of the list.
    static let demos = [
        Demo(program: "gtk3-demo", run: "entry_buffer", title: "Entry Buffer", settings: "gtk-3.0"),
        Demo(program: "gtk4-demo", run: "entry_undo", title: "Undo and Redo", settings: "gtk-4.0"),
    ]

    @Test(
        .enabled(
            if: StrataRun.isInstalled("wtype") && demos.allSatisfy { StrataRun.isInstalled($0.program) },
            "wtype or the GTK demos are not installed (apt-get install wtype gtk-3-examples gtk-4-examples)"),
        arguments: demos)
    func anInputMethodAndWtypeTypeIntoAGtkEntry(_ demo: Demo) async throws {
        let ctl = try #require(StrataRun.sibling("strata-ctl"))
        let im = try #require(StrataRun.sibling("strata-im-client"))
        let scratch = try ScratchFolder(prefix: "strata-text-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.path
        // A caret that does not blink keeps unchanged pixels unchanged.
        try FileManager.default.createDirectory(
            atPath: dir + "/config/\(demo.settings)", withIntermediateDirectories: true)
        try "[Settings]\ngtk-cursor-blink=false\n".write(
            toFile: dir + "/config/\(demo.settings)/settings.ini", atomically: true, encoding: .utf8)

        // snap FILE; settle FILE (screenshots until two in a row match); changed BEFORE FILE
        // (screenshots until one differs from BEFORE). Each waits at most 10 s.
        // Two privileged clients (the input method, wtype), each on its own connection.
        let script = """
            d=\(dir)
            snap() { \(ctl) screenshot -o "$1" >/dev/null; }
            settle() { snap "$1"; for i in $(seq 100); do sleep 0.1; snap "$1.next"; cmp -s "$1" "$1.next" && return 0; mv "$1.next" "$1"; done; return 1; }
            changed() { for i in $(seq 100); do sleep 0.1; snap "$2"; cmp -s "$1" "$2" || return 0; done; return 1; }
            GDK_BACKEND=wayland GTK_IM_MODULE=wayland GSK_RENDERER=cairo XDG_CONFIG_HOME=$d/config NO_AT_BRIDGE=1 \(demo.program) --run=\(demo.run) &
            demo=$!
            for i in $(seq 100); do \(ctl) windows | grep -q '\(demo.title)' && break; sleep 0.1; done
            settle $d/before.png && echo settled
            \(im) --seconds 15 'Hello IM' > $d/im.log 2>&1 && echo im-done
            changed $d/before.png $d/im.png && echo im-changed
            settle $d/im.png
            wtype ' typed' && echo wtype-done
            changed $d/im.png $d/wtype.png && echo wtype-changed
            \(ctl) windows > $d/windows.txt
            kill $demo && wait $demo; exit 0
            """
        let result = try await StrataRun.run(["--size", "640x480"], command: Self.shell(script), timeout: 90)
        let log =
            "stdout: \(result.stdout)\nstderr: \(result.stderr)\nim: \((try? String(contentsOfFile: dir + "/im.log", encoding: .utf8)) ?? "")"
        for step in ["settled", "im-done", "im-changed", "wtype-done", "wtype-changed"] {
            #expect(result.stdout.contains(step), "\(step) missing; \(log)")
        }
        // The input method was activated by the focused entry and heard its surrounding text.
        let imLog = (try? String(contentsOfFile: dir + "/im.log", encoding: .utf8)) ?? ""
        #expect(imLog.contains("activate") && imLog.contains("committed Hello IM"), "\(log)")
        #expect(imLog.contains("surrounding_text Hello IM"), "\(log)")

        let windows = (try? String(contentsOfFile: dir + "/windows.txt", encoding: .utf8)) ?? ""
        let frame = try #require(Self.frame(of: demo.title, in: windows), "windows: \(windows)")
        let before = try PNGFile.read(path: dir + "/before.png")
        let afterIM = try PNGFile.read(path: dir + "/im.png")
        let afterWtype = try PNGFile.read(path: dir + "/wtype.png")
        for (name, from, to) in [("input method", before, afterIM), ("wtype", afterIM, afterWtype)] {
            let box = try #require(Self.changedBox(from, to), "\(name): no pixel changed")
            #expect(
                box.0 >= frame.x && box.1 >= frame.y && box.2 < frame.x + frame.width && box.3 < frame.y + frame.height,
                "\(name) changed \(box), outside the \(demo.title) window \(frame)")
        }
    }
}
