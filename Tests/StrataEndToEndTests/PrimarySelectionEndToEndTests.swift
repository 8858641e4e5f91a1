import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// Middle-click paste between two real GTK 3 clients (gtk3-demo and gtk3-widget-factory, two
/// processes): text selected in one is pasted into the other's entry by a middle click.
@Suite struct PrimarySelectionEndToEndTests {
    /// strata-ctl against `run`'s control socket; returns its exit status and standard output.
    static func ctl(_ run: StrataRun, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(StrataRun.sibling("strata-ctl")))
        process.arguments = arguments
        var env = StrataRun.childEnvironment
        env["XDG_RUNTIME_DIR"] = run.runtimeDirectory
        env["STRATA_SOCKET"] = nil
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The main screen now, as pixels.
    static func screenshot(_ run: StrataRun) throws -> PNGFile.Pixels? {
        let path = run.runtimeDirectory + "/shot.png"
        guard try ctl(run, ["screenshot", "-o", path]).status == 0 else { return nil }
        return try? PNGFile.read(path: path)
    }

    /// The pixels of `rect` (x, y, width, height).
    static func region(_ pixels: PNGFile.Pixels, _ rect: (Int, Int, Int, Int)) -> [UInt32] {
        var out: [UInt32] = []
        for y in rect.1..<min(rect.1 + rect.3, pixels.height) {
            for x in rect.0..<min(rect.0 + rect.2, pixels.width) { out.append(pixels.at(x, y)) }
        }
        return out
    }

    /// How many pixels of `pixels` are dark (text ink: every channel below 0x80).
    static func ink(_ pixels: [UInt32]) -> Int {
        pixels.filter { ($0 >> 16) & 0xff < 0x80 && ($0 >> 8) & 0xff < 0x80 && $0 & 0xff < 0x80 }.count
    }

    /// Waits until two screenshots 100 ms apart show `rect` the same; returns those pixels.
    static func settled(_ run: StrataRun, _ rect: (Int, Int, Int, Int)) async throws -> [UInt32]? {
        var last: [UInt32]?
        for _ in 0..<100 {
            let now = try screenshot(run).map { region($0, rect) }
            if let now, now == last { return now }
            last = now
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return nil
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("gtk3-demo") && StrataRun.isInstalled("gtk3-widget-factory")
                && StrataRun.sibling("strata-ctl") != nil,
            "gtk3-demo or gtk3-widget-factory is not installed (apt-get install gtk-3-examples)"))
    func middleClickPastesTheSelectionOfOneGtk3ClientIntoAnother() async throws {
        let scratch = try ScratchFolder(prefix: "strata-primary-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.path
        // A caret that does not blink keeps unchanged pixels unchanged.
        try FileManager.default.createDirectory(atPath: dir + "/gtk-3.0", withIntermediateDirectories: true)
        try "[Settings]\ngtk-cursor-blink=false\n".write(
            toFile: dir + "/gtk-3.0/settings.ini", atomically: true, encoding: .utf8)
        let run = try StrataRun(
            ["--size", "1024x600", "--hide-cursor"],
            command: ["/bin/sh", "-c", "gtk3-demo --run=entry_buffer & exec sleep 120"],
            environment: ["GDK_BACKEND": "wayland", "XDG_CONFIG_HOME": dir, "NO_AT_BRIDGE": "1"])
        _ = try #require(await run.socketName())
        func windows() -> String { (try? Self.ctl(run, ["windows"]).output) ?? "" }

        // gtk3-demo's Entry Buffer window: type into its focused entry and select it all (GTK
        // sets the primary selection).
        let demoShown = await StrataRun.poll(timeout: 15) { windows().contains("Entry Buffer") ? true : nil }
        try #require(demoShown == true, "stderr: \(run.stderr)")
        _ = try await Self.settled(run, (0, 0, 1024, 600))
        #expect(try Self.ctl(run, ["input", "type", "primary paste"]).status == 0)
        #expect(try Self.ctl(run, ["input", "key", "Control_L", "down"]).status == 0)
        #expect(try Self.ctl(run, ["input", "key", "a"]).status == 0)
        #expect(try Self.ctl(run, ["input", "key", "Control_L", "up"]).status == 0)
        _ = try await Self.settled(run, (0, 0, 1024, 600))

        // gtk3-widget-factory maps at (0, 0) on top and becomes key; its third entry (empty) is
        // at (10, 146) 362×32 in Debian 12's Adwaita layout.
        #expect(try Self.ctl(run, ["exec", "--", "gtk3-widget-factory"]).status == 0)
        let factoryShown = await StrataRun.poll(timeout: 15) { windows().contains("gtk3-widget-factory") ? true : nil }
        try #require(factoryShown == true, "stderr: \(run.stderr)")
        let entry = (10, 146, 362, 32)
        // Inside its border, left of its icon: where pasted text shows.
        let text = (14, 150, 320, 24)
        _ = try await Self.settled(run, entry)
        #expect(try Self.ctl(run, ["input", "pointer", "move", "150", "161"]).status == 0)
        #expect(try Self.ctl(run, ["input", "pointer", "click"]).status == 0)
        _ = try #require(try await Self.settled(run, entry), "the entry never settled")
        let before = try #require(try Self.screenshot(run).map { Self.ink(Self.region($0, text)) })
        // An empty focused entry: at most its caret is dark (Strata draws no pointer cursor here).
        #expect(before < 40, "ink before the paste: \(before)")

        #expect(try Self.ctl(run, ["input", "pointer", "click", "middle"]).status == 0)
        // "primary paste" in 11pt Cantarell/DejaVu is several hundred dark pixels.
        let pasted = await StrataRun.poll(timeout: 20) { () -> Int? in
            guard let now = try? Self.screenshot(run) else { return nil }
            let ink = Self.ink(Self.region(now, text))
            return ink > 200 ? ink : nil
        }
        #expect(pasted != nil, "no text appeared in the entry; windows: \(windows())")
        run.send(SIGTERM)
        _ = await run.finish()
    }
}
