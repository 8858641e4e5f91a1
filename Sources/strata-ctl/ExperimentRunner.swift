import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel

/// Runs an experiment file (docs/control.md, "Experiments"): one strata-ctl command per line,
/// plus `expect …`, `wait-window`, `wait-delegate` and `sleep`. Stops at the first failure with
/// `FILE:LINE: message`.
///
/// Expectations wait: each is checked again every 50 ms until it holds or `timeout` seconds
/// passed (clients answer asynchronously: a `close` is done when the client has destroyed its
/// window). `expect event` searches the events after the one the previous `expect event`
/// matched (at first: after the file started), so a run of them checks their order.
final class ExperimentRunner {
    let client: ControlClient
    let fileName: String
    var timeout: Double
    var verbose: Bool
    private var eventCursor: UInt64 = 0
    /// Every window seen so far (as last seen) and screen names, so a closed window or a removed
    /// screen can still be named in `expect event` and `expect closed`.
    private var knownWindows: [UInt64: WindowInfo] = [:]
    private var knownScreens: [String: UInt64] = [:]
    private(set) var commandsRun = 0
    private(set) var expectationsMet = 0

    struct LineFailure: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    private struct Mismatch: Error, CustomStringConvertible {
        var message: String
        init(_ message: String) { self.message = message }
        var description: String { message }
    }

    init(client: ControlClient, fileName: String, timeout: Double, verbose: Bool) {
        self.client = client
        self.fileName = fileName
        self.timeout = timeout
        self.verbose = verbose
    }

    func run(_ text: String) throws(LineFailure) {
        do {
            eventCursor = UInt64(try client.call("hello")["sequence"]?.intValue ?? 0)
        } catch {
            throw LineFailure(line: 0, message: "cannot talk to Strata: \(Output.words(for: error))")
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let words: [String]
            do {
                words = try ShellWords.split(String(line))
            } catch {
                throw LineFailure(line: number, message: "syntax: \(error.description)")
            }
            guard let first = words.first else { continue }
            if verbose { Output.printError("\(fileName):\(number): \(words.joined(separator: " "))") }
            do {
                switch first {
                case "expect": try expect(Array(words.dropFirst()))
                case "wait-window": try waitWindow(Array(words.dropFirst()))
                case "wait-delegate": try waitDelegate(Array(words.dropFirst()))
                case "sleep": try sleep(Array(words.dropFirst()))
                default: try command(words)
                }
            } catch let mismatch as Mismatch {
                throw LineFailure(line: number, message: mismatch.message)
            } catch let error as ControlError {
                throw LineFailure(line: number, message: "\(words.joined(separator: " ")): \(error.description)")
            } catch let failure as ControlClient.Failure {
                throw LineFailure(line: number, message: failure.description)
            } catch {
                throw LineFailure(line: number, message: "\(words.joined(separator: " ")): \(Output.words(for: error))")
            }
        }
    }

    // MARK: Commands

    private func command(_ words: [String]) throws {
        let names = StrataCtl.configuration.subcommands.map { $0._commandName }
        guard names.contains(words[0]) else {
            throw Mismatch(
                "unknown command \(words[0]): use a strata-ctl command (\(names.joined(separator: ", "))), expect, wait-window, wait-delegate or sleep"
            )
        }
        let parsed: ParsableCommand
        do {
            parsed = try StrataCtl.parseAsRoot(words)
        } catch {
            throw Mismatch(
                "not a strata-ctl command: \(words.joined(separator: " ")) (\(StrataCtl.message(for: error)))")
        }
        if let compare = parsed as? CompareCommand {
            // Runs here, on the files; a difference beyond the tolerance fails the line.
            do {
                try compare.run()
            } catch let exit as ExitCode {
                throw Mismatch(
                    exit.rawValue == 1
                        ? "compare: the pictures differ beyond the tolerance"
                        : "compare: bad input (see the message above)")
            }
            commandsRun += 1
            return
        }
        if let step = parsed as? StepCommand, let frames = step.settle {
            _ = try step.stepSettling(frames, client: client)
            commandsRun += 1
            return
        }
        guard let request = parsed as? any RequestCommand else {
            throw Mismatch("\(words[0]) cannot be used in an experiment")
        }
        let (name, arguments) = try request.makeRequest()
        // A reply that may take long (settle) gets its time.
        let usualTimeout = client.timeout
        if let replyTimeout = request.replyTimeout { client.timeout = max(usualTimeout, replyTimeout) }
        defer { client.timeout = usualTimeout }
        let reply = try client.call(name, arguments)
        commandsRun += 1
        if let golden = request as? CompareScreenshotCommand, reply["match"]?.boolValue == false {
            // As a compare line: a picture beyond the tolerance fails the line.
            throw Mismatch("compare-screenshot: " + (golden.render(reply) ?? "the picture differs from its baseline"))
        }
        if let list = try? reply["windows"]?.decode([WindowInfo].self) { remember(list) }
        if let screen = try? reply["screen"]?.decode(ScreenInfo.self) { knownScreens[screen.name] = screen.id }
    }

    private func sleep(_ words: [String]) throws {
        guard words.count == 1, let seconds = Double(words[0]), seconds >= 0, seconds <= 600 else {
            throw Mismatch("sleep takes a number of seconds (0...600)")
        }
        usleep(UInt32(seconds * 1_000_000))
    }

    /// `wait-window WINDOW [SECONDS]`: until a visible window answers to WINDOW (an id,
    /// `title:`, `pid:` or an app id in any case: `WindowSelector`).
    private func waitWindow(_ words: [String]) throws {
        guard words.count == 1 || words.count == 2 else {
            throw Mismatch(
                "wait-window takes a window (an app id, title:TEXT, pid:N or an id) and optionally a timeout in seconds"
            )
        }
        let selector = try WindowSelector(words[0])
        var limit = max(timeout, 10)
        if words.count == 2 {
            guard let seconds = Double(words[1]), seconds > 0 else {
                throw Mismatch("wait-window's timeout is a number of seconds")
            }
            limit = seconds
        }
        try eventually(limit: limit) {
            let list = try windows()
            if list.contains(where: { selector.matches($0) && !$0.hidden }) { return nil }
            return
                "no visible window with \(selector) appeared within \(Self.seconds(limit)); windows: \(Self.describe(list))"
        }
    }

    /// `wait-delegate [SECONDS]`: until a policy delegate is registered (the `policy` reply has a
    /// `delegate`; a registration posts no event, so this asks every 50 ms).
    private func waitDelegate(_ words: [String]) throws {
        var limit = max(timeout, 10)
        if let word = words.first {
            guard words.count == 1, let seconds = Double(word), seconds > 0 else {
                throw Mismatch("wait-delegate takes an optional timeout in seconds")
            }
            limit = seconds
        }
        try eventually(limit: limit) {
            if try client.call("policy")["delegate"]?.objectValue != nil { return nil }
            return "no policy delegate registered within \(Self.seconds(limit)) (did its process start? "
                + "its messages are in Strata's log)"
        }
    }

    // MARK: Expectations

    private func expect(_ words: [String]) throws {
        guard let kind = words.first else {
            throw Mismatch(
                "expect needs what to expect: key, stacking, event, hidden, visible, screen, level, closed, point")
        }
        let arguments = Array(words.dropFirst())
        func need(_ count: Int, _ usage: String) throws {
            guard arguments.count == count else { throw Mismatch("usage: expect \(kind) \(usage)") }
        }
        switch kind {
        case "key":
            try need(1, "WINDOW|none")
            try expectKey(arguments[0])
        case "stacking":
            guard arguments.count >= 2 else { throw Mismatch("usage: expect stacking WINDOW WINDOW… (front to back)") }
            try expectStacking(arguments)
        case "event":
            guard arguments.count == 1 || arguments.count == 2 else {
                throw Mismatch("usage: expect event NAME [WINDOW|SCREEN]")
            }
            try expectEvent(arguments[0], arguments.count == 2 ? arguments[1] : nil)
        case "hidden", "visible":
            try need(1, "WINDOW")
            let wantHidden = kind == "hidden"
            try eventually {
                let list = try windows()
                let window = try resolve(arguments[0], in: list)
                guard let info = list.first(where: { $0.id == window }) else {
                    return "window \(window) is closed, not \(kind)"
                }
                return info.hidden == wantHidden
                    ? nil
                    : "expected window \(Self.name(info)) to be \(kind), but it is \(info.hidden ? "hidden" : "visible")"
            }
        case "screen":
            try need(2, "WINDOW SCREEN")
            try eventually {
                let list = try windows()
                let window = try resolve(arguments[0], in: list)
                let screen = try resolveScreen(arguments[1])
                guard let info = list.first(where: { $0.id == window }) else { return "window \(window) is closed" }
                if info.screen == screen { return nil }
                return
                    "expected window \(Self.name(info)) on screen \(screen) (\(arguments[1])), but it is on \(info.screen.map { "screen \($0)" } ?? "no screen")"
            }
        case "level":
            try need(2, "WINDOW LEVEL")
            try eventually {
                let list = try windows()
                let window = try resolve(arguments[0], in: list)
                guard let info = list.first(where: { $0.id == window }) else { return "window \(window) is closed" }
                return info.level == arguments[1]
                    ? nil : "expected window \(Self.name(info)) at level \(arguments[1]), but it is at \(info.level)"
            }
        case "point":
            guard arguments.count >= 3 else {
                throw Mismatch(
                    "usage: expect point WINDOW X,Y[,WxH] [--to W | --to-screen S | --from W | --from-screen S] RESULT")
            }
            try expectPoint(arguments)
        case "closed":
            try need(1, "WINDOW")
            try eventually {
                let list = try windows()
                let window = try resolve(arguments[0], in: list)
                guard let info = list.first(where: { $0.id == window }) else { return nil }
                return "expected window \(Self.name(info)) to be closed, but it is open"
            }
        default:
            throw Mismatch(
                "unknown expectation \"\(kind)\": use key, stacking, event, hidden, visible, screen, level, closed or point"
            )
        }
        expectationsMet += 1
    }

    /// `expect point WINDOW X,Y[,WxH] [OPTION TARGET] RESULT`: `strata-ctl convert` with the
    /// words before RESULT gives RESULT (compared as numbers: `10,20` equals `10.0,20`). The
    /// model converts at once; no waiting.
    private func expectPoint(_ arguments: [String]) throws {
        guard let expected = ConvertOperand(arguments[arguments.count - 1]) else {
            throw Mismatch("expect point's result \(arguments[arguments.count - 1]): \(ConvertOperand.requirement)")
        }
        let words = ["convert"] + arguments.dropLast()
        let parsed: ParsableCommand
        do {
            parsed = try StrataCtl.parseAsRoot(words)
        } catch {
            throw Mismatch("expect point: \(StrataCtl.message(for: error))")
        }
        guard let request = parsed as? ConvertCommand else { throw Mismatch("expect point: not a convert") }
        let (name, fields) = try request.makeRequest()
        let reply = try client.call(name, fields)
        let text = reply["text"]?.stringValue ?? "?"
        guard let actual = ConvertOperand(text), actual == expected else {
            throw Mismatch(
                "expected \(words.joined(separator: " ")) to give \(arguments[arguments.count - 1]), but it gives \(text)"
            )
        }
    }

    private func expectKey(_ reference: String) throws {
        try eventually {
            let list = try windows()
            let key = list.first(where: \.key)
            if reference == "none" {
                return key.map { "expected no key window, but window \(Self.name($0)) is key" }
            }
            let wanted = try resolve(reference, in: list)
            if key?.id == wanted { return nil }
            let wantedName = list.first { $0.id == wanted }.map(Self.name) ?? "\(wanted) (closed)"
            return
                "expected window \(wantedName) to be key, but \(key.map { "window \(Self.name($0)) is key" } ?? "no window is key")"
        }
    }

    private func expectStacking(_ references: [String]) throws {
        try eventually {
            let list = try windows()
            var positions: [(String, Int)] = []
            for reference in references {
                let id = try resolve(reference, in: list)
                guard let info = list.first(where: { $0.id == id }) else {
                    return "window \(reference) (\(id)) is closed"
                }
                positions.append((Self.name(info), info.order))
            }
            if zip(positions, positions.dropFirst()).allSatisfy({ $0.1 < $1.1 }) { return nil }
            let actual = positions.sorted { $0.1 < $1.1 }.map(\.0).joined(separator: ", ")
            return
                "expected front to back: \(positions.map(\.0).joined(separator: ", ")); actual: \(actual) (whole stack, front to back: \(Self.describe(list)))"
        }
    }

    private func expectEvent(_ name: String, _ reference: String?) throws {
        guard WindowServerNotification.allNames.contains(name) else {
            throw Mismatch("\(name) is not an event name (docs/control.md, \"Events\": e.g. windowDidBecomeKey)")
        }
        let isWindowEvent = !name.hasPrefix("screen")
        let start = eventCursor
        try eventually {
            var subject: UInt64?
            if let reference {
                subject = isWindowEvent ? try resolve(reference, in: try windows()) : try resolveScreen(reference)
            }
            let reply = try client.call("events", ["since": JSONValue(start), "follow": false])
            if reply["truncated"]?.boolValue == true {
                throw Mismatch(
                    "more than \(ControlProtocol.eventHistory) events happened since #\(start): the ones to search are lost"
                )
            }
            let events = reply["events"]?.arrayValue ?? []
            let key = isWindowEvent ? "window" : "screen"
            if let match = events.first(where: { event in
                event["name"]?.stringValue == name
                    && (subject == nil || event[key]?.intValue.map(UInt64.init) == subject)
            }), let sequence = match["sequence"]?.intValue {
                eventCursor = UInt64(sequence)
                return nil
            }
            let seen = events.map { EventsCommand.text(for: $0) }.joined(separator: "; ")
            let what = subject.map { " for \(key) \($0)" } ?? ""
            return "no \(name) event\(what) after #\(start); events since: \(seen.isEmpty ? "none" : seen)"
        }
    }

    // MARK: Helpers

    /// Calls `check` until it returns nil (met) or the time is up; then fails with its last
    /// answer.
    private func eventually(limit: Double? = nil, _ check: () throws -> String?) throws {
        let deadline = ControlClient.now() + (limit ?? timeout)
        while true {
            guard let mismatch = try check() else { return }
            if ControlClient.now() >= deadline { throw Mismatch(mismatch) }
            usleep(50_000)
        }
    }

    private func windows() throws -> [WindowInfo] {
        let list = try client.call("windows")["windows"]?.decode([WindowInfo].self) ?? []
        remember(list)
        return list
    }

    private func remember(_ list: [WindowInfo]) {
        for window in list { knownWindows[window.id] = window }
    }

    /// A window id from a window's name (`WindowSelector`, as the server reads it): an open
    /// window first, else a closed one seen earlier.
    private func resolve(_ reference: String, in list: [WindowInfo]) throws -> UInt64 {
        let selector = try WindowSelector(reference)
        if case .id(let id) = selector { return id }
        if !selector.matching(list).isEmpty { return try selector.resolve(in: list).id }
        let open = Set(list.map(\.id))
        let closed = knownWindows.values.filter { !open.contains($0.id) }
        if !selector.matching(closed).isEmpty { return try selector.resolve(in: closed).id }
        do {
            _ = try selector.resolve(in: list)
        } catch {
            throw Mismatch("\(error.message) (wait-window \(reference) first?)")
        }
        throw Mismatch("no window has \(selector)")
    }

    private func resolveScreen(_ reference: String) throws -> UInt64 {
        if let id = UInt64(reference) { return id }
        let list = try client.call("screens")["screens"]?.decode([ScreenInfo].self) ?? []
        for screen in list { knownScreens[screen.name] = screen.id }
        if let id = knownScreens[reference] { return id }
        throw Mismatch("no screen is called \(reference)")
    }

    static func name(_ window: WindowInfo) -> String {
        window.appID.isEmpty ? "\(window.id)" : "\(window.id) (\(window.appID))"
    }

    static func describe(_ list: [WindowInfo]) -> String {
        list.isEmpty
            ? "none"
            : list.map { name($0) + ($0.hidden ? " hidden" : "") + ($0.key ? " key" : "") }.joined(separator: ", ")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// `strata-ctl run FILE`: runs an experiment.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an experiment file: strata-ctl commands, expect lines, wait-window, wait-delegate.",
        discussion: "Exits 0 when every line passed, 1 at the first failure (FILE:LINE: expected … actual …).")
    @OptionGroup var options: ConnectionOptions
    @Option(help: ArgumentHelp("Seconds an expect line waits for its condition.", valueName: "seconds"))
    var expectTimeout = 5.0
    @Flag(help: "Print each line before running it.") var verbose = false
    @Argument(help: "The experiment file (- reads standard input).") var file: String

    func run() throws {
        // An experiment is a few hundred lines; past `limit` bytes it is no experiment.
        let limit = 16 << 20
        let bytes: [UInt8]
        if file == "-" {
            bytes = FileContents.bytes(fd: STDIN_FILENO, limit: limit + 1)
        } else {
            guard let contents = FileContents.bytes(file, limit: limit + 1) else {
                Output.printError("strata-ctl: error: cannot read \(file): \(String(cString: strerror(errno)))")
                throw ExitCode(1)
            }
            bytes = contents
        }
        guard bytes.count <= limit else {
            Output.printError("strata-ctl: error: \(file) is larger than \(limit >> 20) MiB: not an experiment file")
            throw ExitCode(1)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        try Output.guarded {
            let runner = ExperimentRunner(
                client: try options.connect(), fileName: file, timeout: expectTimeout, verbose: verbose)
            do throws(ExperimentRunner.LineFailure) {
                try runner.run(text)
            } catch {
                Output.printError("\(file):\(error.line): \(error.message)")
                throw ExitCode(1)
            }
            print("\(file): passed (\(runner.commandsRun) commands, \(runner.expectationsMet) expectations)")
        }
    }
}
