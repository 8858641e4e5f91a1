import StrataAccessibility
import Testing

/// The walk's bounds against trees a hostile client could publish, without a bus: a node that
/// counts every fetch of a child, so the tests see the calls a walk would make over AT-SPI.
struct AccessibleWalkTests {
    /// A node of a made-up tree: `depth` below the root, `index` among its siblings; the tree's
    /// shape comes from `children(depth)`, and a fetch may fail (`answers`).
    struct Node: AccessibleTreeNode {
        final class Calls { var fetches = 0 }
        let depth: Int
        let index: Int
        let shape: (Int) -> Int
        let answers: Bool
        let calls: Calls

        static func root(answers: Bool = true, _ shape: @escaping (Int) -> Int) -> Node {
            Node(depth: 0, index: 0, shape: shape, answers: answers, calls: Calls())
        }

        var childCount: Int { shape(depth) }

        func child(at index: Int) -> Node? {
            calls.fetches += 1
            guard answers, index >= 0, index < childCount else { return nil }
            return Node(depth: depth + 1, index: index, shape: shape, answers: answers, calls: calls)
        }
    }

    @Test func aSmallTreeIsWalkedWholeInTheToolkitsOrderWithPaths() {
        // Two children under the root, the first with two of its own.
        let root = Node.root { depth in depth == 0 ? 2 : 0 }
        var paths: [[Int]] = []
        let complete = AccessibleWalk().walk(from: root) { step in
            paths.append(step.path)
            return true
        }
        #expect(complete)
        #expect(paths == [[], [0], [1]])
        let deeper = Node.root { depth in depth < 2 ? 2 : 0 }
        paths = []
        AccessibleWalk().walk(from: deeper) { step in
            paths.append(step.path)
            return true
        }
        #expect(paths == [[], [0], [0, 0], [0, 1], [1], [1, 0], [1, 1]])
    }

    @Test func aTwoHundredThousandDeepChainStopsAtTheDepthBound() {
        let root = Node.root { depth in depth < 200_000 ? 1 : 0 }
        var deepest = 0, visits = 0
        let complete = AccessibleWalk().walk(from: root) { step in
            visits += 1
            deepest = max(deepest, step.depth)
            return true
        }
        #expect(!complete)
        #expect(deepest == 64)
        #expect(visits == 65)
        #expect(root.calls.fetches == 64)
    }

    /// Every node claims a million children: the walk fetches at most its node bound, not a
    /// million per node it enters.
    @Test func aTreeOfMillionWideNodesCostsAtMostTheNodeBoundInCalls() {
        let root = Node.root { _ in 1_000_000 }
        var walk = AccessibleWalk()
        walk.maximumNodes = 5_000
        var visits = 0
        let complete = walk.walk(from: root) { _ in
            visits += 1
            return true
        }
        #expect(!complete)
        #expect(visits == 5_000)
        #expect(root.calls.fetches == 4_999)
    }

    /// A client that claims children and then answers no fetch: each failed call still counts.
    @Test func childrenThatNeverAnswerCountAgainstTheBound() {
        let root = Node.root(answers: false) { _ in Int(Int32.max) }
        var visits = 0
        let complete = AccessibleWalk().walk(from: root) { _ in
            visits += 1
            return true
        }
        #expect(!complete)
        #expect(visits == 1)
        #expect(root.calls.fetches == 19_999)
    }

    /// `stop` (the search's deadline) is asked before each fetch: a slow client costs the
    /// calls made before it, no more.
    @Test func stopEndsTheWalkBeforeTheNextFetch() {
        let root = Node.root { _ in 1_000 }
        var visits = 0
        let complete = AccessibleWalk().walk(from: root, stop: { root.calls.fetches >= 10 }) { _ in
            visits += 1
            return true
        }
        #expect(!complete)
        #expect(root.calls.fetches == 10)
        #expect(visits == 11)
    }

    @Test func skippingANodeSkipsItsChildren() {
        let root = Node.root { depth in depth < 3 ? 3 : 0 }
        var visits = 0
        let complete = AccessibleWalk().walk(from: root) { step in
            visits += 1
            return step.depth == 0
        }
        #expect(complete)
        #expect(visits == 4)
        #expect(root.calls.fetches == 3)
    }

    @Test func aPathPastTheDepthBoundOrOutsideTheTreeFindsNothing() {
        let root = Node.root { depth in depth < 200 ? 2 : 0 }
        let walk = AccessibleWalk()
        #expect(walk.node(at: [1, 0, 1], from: root)?.depth == 3)
        #expect(walk.node(at: [1, 0, 1], from: root)?.index == 1)
        #expect(walk.node(at: Array(repeating: 0, count: 65), from: root) == nil)
        #expect(walk.node(at: [2], from: root) == nil)
        #expect(walk.node(at: [-1], from: root) == nil)
        #expect(walk.node(at: [Int.max], from: root) == nil)
    }
}
