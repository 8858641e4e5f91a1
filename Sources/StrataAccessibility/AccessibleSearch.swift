import Glibc

/// One accessible object a search found, with what a locator prints of it.
public struct AccessibleMatch {
    public let node: AccessibleNode
    public let role: String
    public let name: String
    public let states: [String]
    public let actions: [String]
    /// Its rectangle in its toplevel's surface coordinates, as the toolkit reports it (nil: no
    /// place on screen).
    public let surfaceRect: AccessibleRect?
    /// The client's process and application name.
    public let processID: Int32
    public let application: String
    /// Its application's toolkit ("GTK", "Qt"), as AT-SPI names it.
    public let toolkit: String
    /// The name (title) of the toplevel it is in, and that toplevel's index in its application.
    public let toplevelName: String
    public let toplevelIndex: Int
    /// The toplevel's own rectangle as the toolkit reports it: its size says which origin the
    /// toolkit's numbers have (`Locator`: the window's frame, or its surface with client-side
    /// shadows, as GTK 3 counts).
    public let toplevelRect: AccessibleRect?
    /// Where it is: the toplevel's index in its application, then the child indices down to it
    /// (`0.3.1`); a locator's `--path` names it again while the tree stays as it is.
    public let path: [Int]

    /// Whether the toolkit says it is on screen (`showing` and `visible`).
    public var isShowing: Bool { states.contains("showing") && states.contains("visible") }
}

/// Searches the applications of an `AccessibleDesktop` for the objects a query names, bounded:
/// at most `walk`'s nodes per toplevel, at most `limit` matches.
public struct AccessibleSearch {
    public var walk = AccessibleWalk()
    public var limit = 200
    /// How long one search may take, in seconds: a client that answers each call just before
    /// its timeout cannot make a walk of 20,000 calls last hours. Past it the search stops
    /// (`truncated`).
    public var maximumSeconds = 10.0

    public init() {}

    /// The result: the matches, and whether a bound cut the search short.
    public struct Result {
        public var matches: [AccessibleMatch] = []
        public var truncated = false
    }

    /// The objects matching `query` under the toplevels `toplevel` accepts (given the process,
    /// the toplevel's name and its index in its application); with `path`, only the object at
    /// that path (a toplevel's index, then child indices), when it matches.
    public func run(
        _ query: AccessibleQuery, on desktop: AccessibleDesktop, path: [Int]? = nil,
        toplevel: (_ processID: Int32, _ name: String, _ index: Int) -> Bool
    ) -> Result {
        var result = Result()
        let deadline = Self.now() + maximumSeconds
        for app in desktop.applications() {
            guard Self.now() < deadline else {
                result.truncated = true
                return result
            }
            let pid = app.processID, appName = app.name, toolkit = app.toolkitName
            let count = min(app.childCount, 64)
            for index in 0..<count {
                if let path, path.first != index { continue }
                guard let top = app.child(at: index) else { continue }
                let topName = top.name
                guard toplevel(pid, topName, index) else { continue }
                let topRect = top.windowExtents
                if let path {
                    guard let node = walk.node(at: Array(path.dropFirst()), from: top) else { continue }
                    let role = node.role, name = node.name
                    guard query.matches(role: role, name: name, text: { node.text() }) else { continue }
                    result.matches.append(
                        AccessibleMatch(
                            node: node, role: role, name: name, states: node.states, actions: node.actions,
                            surfaceRect: node.windowExtents, processID: pid, application: appName, toolkit: toolkit,
                            toplevelName: topName, toplevelIndex: index, toplevelRect: topRect, path: path))
                    continue
                }
                var late = false
                let stop = { () -> Bool in
                    late = late || Self.now() >= deadline
                    return late
                }
                let complete = walk.walk(from: top, stop: stop) { step in
                    guard result.matches.count < limit, !stop() else { return false }
                    let node = step.node
                    let role = node.role, name = node.name
                    if query.matches(role: role, name: name, text: { node.text() }) {
                        result.matches.append(
                            AccessibleMatch(
                                node: node, role: role, name: name, states: node.states, actions: node.actions,
                                surfaceRect: node.windowExtents, processID: pid, application: appName, toolkit: toolkit,
                                toplevelName: topName, toplevelIndex: index, toplevelRect: topRect,
                                path: [index] + step.path))
                    }
                    return true
                }
                if !complete || late || result.matches.count >= limit { result.truncated = true }
                if result.matches.count >= limit { return result }
            }
        }
        return result
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
