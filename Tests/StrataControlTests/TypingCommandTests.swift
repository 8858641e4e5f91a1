import Foundation
import StrataControlProtocol
import StrataServer
import StrataTestRandom
import StrataTestSupport
import Testing

/// `type` and `key` on any layout (docs/seat.md, "Typing"): every level with its modifiers,
/// characters no key has through the extended keymap, chords; and `pointer-scroll`,
/// `pointer-click` at a point. The client decodes what it got with xkbcommon, as a real one does.
@Suite struct TypingCommandTests {
    /// A harness with the keymap of `layout`, and a focused client with a keyboard and pointer.
    private func focusedClient(layout: String = "us") throws -> (ControlHarness, TestClient, TestSeat, TestSurface) {
        let harness = try ControlHarness(keymapNames: KeymapNames(layout: layout))
        let wayland = try TestClient(server: harness.server)
        let seat = try TestSeat(client: wayland)
        seat.getKeyboard()
        seat.getPointer()
        wayland.roundtrip()
        let surface = try wayland.makeSurface(width: 200, height: 100)
        wayland.showPlainSurface(surface, x: 100, y: 50)
        wayland.roundtrip()
        return (harness, wayland, seat, surface)
    }

    private static func keys(_ seat: TestSeat) -> [String] {
        seat.events.compactMap { event -> String? in
            if case .key(let key, let pressed) = event { return "\(key)\(pressed ? "+" : "-")" }
            return nil
        }
    }

    private static func keymapCount(_ seat: TestSeat) -> Int {
        seat.events.filter { if case .keymap = $0 { return true } else { return false } }.count
    }

    @Test(arguments: ["us", "de"])
    func everyCharacterArrivesExactlyWhateverItsLevel(layout: String) throws {
        let (harness, wayland, seat, _) = try focusedClient(layout: layout)
        let text = "@€ü{}\nHello, World! ~\\|[]^`'\"<>ßÄ²³µ§°\t0123456789 yz YZ"
        let reply = try harness.request(["command": "type", "text": .string(text)])
        #expect(reply["typed"]?.intValue == text.unicodeScalars.count, "\(reply)")
        wayland.roundtrip()
        #expect(TypedTextDecoder.text(of: seat) == text)
        // Every modifier pressed was released: the last modifiers the client got are none.
        let last = seat.events.last { if case .modifiers = $0 { return true } else { return false } }
        if case .modifiers(let depressed, let latched, _, _) = last { #expect(depressed == 0 && latched == 0) }
    }

    @Test func theAtSignUnderGermanIsAltGrAndQ() throws {
        let (harness, wayland, seat, _) = try focusedClient(layout: "de")
        let before = Self.keymapCount(seat)
        #expect(try harness.request(["command": "type", "text": "@"])["typed"]?.intValue == 1)
        wayland.roundtrip()
        // AltGr (KEY_RIGHTALT) around KEY_Q, on the keymap's own keys: no extension was needed.
        #expect(Self.keys(seat) == ["100+", "16+", "16-", "100-"])
        #expect(Self.keymapCount(seat) == before)
    }

    @Test func charactersNoKeyHasAreTypedThroughOneExtendedKeymap() throws {
        let (harness, wayland, seat, _) = try focusedClient()
        let before = Self.keymapCount(seat)
        let text = "€😀ü→ab😀"
        #expect(try harness.request(["command": "type", "text": .string(text)])["typed"]?.intValue == 7)
        wayland.roundtrip()
        #expect(TypedTextDecoder.text(of: seat) == text)
        // One extension for all four: sent once, before their keys.
        #expect(Self.keymapCount(seat) == before + 1)
        let extended = try #require(seat.keymapTexts.last)
        #expect(extended.count > seat.keymapTexts[0].count)
        // Typed again: the extension has them already.
        #expect(try harness.request(["command": "type", "text": "😀€"]).isOK)
        wayland.roundtrip()
        #expect(Self.keymapCount(seat) == before + 1)
        #expect(TypedTextDecoder.text(of: seat) == text + "😀€")
        // The extra keys are in X's keycode range (Xwayland follows wl_keyboard.keymap).
        let presses = seat.takeEvents().compactMap { event -> UInt32? in
            if case .key(let key, true) = event { return key } else { return nil }
        }
        #expect(presses.allSatisfy { $0 + 8 <= 255 }, "\(presses)")
    }

    @Test func aThousandRandomCharactersAreTypedExactlyInBoundedExtensions() throws {
        let (harness, wayland, seat, _) = try focusedClient()
        var random = SeededGenerator(seed: 29)
        var scalars = String.UnicodeScalarView()
        while scalars.count < 1024 {
            let value = UInt32.random(in: 0x20...0x10_ffff, using: &random)
            guard let scalar = Unicode.Scalar(value), Seat.keysym(for: scalar) != nil else { continue }
            scalars.append(scalar)
        }
        let text = String(scalars)
        let before = Self.keymapCount(seat)
        // In requests of 256 characters, the client reading in between: the in-process client
        // reads only when the test lets it, and its socket holds so much.
        let all = Array(scalars)
        for start in stride(from: 0, to: all.count, by: 256) {
            let chunk = String(String.UnicodeScalarView(all[start..<(start + 256)]))
            let reply = try harness.request(["command": "type", "text": .string(chunk)])
            #expect(reply["typed"]?.intValue == 256, "\(reply)")
            wayland.roundtrip()
        }
        let decoded = try #require(TypedTextDecoder.text(of: seat))
        if decoded != text {
            let a = Array(decoded.unicodeScalars), b = Array(text.unicodeScalars)
            let first = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            Issue.record(
                "decoded \(a.count) of \(b.count); first difference at \(first): \(first < a.count ? String(a[first].value, radix: 16) : "-") for \(first < b.count ? String(b[first].value, radix: 16) : "-")"
            )
        }
        // Each extension binds up to 128 keysyms (fewer when the keymap has fewer spare keys):
        // the keymap was replaced a bounded number of times, and stays small.
        let extensions = Self.keymapCount(seat) - before
        #expect(extensions >= 1024 / 128 && extensions <= 1024 / 8, "\(extensions) extensions")
        #expect(seat.keymapTexts.allSatisfy { $0.utf8.count < seat.keymapTexts[0].utf8.count + 128 * 64 })
    }

    @Test func hostileTextIsRefusedWithNothingTyped() throws {
        let (harness, wayland, seat, _) = try focusedClient()
        // 4097 characters: too long; 100 KB of random code points: longer than a request line.
        let overlong = try harness.request(["command": "type", "text": .string(String(repeating: "a", count: 4097))])
        #expect(overlong["error"]?["message"]?.stringValue?.contains("at most 4096") == true, "\(overlong)")
        var random = SeededGenerator(seed: 7)
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        while bytes < 100_000 {
            guard let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10_ffff, using: &random)) else { continue }
            scalars.append(scalar)
            bytes += UTF8.width(scalar)
        }
        let long = try harness.request(["command": "type", "text": .string(String(scalars))])
        #expect(long["ok"] == false, "\(long)")
        // NUL, other control characters, non-characters: refused, naming the character.
        let nonCharacters = [0xffff, 0xfdd0, 0x1fffe].compactMap {
            Unicode.Scalar(UInt32($0)).map { "ok" + String($0) }
        }
        for text in ["a\u{0}b", "x\u{7}", "\u{85}"] + nonCharacters {
            let reply = try harness.request(["command": "type", "text": .string(text)])
            #expect(reply["ok"] == false)
            #expect(reply["error"]?["message"]?.stringValue?.contains("nothing was typed") == true, "\(reply)")
        }
        // Bytes that are not UTF-8 on the socket: an error reply, and the connection goes on.
        let client = try harness.connect()
        client.send(
            [UInt8]("{\"id\":1,\"command\":\"type\",\"text\":\"".utf8) + [0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]
                + [UInt8]("\"}\n".utf8))
        let replies = client.lines(1)
        #expect(replies.first?["ok"] == false, "\(replies)")
        wayland.roundtrip()
        #expect(Self.keys(seat).isEmpty)
        // A lone surrogate escaped in the JSON: an error or a replacement character, never a crash.
        client.send("{\"id\":2,\"command\":\"type\",\"text\":\"\\ud800\"}\n")
        #expect(client.lines(1).count == 1)
        wayland.roundtrip()
        _ = seat.takeEvents()
        #expect(try harness.request(["command": "type", "text": "fine"])["typed"]?.intValue == 4)
    }

    @Test func aHeldModifierDoesNotChangeWhatIsTyped() throws {
        let (harness, wayland, seat, _) = try focusedClient()
        #expect(try harness.request(["command": "key", "key": "Shift_L", "state": "down"]).isOK)
        #expect(try harness.request(["command": "type", "text": "aB1"]).isOK)
        #expect(try harness.request(["command": "key", "key": "Shift_L", "state": "up"]).isOK)
        // Caps Lock locked: Shift gives the small letters back.
        #expect(try harness.request(["command": "key", "key": "Caps_Lock"]).isOK)
        #expect(try harness.request(["command": "type", "text": "xY2"]).isOK)
        #expect(try harness.request(["command": "key", "key": "Caps_Lock"]).isOK)
        #expect(try harness.request(["command": "type", "text": "zZ"]).isOK)
        wayland.roundtrip()
        #expect(TypedTextDecoder.text(of: seat) == "aB1xY2zZ")
    }

    @Test func chordsPressModifiersThenTheKeyAndReleaseInReverse() throws {
        let (harness, wayland, seat, _) = try focusedClient(layout: "de")
        let reply = try harness.request(["command": "key", "key": "ctrl+shift+t"])
        #expect(reply["modifiers"] == .array([29, 42]), "\(reply)")
        wayland.roundtrip()
        #expect(Self.keys(seat) == ["29+", "42+", "20+", "20-", "42-", "29-"])
        _ = seat.takeEvents()
        #expect(try harness.request(["command": "key", "key": "AltGr+q"]).isOK)
        #expect(try harness.request(["command": "key", "key": "super+Return"]).isOK)
        wayland.roundtrip()
        #expect(Self.keys(seat) == ["100+", "16+", "16-", "100-", "125+", "28+", "28-", "125-"])
        #expect(try harness.request(["command": "key", "key": "ctrl++"])["keycode"] != nil)
        for bad in ["hyper+a", "ctrl+", "ctrl+nosuchkey", "shift+ctrl+a+b", ""] {
            let refused = try harness.request(["command": "key", "key": .string(bad)])
            #expect(refused["ok"] == false, "\(bad): \(refused)")
        }
        // A key with a state: the chord's keys go down in order and up in reverse.
        wayland.roundtrip()
        _ = seat.takeEvents()
        #expect(try harness.request(["command": "key", "key": "ctrl+c", "state": "down"]).isOK)
        #expect(try harness.request(["command": "key", "key": "ctrl+c", "state": "up"]).isOK)
        wayland.roundtrip()
        #expect(Self.keys(seat) == ["29+", "46+", "46-", "29-"])
    }

    @Test func wheelClicksAndSmoothScrollingReachTheSurfaceUnderThePointer() throws {
        let (harness, wayland, seat, surface) = try focusedClient()
        #expect(try harness.request(["command": "pointer-move", "x": 150, "y": 80]).isOK)
        wayland.roundtrip()
        _ = seat.takeEvents()
        #expect(try harness.request(["command": "pointer-scroll", "dx": 0, "dy": 2]).isOK)
        wayland.roundtrip()
        #expect(
            seat.takeEvents() == [
                .pointerAxisSource(0), .pointerAxisValue120(axis: 0, value120: 240), .pointerAxis(axis: 0, value: 30),
                .pointerFrame,
            ])
        #expect(try harness.request(["command": "pointer-scroll", "dx": -1, "dy": 0]).isOK)
        wayland.roundtrip()
        #expect(
            seat.takeEvents() == [
                .pointerAxisSource(0), .pointerAxisValue120(axis: 1, value120: -120), .pointerAxis(axis: 1, value: -15),
                .pointerFrame,
            ])
        #expect(try harness.request(["command": "pointer-scroll", "dx": 2.5, "dy": -7.25, "smooth": true]).isOK)
        wayland.roundtrip()
        #expect(
            seat.takeEvents() == [
                .pointerAxisSource(1), .pointerAxis(axis: 0, value: -7.25), .pointerAxis(axis: 1, value: 2.5),
                .pointerFrame,
                .pointerAxisSource(1), .pointerAxisStop(axis: 0), .pointerAxisStop(axis: 1), .pointerFrame,
            ])
        for bad: [String: JSONValue] in [["dx": 0, "dy": 0], ["dy": 1.5], ["dy": 1000], ["dx": 1e9, "smooth": true]] {
            var request = bad
            request["command"] = "pointer-scroll"
            #expect(try harness.request(request)["ok"] == false, "\(bad)")
        }
        _ = surface
    }

    @Test func aClickAtAPointMovesThereFirst() throws {
        let (harness, wayland, seat, surface) = try focusedClient()
        _ = seat.takeEvents()
        let reply = try harness.request(["command": "pointer-click", "x": 130, "y": 70, "button": "right"])
        #expect(reply["x"]?.doubleValue == 130 && reply["y"]?.doubleValue == 70, "\(reply)")
        wayland.roundtrip()
        let events = seat.takeEvents().filter { $0 != .pointerFrame }
        #expect(
            events == [
                .pointerEnter(surface: surface.id, x: 30, y: 20), .pointerButton(button: 0x111, pressed: true),
                .pointerButton(button: 0x111, pressed: false),
            ])
        // Without a point: where the pointer is.
        #expect(try harness.request(["command": "pointer-click"]).isOK)
        wayland.roundtrip()
        #expect(
            seat.takeEvents().filter { $0 != .pointerFrame } == [
                .pointerButton(button: 0x110, pressed: true), .pointerButton(button: 0x110, pressed: false),
            ])
    }
}
