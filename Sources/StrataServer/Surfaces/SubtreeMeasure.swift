/// How deep and how big the tree below one node is, kept up to date as subtrees join and leave,
/// so a depth or size limit is checked without walking the subtree. The node keeps how many of
/// its children have each height, so a child that leaves lowers the height in time bounded by
/// the depth limit, not the number of children.
struct SubtreeMeasure {
    /// Levels below the node (0: no children).
    private(set) var height = 0
    /// Nodes below the node, all levels.
    private(set) var descendants = 0
    /// `childHeights[h]`: how many children have height `h`.
    private var childHeights: [Int32] = []

    /// A child of height `removed` left and/or one of height `added` joined; `delta` nodes more
    /// (or fewer) are below.
    mutating func update(removing removed: Int?, adding added: Int?, descendantsDelta delta: Int) {
        descendants += delta
        if removed == added { return }
        if let added {
            if childHeights.count <= added {
                childHeights += Array(repeating: 0, count: added + 1 - childHeights.count)
            }
            childHeights[added] += 1
            height = max(height, added + 1)
        }
        if let removed, removed < childHeights.count, childHeights[removed] > 0 {
            childHeights[removed] -= 1
            if childHeights[removed] == 0, removed + 1 == height {
                var h = removed - 1
                while h >= 0, childHeights[h] == 0 { h -= 1 }
                height = h + 1
            }
        }
    }
}

/// A node of a tree whose `SubtreeMeasure` is kept (subsurface trees, transient toplevels).
protocol MeasuredTreeNode: AnyObject {
    var subtreeMeasure: SubtreeMeasure { get set }
    /// The node above (nil: a root), if it still counts this node.
    var measuredParent: Self? { get }
}

extension MeasuredTreeNode {
    /// Tells this node and its ancestors that `child`'s subtree joined (or left) below this
    /// node. The walk up is bounded by the tree's depth limit.
    func childSubtree(_ child: Self, joins: Bool) {
        let measure = child.subtreeMeasure
        let size = measure.descendants + 1
        var removed: Int? = joins ? nil : measure.height
        var added: Int? = joins ? measure.height : nil
        var node: Self? = self
        while let current = node {
            let before = current.subtreeMeasure.height
            current.subtreeMeasure.update(removing: removed, adding: added, descendantsDelta: joins ? size : -size)
            removed = before
            added = current.subtreeMeasure.height
            node = current.measuredParent
        }
    }

    /// The root above this node and how many levels up it is.
    var measuredRoot: (root: Self, depth: Int) {
        var node = self
        var depth = 0
        while let up = node.measuredParent {
            node = up
            depth += 1
        }
        return (node, depth)
    }
}
