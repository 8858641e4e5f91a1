/// A bounded walk of a client's accessible tree, depth first, in the toolkit's order, without
/// recursion: a client's tree is untrusted (it may be 200,000 deep, or wide, or change while it
/// is read), so the walk stops at `maximumNodes` nodes and does not go below `maximumDepth`.
public struct AccessibleWalk {
    public var maximumNodes = 20_000
    public var maximumDepth = 64

    public init() {}

    /// One node reached: the node, and its path from the start (the child indices, empty for
    /// the start itself; its count is the depth).
    public struct Step {
        public let node: AccessibleNode
        public let path: [Int]
        public var depth: Int { path.count }
    }

    /// Calls `visit` for each node under `start` (the start included); `visit` returns false to
    /// skip a node's children. Returns whether the whole tree was walked (false: a bound cut it).
    @discardableResult
    public func walk(from start: AccessibleNode, _ visit: (Step) -> Bool) -> Bool {
        var stack: [(AccessibleNode, [Int])] = [(start, [])]
        var count = 0
        var complete = true
        while let (node, path) = stack.popLast() {
            guard count < maximumNodes else { return false }
            count += 1
            guard visit(Step(node: node, path: path)) else { continue }
            let children = node.childCount
            guard children > 0 else { continue }
            guard path.count < maximumDepth else {
                complete = false
                continue
            }
            // Pushed last to first, so the first child is visited next.
            let bounded = min(children, maximumNodes - count)
            if bounded < children { complete = false }
            for index in stride(from: bounded - 1, through: 0, by: -1) {
                if let child = node.child(at: index) { stack.append((child, path + [index])) }
            }
        }
        return complete
    }

    /// The node at `path` under `start` (child indices), or nil when the tree has no such node
    /// now; at most `maximumDepth` steps.
    public func node(at path: [Int], from start: AccessibleNode) -> AccessibleNode? {
        guard path.count <= maximumDepth else { return nil }
        var node = start
        for index in path {
            guard index >= 0, index < node.childCount, let child = node.child(at: index) else { return nil }
            node = child
        }
        return node
    }
}
