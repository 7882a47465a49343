/// A layer as a timing node (S4.2): local time through its ancestors,
/// conversion between layers, and the presentation copy (S5.1).
extension Layer {
    /// The timing node above this layer: its superlayer, or the layer it
    /// is the mask of; for the top of a presentation copy, its model's (the
    /// copy shows its subtree at the times its model's ancestors give it,
    /// as a presentation layer's superlayer is the presentation of its
    /// model's: a copy under a parent of speed 2 converted media time as if
    /// at the root).
    private var timingParent: Layer? {
        if let up = parentInTree { return up }
        guard presentedPlacement != nil, let model = modelLayer else { return nil }
        return model.parentInTree
    }

    /// The chain from the tree's root down to this layer.
    private var timingChain: [Layer] {
        var chain: [Layer] = []
        var node: Layer? = self
        while let current = node { chain.append(current); node = current.timingParent }
        return chain.reversed()
    }

    /// Media time to this layer's local time.
    public func localTime(forMediaTime t: Double) -> Double {
        // Recursion from the root down, without building the chain (a
        // commit asks this for every animation it publishes).
        guard let parent = timingParent else { return TimingModel.localTime(t, state.timing) }
        return TimingModel.localTime(parent.localTime(forMediaTime: t), state.timing)
    }

    /// convertTime(t, from:, to:); nil stands for media time. The time goes
    /// up from `from` to the nearest layer both are under, then down to
    /// `to`: the timing above that layer is common to both and cancels out
    /// (a paused ancestor of both does not stop the conversion; going
    /// through media time, it did).
    public static func convertTime(_ t: Double, from: Layer?, to: Layer?) throws(LayerKitError) -> Double {
        if let from, let to, !from.sharesTree(with: to) {
            throw LayerKitError(.hierarchy, "from, to: the layers are in different trees")
        }
        let up = from?.timingChain ?? [], down = to?.timingChain ?? []
        var shared = 0
        while shared < up.count, shared < down.count, up[shared] === down[shared] { shared += 1 }
        var time = t
        for layer in up[shared...].reversed() {
            guard let parent = TimingModel.parentTime(time, layer.state.timing) else {
                throw LayerKitError(.state, "from: the layer or an ancestor it does not share with `to` has speed 0, so its local time does not determine the time above it")
            }
            time = parent
        }
        for layer in down[shared...] { time = TimingModel.localTime(time, layer.state.timing) }
        return time
    }

    /// S5.1: a read-only copy of the subtree as it shows at `time`
    /// (RenderTree.presentationCopy); nil for a layer never committed.
    public func presentationCopy(at time: Double) -> Layer? {
        if let model = modelLayer { return model.presentationCopy(at: time) }
        return RenderTree.shared.presentationCopy(of: self, at: time)
    }
}
