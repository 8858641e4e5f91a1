/// What a walk needs of a tree's node: its children, by index. `AccessibleNode` is one (a
/// client's object over AT-SPI); tests walk trees of their own.
public protocol AccessibleTreeNode {
    var childCount: Int { get }
    func child(at index: Int) -> Self?
}

/// A bounded walk of a client's accessible tree, depth first, in the toolkit's order, without
/// recursion: a client's tree is untrusted (it may be 200,000 deep, or wide, or change while it
/// is read), so the walk stops at `maximumNodes` nodes and does not go below `maximumDepth`.
public struct AccessibleWalk {
    public var maximumNodes = 20_000
    public var maximumDepth = 64

    public init() {}

    /// One node reached: the node, and its path from the start (the child indices, empty for
    /// the start itself; its count is the depth).
    public struct Step<Node: AccessibleTreeNode> {
        public let node: Node
        public let path: [Int]
        public var depth: Int { path.count }
    }

    /// Calls `visit` for each node under `start` (the start included); `visit` returns false to
    /// skip a node's children. Returns whether the whole tree was walked (false: a bound cut it,
    /// or `stop` said so). Children are fetched one at a time, as the walk reaches them, and each
    /// fetch counts against `maximumNodes`, answered or not: a node that claims a million
    /// children costs at most `maximumNodes` calls. `stop` is asked before each fetch (a
    /// deadline: a client may take its time over each call).
    @discardableResult
    public func walk<Node: AccessibleTreeNode>(
        from start: Node, stop: () -> Bool = { false }, _ visit: (Step<Node>) -> Bool
    ) -> Bool {
        guard maximumNodes > 0 else { return false }
        var complete = true
        var count = 1
        // The nodes whose children are being walked, each with the next child to fetch.
        var stack: [(node: Node, path: [Int], next: Int, children: Int)] = []
        func enter(_ node: Node, _ path: [Int]) {
            guard visit(Step(node: node, path: path)) else { return }
            let children = node.childCount
            guard children > 0 else { return }
            guard path.count < maximumDepth else {
                complete = false
                return
            }
            stack.append((node, path, 0, children))
        }
        enter(start, [])
        while let top = stack.last {
            guard top.next < top.children else {
                stack.removeLast()
                continue
            }
            guard count < maximumNodes, !stop() else { return false }
            stack[stack.count - 1].next += 1
            count += 1
            guard let child = top.node.child(at: top.next) else { continue }
            enter(child, top.path + [top.next])
        }
        return complete
    }

    /// The node at `path` under `start` (child indices), or nil when the tree has no such node
    /// now; at most `maximumDepth` steps.
    public func node<Node: AccessibleTreeNode>(at path: [Int], from start: Node) -> Node? {
        guard path.count <= maximumDepth else { return nil }
        var node = start
        for index in path {
            guard index >= 0, index < node.childCount, let child = node.child(at: index) else { return nil }
            node = child
        }
        return node
    }
}
