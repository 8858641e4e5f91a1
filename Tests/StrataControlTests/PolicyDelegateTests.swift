import CStrataClientGlue
import CWaylandClient
import Foundation
import Glibc
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A control connection that keeps questions, replies and events apart (`request` of
/// `RawControlClient` skips every line without `ok`, questions included).
final class DelegatePeer {
    let raw: RawControlClient
    unowned let harness: ControlHarness
    var questions: [JSONValue] = []
    var replies: [Int: JSONValue] = [:]
    var events: [JSONValue] = []
    private var nextID = 1

    init(_ harness: ControlHarness) throws {
        self.harness = harness
        raw = try harness.connect()
    }

    @discardableResult
    func send(_ fields: [String: JSONValue]) -> Int {
        let id = nextID
        nextID += 1
        var fields = fields
        fields["id"] = JSONValue(id)
        var line = JSONValue.object(fields).encodedLine()
        line.append(UInt8(ascii: "\n"))
        raw.send(Array(line))
        return id
    }

    /// Sorts the lines the server sent so far, without stepping it.
    func drain() {
        while let line = raw.pollLine() {
            if line["ok"] != nil {
                replies[line["id"]?.intValue ?? 0] = line
            } else if line["question"] != nil, line["name"] == nil {
                questions.append(line)
            } else {
                events.append(line)
            }
        }
    }

    /// Steps the server until `done` (at most `steps` times).
    func wait(steps: Int = 4000, until done: () -> Bool) -> Bool {
        for _ in 0..<steps {
            drain()
            if done() { return true }
            harness.server.step(timeout: 0.005)
        }
        drain()
        return done()
    }

    /// Whether `nextQuestion` answers pointer-enter questions with the built-in's answer (the
    /// pointer enters windows as they are clicked, shown and hidden).
    var skipsPointerEnter = true

    func nextQuestion(steps: Int = 4000) -> JSONValue? {
        while true {
            guard wait(steps: steps, until: { !questions.isEmpty }) else { return nil }
            let question = questions.removeFirst()
            guard skipsPointerEnter, question["kind"] == "pointer-enter" else { return question }
            send(["command": "decide", "question": question["question"] ?? .null, "answer": "builtin"])
        }
    }

    func reply(to id: Int, steps: Int = 4000) -> JSONValue? {
        guard wait(steps: steps, until: { replies[id] != nil }) else { return nil }
        return replies.removeValue(forKey: id)
    }

    func request(_ fields: [String: JSONValue]) -> JSONValue? {
        reply(to: send(fields))
    }

    func decide(_ question: JSONValue?, _ answer: JSONValue) -> JSONValue? {
        request(["command": "decide", "question": question?["question"] ?? .null, "answer": answer])
    }
}

/// The policy delegate over the control socket (docs/control.md, "Policy delegate"), with real
/// in-process Wayland clients: a delegate that answers, one that answers wrongly, one that
/// never answers, one that hangs up, the manual clock's wait, and hostile ones.
@Suite struct PolicyDelegateTests {
    private static let grey: UInt32 = 0xff80_8080

    /// Maps an xdg toplevel of `appID` (120×90) and returns it with its model window.
    private static func map(_ shell: TestXdgShell, _ harness: ControlHarness, _ appID: String) throws -> (
        TestToplevel, Window
    ) {
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(toplevel.toplevel, appID)
        #expect(toplevel.map(width: 120, height: 90, argb: grey))
        let window = try #require(harness.windows.windows.first { $0.appID == appID })
        return (toplevel, window)
    }

    /// Every notification posted from now on.
    private final class Posted {
        var all: [PostedNotification] = []
        var token: ObserverToken?
        init(_ harness: ControlHarness) {
            token = harness.windows.notifications.addObserver(phase: .recording) { [weak self] in self?.all.append($0) }
        }
        func fallbacks(_ reason: String) -> [PostedNotification] {
            all.filter {
                if case .policyDidFallBack(_, _, _, let r) = $0.notification { return r == reason }
                return false
            }
        }
        func becameKey(_ window: Window) -> PostedNotification? {
            all.last { $0.notification == .windowDidBecomeKey(window.id) }
        }
    }

    /// A click at `window`'s top-left corner (the windows cascade: no later window covers it).
    private static func click(_ window: Window, by peer: DelegatePeer) -> JSONValue? {
        peer.request([
            "command": "pointer-click", "x": JSONValue(Double(window.frame.x + 3)),
            "y": JSONValue(Double(window.frame.y + 3)),
        ])
    }

    private static func register(_ peer: DelegatePeer, _ decisions: [String], deadline: Int = 10_000) -> JSONValue? {
        peer.request([
            "command": "delegate", "decisions": .array(decisions.map { .string($0) }),
            "deadline_ms": JSONValue(deadline),
        ])
    }

    @Test func aDelegateThatAnswersDecidesClickSuccessorAndPlacement() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let (_, b) = try Self.map(shell, harness, "b.test")
        let (_, c) = try Self.map(shell, harness, "c.test")
        #expect(c.isKeyWindow)
        let delegate = try DelegatePeer(harness)
        let registered = try #require(Self.register(delegate, ["key", "placement"]))
        #expect(registered.isOK)
        #expect(registered["decisions"] == ["key", "placement"])
        #expect(registered["clock"] == "realtime")
        let driver = try DelegatePeer(harness)
        let policy = try #require(driver.request(["command": "policy"]))
        #expect(policy["policy"] == "uikit")
        #expect(policy["delegate"]?["decisions"] == ["key", "placement"])
        let posted = Posted(harness)

        // A click on a: the delegate makes it key and orders it front.
        #expect(Self.click(a, by: driver)?.isOK == true)
        let click = try #require(delegate.nextQuestion())
        #expect(click["kind"] == "click")
        #expect(click["window"]?.intValue == Int(a.id.rawValue))
        #expect(click["input"] == "click")
        #expect(click["cause"]?["cause"] == "click")
        #expect(click["cause"]?["requester"] == "user")
        #expect(click["builtin"] == ["key": true, "order_front": false])
        #expect(click["deadline_ms"] == 10000)
        #expect(click["state"]?["key"]?.intValue == Int(c.id.rawValue))
        #expect(click["state"]?["windows"]?.arrayValue?.count == 3)
        #expect(c.isKeyWindow)
        let decided = try #require(delegate.decide(click, ["key": true, "order_front": true]))
        #expect(decided["applied"] == true)
        #expect(a.isKeyWindow)
        #expect(harness.windows.windows.last === a)
        #expect(posted.becameKey(a)?.cause?.kind == .delegate)
        #expect(posted.becameKey(a)?.cause?.decidedBy == "delegate")

        // a hidden: the built-in would pick c (the frontmost); the delegate picks b.
        #expect(driver.request(["command": "hide", "window": JSONValue(Int(a.id.rawValue))])?.isOK == true)
        let successor = try #require(delegate.nextQuestion())
        #expect(successor["kind"] == "successor")
        #expect(successor["lost"]?.intValue == Int(a.id.rawValue))
        #expect(successor["builtin"]?["window"]?.intValue == Int(c.id.rawValue))
        #expect(harness.windows.keyWindow == nil)
        #expect(delegate.decide(successor, ["window": JSONValue(Int(b.id.rawValue))])?["applied"] == true)
        #expect(b.isKeyWindow)

        // A new window: placed where the delegate says, and not key (it says so).
        let shell2 = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, d) = try Self.map(shell2, harness, "d.test")
        let placement = try #require(delegate.nextQuestion())
        #expect(placement["kind"] == "placement")
        #expect(placement["size"] == ["width": 120, "height": 90])
        #expect(placement["builtin"]?["frame"]?["width"] == 120)
        #expect(delegate.decide(placement, ["origin": ["x": 321, "y": 123]])?["applied"] == true)
        #expect(d.frame.origin == Point(x: 321, y: 123))
        let mapped = try #require(delegate.nextQuestion())
        #expect(mapped["kind"] == "map")
        #expect(mapped["requested"] == true)
        #expect(delegate.decide(mapped, ["key": false])?["applied"] == true)
        #expect(b.isKeyWindow)
        #expect(!delegate.questions.contains { $0["kind"] != "pointer-enter" })
    }

    @Test func aStackingDelegateAnswersALevelRequest() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (toplevel, window) = try Self.map(shell, harness, "level.test")
        let manager = try TestWindowManager(client: shell.client)
        let strataWindow = try #require(manager.window(for: toplevel))
        let delegate = try DelegatePeer(harness)
        #expect(Self.register(delegate, ["stacking"])?.isOK == true)
        strataWindow.setLevel(Int32(WindowLevel.alert.rawValue))
        #expect(shell.client.roundtrip())
        let question = try #require(delegate.nextQuestion())
        #expect(question["kind"] == "level")
        #expect(question["requested"] == "alert")
        // The level rules deny it (level.test is not allowed); the delegate grants it.
        #expect(question["builtin"] == ["grant": false])
        #expect(delegate.decide(question, ["level": "alert"])?["applied"] == true)
        #expect(window.level == .alert)
        #expect(shell.client.roundtrip())
        #expect(strataWindow.takeEvents().contains("level_changed \(Int32(WindowLevel.alert.rawValue))"))
    }

    @Test func aKeyDelegateRefusesAFocusRequestTheRuleGrants() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (toplevel, a) = try Self.map(shell, harness, "a.test")
        let other = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, b) = try Self.map(other, harness, "b.test")
        #expect(b.isKeyWindow)
        let manager = try TestWindowManager(client: shell.client)
        let strataWindow = try #require(manager.window(for: toplevel))
        let delegate = try DelegatePeer(harness)
        #expect(Self.register(delegate, ["key"])?.isOK == true)
        strataWindow.makeKey()
        #expect(shell.client.roundtrip())
        let question = try #require(delegate.nextQuestion())
        #expect(question["kind"] == "focus-request")
        // In-process clients are privileged: the rule grants it; the delegate refuses.
        #expect(question["rule"] == "privileged")
        #expect(question["builtin"] == ["grant": true])
        #expect(question["cause"]?["request"] == "strata_window_v1.make_key")
        #expect(b.isKeyWindow)
        #expect(delegate.decide(question, ["grant": false])?["applied"] == true)
        #expect(b.isKeyWindow)
        #expect(!a.isKeyWindow)
        // Granted, the next one makes a key.
        strataWindow.makeKey()
        #expect(shell.client.roundtrip())
        let again = try #require(delegate.nextQuestion())
        #expect(delegate.decide(again, ["grant": true])?["applied"] == true)
        #expect(a.isKeyWindow)
    }

    @Test func wrongAnswersAreRefusedAndTheBuiltInDecides() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let (_, b) = try Self.map(shell, harness, "b.test")
        let (_, c) = try Self.map(shell, harness, "c.test")
        let watcher = try DelegatePeer(harness)
        #expect(watcher.request(["command": "events"])?.isOK == true)
        let delegate = try DelegatePeer(harness)
        #expect(Self.register(delegate, ["key"])?.isOK == true)
        let driver = try DelegatePeer(harness)
        let posted = Posted(harness)
        #expect(driver.request(["command": "hide", "window": JSONValue(Int(a.id.rawValue))])?.isOK == true)

        // Closing c: an unknown window as successor is refused, the built-in's (b) applies.
        #expect(driver.request(["command": "hide", "window": JSONValue(Int(c.id.rawValue))])?.isOK == true)
        let first = try #require(delegate.nextQuestion())
        #expect(first["kind"] == "successor")
        #expect(delegate.decide(first, ["window": 9999])?["applied"] == false)
        #expect(b.isKeyWindow)
        #expect(posted.fallbacks("invalid").count == 1)
        #expect(posted.becameKey(b)?.cause?.decidedBy == "uikit (invalid)")

        // b hidden: the hidden a as successor is refused; the built-in has none left.
        #expect(driver.request(["command": "hide", "window": JSONValue(Int(b.id.rawValue))])?.isOK == true)
        let second = try #require(delegate.nextQuestion())
        #expect(delegate.decide(second, ["window": JSONValue(Int(a.id.rawValue))])?["applied"] == false)
        #expect(!a.isKeyWindow)
        #expect(posted.fallbacks("invalid").count == 2)

        // A malformed answer: invalid_argument, and the built-in decides at once.
        #expect(driver.request(["command": "show", "window": JSONValue(Int(c.id.rawValue))])?.isOK == true)
        let map = try #require(delegate.nextQuestion())
        #expect(map["kind"] == "map")
        let malformed = try #require(delegate.decide(map, ["key": "yes"]))
        #expect(malformed.errorCode == "invalid_argument")
        #expect(malformed["error"]?["message"] == "\"key\" must be true or false")
        #expect(posted.fallbacks("invalid").count == 3)
        let notAnObject = try #require(delegate.decide(map, 42))
        #expect(notAnObject.errorCode == "failed")
        #expect(
            notAnObject["error"]?["message"]?.stringValue
                == "question \(map["question"]?.intValue ?? 0) was already decided by the built-in policy (invalid)")
        // The events say so.
        #expect(watcher.wait { watcher.events.filter { $0["name"] == "policyDidFallBack" }.count == 3 })
        let event = try #require(watcher.events.last { $0["name"] == "policyDidFallBack" })
        #expect(event["reason"] == "invalid")
        #expect(event["kind"] == "map")
        #expect(event["cause"] == "fallback")
        #expect(event["decided_by"] == "uikit (invalid)")
        #expect(harness.logged.contains { $0.hasPrefix("policy delegate: ") })
    }

    @Test func aSilentDelegateFallsBackAtTheDeadlineAndNothingElseWaits() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let (_, b) = try Self.map(shell, harness, "b.test")
        #expect(b.isKeyWindow)
        let delegate = try DelegatePeer(harness)
        #expect(Self.register(delegate, ["key"], deadline: 2000)?.isOK == true)
        let driver = try DelegatePeer(harness)
        let posted = Posted(harness)
        #expect(Self.click(a, by: driver)?.isOK == true)
        let question = try #require(delegate.nextQuestion())
        #expect(question["kind"] == "click")

        // A bystander control connection and a bystander Wayland client are answered meanwhile.
        let bystander = try DelegatePeer(harness)
        let windows = try #require(bystander.request(["command": "windows"]))
        #expect(windows.isOK)
        let bystanderClient = try TestClient(server: harness.server)
        #expect(bystanderClient.roundtrip())
        #expect(posted.fallbacks("deadline").isEmpty)
        #expect(b.isKeyWindow)

        // The deadline passes: the built-in (uikit: a click makes key) decides.
        #expect(delegate.wait(steps: 20_000) { !posted.fallbacks("deadline").isEmpty })
        #expect(a.isKeyWindow)
        #expect(posted.becameKey(a)?.cause?.kind == .fallback)
        #expect(posted.becameKey(a)?.cause?.decidedBy == "uikit (deadline)")
        let late = try #require(delegate.decide(question, ["key": false]))
        #expect(late.errorCode == "failed")
    }

    @Test func aDelegateThatHangsUpFallsBackAndANewOneMayRegister() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let (_, b) = try Self.map(shell, harness, "b.test")
        var delegate: DelegatePeer? = try DelegatePeer(harness)
        #expect(Self.register(try #require(delegate), ["key"])?.isOK == true)
        let other = try DelegatePeer(harness)
        let taken = try #require(Self.register(other, ["key"]))
        #expect(taken.errorCode == "failed")
        let driver = try DelegatePeer(harness)
        let posted = Posted(harness)
        #expect(Self.click(a, by: driver)?.isOK == true)
        #expect(delegate?.nextQuestion()?["kind"] == "click")
        #expect(b.isKeyWindow)
        delegate = nil
        #expect(driver.wait { !posted.fallbacks("disconnected").isEmpty })
        #expect(a.isKeyWindow)
        #expect(posted.becameKey(a)?.cause?.decidedBy == "uikit (disconnected)")
        #expect(driver.request(["command": "policy"])?["delegate"] == nil)
        // Later decisions are the built-in's.
        #expect(Self.click(b, by: driver)?.isOK == true)
        #expect(b.isKeyWindow)
        // A new delegate may register.
        let again = try #require(Self.register(other, ["key"]))
        #expect(again.isOK)
        #expect(Self.click(a, by: driver)?.isOK == true)
        #expect(other.nextQuestion()?["kind"] == "click")
    }

    @Test func underTheManualClockStrataWaitsAndHoldsOtherConnectionsBack() throws {
        let harness = try ControlHarness(clock: .manual)
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let (_, b) = try Self.map(shell, harness, "b.test")
        let delegate = try DelegatePeer(harness)
        let registered = try #require(Self.register(delegate, ["key"]))
        #expect(registered["clock"] == "manual")
        let driver = try DelegatePeer(harness)
        let posted = Posted(harness)
        #expect(Self.click(a, by: driver)?.isOK == true)
        let question = try #require(delegate.nextQuestion())
        #expect(question["deadline_ms"] == nil)
        // However long: no fallback, and the driver's next command waits.
        let held = driver.send(["command": "windows"])
        #expect(!driver.wait(steps: 300) { driver.replies[held] != nil })
        #expect(posted.fallbacks("deadline").isEmpty)
        #expect(b.isKeyWindow)
        #expect(delegate.decide(question, ["key": true])?["applied"] == true)
        let windows = try #require(driver.reply(to: held))
        let list = try #require(try windows["windows"]?.decode([WindowInfo].self))
        #expect(list.first { $0.key }?.id == a.id.rawValue)
    }

    @Test func answersOutOfOrderAreAppliedInQuestionOrder() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let (_, b) = try Self.map(shell, harness, "b.test")
        let (_, c) = try Self.map(shell, harness, "c.test")
        let delegate = try DelegatePeer(harness)
        #expect(Self.register(delegate, ["key"])?.isOK == true)
        let driver = try DelegatePeer(harness)
        let posted = Posted(harness)
        #expect(Self.click(a, by: driver)?.isOK == true)
        let first = try #require(delegate.nextQuestion())
        #expect(Self.click(b, by: driver)?.isOK == true)
        let second = try #require(delegate.nextQuestion())
        let later = delegate.send(["command": "decide", "question": second["question"]!, "answer": ["key": true]])
        #expect(!delegate.wait(steps: 50) { delegate.replies[later] != nil })
        #expect(c.isKeyWindow)
        #expect(delegate.decide(first, ["key": true])?["applied"] == true)
        #expect(delegate.reply(to: later)?["applied"] == true)
        #expect(b.isKeyWindow)
        let keys = posted.all.compactMap { p -> WindowID? in
            if case .windowDidBecomeKey(let id) = p.notification { return id }
            return nil
        }
        #expect(keys == [a.id, b.id])
    }

    @Test func aFloodOfClicksWithASilentDelegateKeepsSixtyFourQuestions() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let delegate = try DelegatePeer(harness)
        #expect(Self.register(delegate, ["key"])?.isOK == true)
        let posted = Posted(harness)
        let seat = try #require(harness.server.compositor.seat)
        let screen = try #require(a.screen)
        let output = try #require(harness.server.compositor.scene.output(for: screen.id))
        seat.pointerMotion(on: output, x: Double(a.frame.x + 3), y: Double(a.frame.y + 3), time: 1)
        let before = harness.server.compositor.policyDelegation.outstandingCount
        for index in 0..<10_000 {
            seat.pointerButton(0x110, pressed: true, time: UInt32(2 + index))
            seat.pointerButton(0x110, pressed: false, time: UInt32(2 + index))
        }
        let delegation = harness.server.compositor.policyDelegation
        #expect(delegation.outstandingCount == PolicyDelegation.maximumOutstanding)
        #expect(posted.fallbacks("busy").count == 10_000 - (PolicyDelegation.maximumOutstanding - before))
        #expect(delegate.wait { delegate.questions.count == PolicyDelegation.maximumOutstanding })
        #expect(!delegate.wait(steps: 20) { delegate.questions.count > PolicyDelegation.maximumOutstanding })
    }

    @Test func tenThousandBogusDecideRequestsAreRefused() throws {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let (_, a) = try Self.map(shell, harness, "a.test")
        let delegate = try DelegatePeer(harness)
        #expect(Self.register(delegate, ["key"])?.isOK == true)
        var text = ""
        for index in 0..<10_000 {
            switch index % 4 {
            case 0:
                text += "{\"command\":\"decide\",\"id\":\(index),\"question\":\(index + 1),\"answer\":{\"key\":true}}\n"
            case 1: text += "{\"command\":\"decide\",\"id\":\(index),\"question\":-3,\"answer\":\"builtin\"}\n"
            case 2: text += "{\"command\":\"decide\",\"id\":\(index),\"question\":\"x\",\"answer\":[1,2]}\n"
            default: text += "{\"command\":\"decide\",\"id\":\(index),\"answer\":null}\n"
            }
        }
        delegate.raw.send(text)
        #expect(delegate.wait(steps: 40_000) { delegate.replies.count == 10_000 })
        #expect(delegate.replies.values.allSatisfy { $0["ok"] == false })
        delegate.replies.removeAll()
        // The delegate still works.
        let driver = try DelegatePeer(harness)
        #expect(Self.click(a, by: driver)?.isOK == true)
        let question = try #require(delegate.nextQuestion())
        #expect(question["kind"] == "click")
        #expect(delegate.decide(question, "builtin")?["applied"] == true)
    }
}
