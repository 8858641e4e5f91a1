@testable import StrataControlProtocol
import StrataModel
import Testing

/// `WindowSelector`, the one rule that turns a window's name into a window, on plain lists
/// (no server): the forms and their order, case-insensitive app ids, title globs, and the
/// candidates an error lists.
@Suite struct WindowSelectorTests {
    static func info(_ id: UInt64, _ appID: String, _ title: String, pid: Int32 = 100) -> WindowInfo {
        WindowInfo(
            id: id, appID: appID, title: title, pid: pid, level: "normal", order: 0, key: false, hidden: false,
            screen: 1, frame: Rect(x: 0, y: 0, width: 10, height: 10))
    }

    static let desk = [
        info(3, "foot", "~ (sh)", pid: 31),
        info(5, "XTerm", "xterm", pid: 52),
        info(7, "gtk3-demo", "GTK+ Code Demos", pid: 70),
        info(8, "gtk3-demo", "Button Boxes", pid: 70),
        info(9, "firefox", "Strata — Mozilla Firefox", pid: 90),
    ]

    @Test func theFormsAreReadInOrderNumberThenPrefixesThenAppID() throws {
        #expect(try WindowSelector("12") == .id(12))
        #expect(try WindowSelector("title:~ (sh)") == .title("~ (sh)"))
        #expect(try WindowSelector("title:") == .title(""))
        #expect(try WindowSelector("pid:52") == .pid(52))
        #expect(try WindowSelector("app:12") == .appID("12"))
        #expect(try WindowSelector("Gtk3-Demo") == .appID("Gtk3-Demo"))
        // An unknown prefix is part of an app id.
        #expect(try WindowSelector("org.example:tool") == .appID("org.example:tool"))
        #expect(try WindowSelector(JSONValue(4)) == .id(4))
        #expect(try WindowSelector(JSONValue(-3)) == .id(0))
        #expect(try WindowSelector(.string("pid:9")) == .pid(9))
    }

    @Test func malformedNamesAreInvalidArgumentsInWords() {
        for text in ["", "pid:", "pid:x", "pid:0", "pid:-4", "pid:99999999999", "app:"] {
            #expect(throws: ControlError.self) { try WindowSelector(text) }
            do {
                _ = try WindowSelector(text)
            } catch {
                #expect(error.code == .invalidArgument, "\(text)")
            }
        }
        #expect((try? WindowSelector(.array([JSONValue(1)]))) == nil)
    }

    @Test func appIDsMatchInAnyCase() throws {
        #expect(try WindowSelector("xterm").resolve(in: Self.desk).id == 5)
        #expect(try WindowSelector("XTERM").resolve(in: Self.desk).id == 5)
        #expect(try WindowSelector("FOOT").resolve(in: Self.desk).id == 3)
        #expect(try WindowSelector("app:Firefox").resolve(in: Self.desk).id == 9)
    }

    @Test func anExactlySpelledAppIDWinsOverOnesDifferingInCase() throws {
        let list = [Self.info(1, "tool", "a"), Self.info(2, "Tool", "b")]
        #expect(try WindowSelector("tool").resolve(in: list).id == 1)
        #expect(try WindowSelector("Tool").resolve(in: list).id == 2)
        #expect(throws: ControlError.self) { try WindowSelector("TOOL").resolve(in: list) }
    }

    @Test func titlesMatchExactlyOrByGlob() throws {
        #expect(try WindowSelector("title:xterm").resolve(in: Self.desk).id == 5)
        #expect(try WindowSelector("title:*Mozilla Firefox").resolve(in: Self.desk).id == 9)
        #expect(try WindowSelector("title:Button*").resolve(in: Self.desk).id == 8)
        #expect(try WindowSelector("title:*Code*").resolve(in: Self.desk).id == 7)
        #expect(try WindowSelector("title:~ (sh)").resolve(in: Self.desk).id == 3)
        // Exact: no substring, and case counts in titles.
        #expect(throws: ControlError.self) { try WindowSelector("title:Xterm").resolve(in: Self.desk) }
        #expect(throws: ControlError.self) { try WindowSelector("title:Button").resolve(in: Self.desk) }
    }

    @Test func theGlobMatchesStarsAnywhere() {
        let cases: [(String, String, Bool)] = [
            ("*", "", true), ("*", "anything", true), ("", "", true), ("", "a", false),
            ("a*b*c", "abc", true), ("a*b*c", "a--b--c", true), ("a*b*c", "a--c--b", false),
            ("*.txt", "notes.txt", true), ("*.txt", "notes.txt~", false), ("a**b", "ab", true),
            ("*ab", "aab", true), ("ab*", "a", false), ("*a*", "bbb", false), ("é*", "équipe", true),
            ("a*a", "a", false), ("a*a", "aa", true), ("*b*b*", "abab", true), ("*ab*ab*", "abab", true),
            ("*ab*ab*", "aba", false), ("x*", "", false), ("*€", "100 €", true),
        ]
        for (pattern, text, expected) in cases {
            #expect(Glob.matches(pattern, text) == expected, "\(pattern) vs \(text)")
        }
    }

    /// A client picks its title: the worst one for a naive search (a long run of one letter)
    /// against the longest pattern costs the lengths' sum, not their product.
    @Test func aHostileTitleCostsAtMostItsLengthTimesTheBoundedPattern() throws {
        let title = String(repeating: "a", count: 100_000)
        let pattern = "*" + String(repeating: "a", count: WindowSelector.maximumPatternBytes - 3) + "b*"
        let selector = try WindowSelector("title:" + pattern)
        let windows = (1...20).map { Self.info(UInt64($0), "hostile", title) }
        // 20 × 100,000 bytes: a naive search would compare about 2·10⁹ bytes here (minutes in a
        // debug build); this one about 4·10⁶ (no timing assert: the suite's deadline is the bound).
        #expect(throws: ControlError.self) { try selector.resolve(in: windows) }
        #expect(throws: ControlError.self) { try WindowSelector("title:" + pattern + "xx") }
    }

    @Test func aPidNamesItsProcesssWindow() throws {
        #expect(try WindowSelector("pid:31").resolve(in: Self.desk).id == 3)
        #expect(try WindowSelector("12").resolve(in: [Self.info(12, "a", "b")]).id == 12)
    }

    @Test func severalMatchesAreAmbiguousAndListTheCandidatesWithIdAppTitleAndPid() {
        for name in ["pid:70", "GTK3-DEMO", "title:*o*"] {
            do {
                _ = try WindowSelector(name).resolve(in: Self.desk)
                Issue.record("\(name) named one window")
            } catch {
                #expect(error.code == .ambiguousWindow)
                #expect(
                    error.message.contains("id 7 (app \"gtk3-demo\", title \"GTK+ Code Demos\", pid 70)"),
                    "\(error.message)")
                #expect(
                    error.message.contains("id 8 (app \"gtk3-demo\", title \"Button Boxes\", pid 70)"),
                    "\(error.message)")
                #expect(error.message.contains("name one by its id"), "\(error.message)")
            }
        }
    }

    @Test func noMatchIsUnknownAndListsEveryOpenWindow() {
        do {
            _ = try WindowSelector("title:Nothing").resolve(in: Self.desk)
            Issue.record("found a window")
        } catch {
            #expect(error.code == .unknownWindow)
            #expect(
                error.message.hasPrefix("no window has title \"Nothing\"; the open windows: id 3 (app \"foot\""),
                "\(error.message)")
            #expect(error.message.contains("id 9 (app \"firefox\", title \"Strata — Mozilla Firefox\", pid 90)"))
        }
        do {
            _ = try WindowSelector("42").resolve(in: [WindowInfo]())
            Issue.record("found a window")
        } catch {
            #expect(error.code == .unknownWindow)
            #expect(error.message == "no open window has id 42; no window is open")
        }
    }

    @Test func aLongListIsCutWithACount() {
        let many = (1...30).map { Self.info(UInt64($0), "same", "w\($0)") }
        do {
            _ = try WindowSelector("same").resolve(in: many)
        } catch {
            #expect(
                error.message.contains("id 20 (app \"same\", title \"w20\", pid 100), and 10 more"), "\(error.message)")
            #expect(!error.message.contains("id 21 "))
        }
    }
}
