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

    /// Depth in the tree: the pass lays out parents before sublayers.
    var depth: Int {
        var n = 0
        var node = self
        while let parent = node.superlayer { n += 1; node = parent }
        return n
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
            // Parents first; a layer laid out earlier in this round may mark
            // its sublayers, which then come in the next round.
            // (each layer's depth is walked once, not at every comparison)
            let ordered = pending.map { ($0.depth, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
            for layer in ordered where layer.needsLayout {
                layer.needsLayout = false
                layer.layoutSublayers()
                // Only a delegate or an actions entry can supply an onLayout action.
                if layer.delegate != nil || !layer.actions.isEmpty || !layer.styleActions.isEmpty {
                    layer.runAction(forKey: "onLayout", animatable: false)
                }
            }
        }
    }
}
