/// Layout (CALayer's setNeedsLayout / layoutIfNeeded / layoutSublayers): a
/// layer marked as needing layout has its delegate's layout_sublayers called
/// before the commit of the thread's outermost transaction, parents before
/// their sublayers, then its `onLayout` action runs (S3.4). Bounds size
/// changes mark the layer, and a change of sublayers marks the superlayer,
/// as Core Animation does.
extension Layer {
    /// Marks the layer; layout happens at the next commit or layoutIfNeeded.
    public func setNeedsLayout() {
        guard !isPresentationCopy, !needsLayout else { return }
        needsLayout = true
        Transaction.recordNeedsLayout(self)
    }

    /// Lays out now: from the highest ancestor that needs layout down
    /// through every marked layer beneath it.
    public func layoutIfNeeded() {
        var top = self
        while let parent = top.superlayer, parent.needsLayout { top = parent }
        LayoutPass.run(Transaction.current, within: top)
    }

    /// Calls the delegate's layout_sublayers (the default layoutSublayers).
    public func layoutSublayers() {
        delegate?.layoutSublayers?(self)
    }
}

/// The layout pass over the layers a thread marked.
enum LayoutPass {
    /// A layout callback that marks layers again forever would never end:
    /// the pass gives up after this many rounds and says so.
    static let maxRounds = 100

    /// Lays out the marked layers, all of them or those inside `root`.
    static func run(_ state: Transaction.ThreadState, within root: Layer? = nil) {
        var rounds = 0
        // Marked layers a layout removed from their tree in this pass: laid
        // out when a later pass reaches them, not in this one.
        var removed: [WeakLayer] = []
        defer { state.needsLayout.append(contentsOf: removed) }
        while true {
            var pending: [Layer] = []
            var kept: [WeakLayer] = []
            for entry in state.needsLayout {
                guard let layer = entry.layer, layer.needsLayout else { continue }
                if let root, layer !== root, !layer.isInside(root) { kept.append(entry); continue }
                pending.append(layer)
            }
            state.needsLayout = kept
            if pending.isEmpty { return }
            rounds += 1
            if rounds > maxRounds {
                for layer in pending { layer.needsLayout = false }
                writeToStandardError("layerkit: warning: layout did not settle after \(maxRounds) rounds: layout_sublayers keeps marking layers as needing layout\n")
                return
            }
            var round = LayoutRound(pending)
            round.run()
            // Not reached from their marked ancestors: moved elsewhere by a
            // layout (laid out in the next round, where they are now), or
            // taken out of the tree (not laid out in this pass).
            for layer in round.unvisited where layer.needsLayout {
                if round.leftItsTree(layer) {
                    removed.append(WeakLayer(layer))
                } else {
                    state.needsLayout.append(WeakLayer(layer))
                }
            }
        }
    }
}

/// One round of the layout pass, as Core Animation's layoutIfNeeded
/// recurses: each highest marked layer is laid out, then the sublayers it
/// has once its layout ran (and its mask), down to every marked layer
/// beneath it. A sublayer its layout removed is not reached (it was laid
/// out anyway, with no superlayer, after it had left the tree).
private struct LayoutRound {
    let pending: [Layer]
    /// The marked layers, and the layers above them: the only ones the
    /// descent goes through.
    private var marked = Set<ObjectIdentifier>()
    private var onPath = Set<ObjectIdentifier>()
    /// The top of the tree each marked layer with a superlayer (or an
    /// owner, as masks) was in when the round began.
    private var treeTops: [ObjectIdentifier: ObjectIdentifier] = [:]
    /// The marked layers with none marked above them, highest first.
    private var tops: [Layer] = []
    private var visited = Set<ObjectIdentifier>()

    init(_ pending: [Layer]) {
        self.pending = pending
        marked.reserveCapacity(pending.count)
        for layer in pending { marked.insert(ObjectIdentifier(layer)) }
        var ranked: [(Int, Layer)] = []
        for layer in pending {
            var depth = 0, underMarked = false
            var node = layer.parentInTree, highest = layer
            while let n = node {
                depth += 1
                let id = ObjectIdentifier(n)
                if marked.contains(id) { underMarked = true }
                onPath.insert(id)
                highest = n
                node = n.parentInTree
            }
            if highest !== layer { treeTops[ObjectIdentifier(layer)] = ObjectIdentifier(highest) }
            if !underMarked { ranked.append((depth, layer)) }
        }
        // (each layer's depth is walked once, not at every comparison)
        tops = ranked.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// A layout of this round took the layer (or a layer above it) out of
    /// the tree it was in.
    func leftItsTree(_ layer: Layer) -> Bool {
        guard let top = treeTops[ObjectIdentifier(layer)] else { return false }
        var highest = layer
        while let n = highest.parentInTree { highest = n }
        return ObjectIdentifier(highest) != top
    }

    var unvisited: [Layer] { pending.filter { !visited.contains(ObjectIdentifier($0)) } }

    mutating func run() {
        for top in tops {
            // Taken out of its tree by an earlier layout of this round.
            if leftItsTree(top) { continue }
            descend(from: top)
        }
    }

    /// Depth first, parents before their sublayers, without recursion (a
    /// deep tree would need as deep a stack). A layer is visited only while
    /// it is still where it was pushed from: an earlier sibling's layout
    /// may have moved or removed it.
    private mutating func descend(from top: Layer) {
        var stack: [(layer: Layer, parent: Layer?)] = [(top, top.parentInTree)]
        while let (layer, parent) = stack.popLast() {
            guard layer.parentInTree === parent, visited.insert(ObjectIdentifier(layer)).inserted else { continue }
            if layer.needsLayout { LayoutRound.layOut(layer) }
            var children: [Layer] = []
            for child in layer.sublayers where wanted(child) { children.append(child) }
            if let mask = layer.state.mask, mask.maskOwner === layer, wanted(mask) { children.append(mask) }
            for child in children.reversed() { stack.append((child, layer)) }
        }
    }

    private func wanted(_ layer: Layer) -> Bool {
        let id = ObjectIdentifier(layer)
        return marked.contains(id) || onPath.contains(id) || layer.needsLayout
    }

    private static func layOut(_ layer: Layer) {
        layer.needsLayout = false
        layer.layoutSublayers()
        // Only a delegate or an actions entry can supply an onLayout action.
        if layer.delegate != nil || !layer.actions.isEmpty || !layer.styleActions.isEmpty {
            layer.runAction(forKey: "onLayout", animatable: false)
        }
    }
}
