import Synchronization

/// The action search (S3.1) and running actions (S3.5).
extension Layer {
    /// S3.1: delegate, actions, style, the kind's registered default, then the built-in implicit action. A
    /// null action anywhere stops the search with no action. Runs whether or
    /// not actions are disabled (S3.2): that is checked by the caller.
    public func action(forKey event: String) -> Action? {
        if let ask = delegate?.actionForKey {
            switch ask(self, event) {
            case .continueSearch: break
            case .action(let action): return action.isNull ? nil : action
            }
        }
        if let action = actions[event] { return action.isNull ? nil : action }
        if let action = styleActions[event] { return action.isNull ? nil : action }
        if let action = DefaultActions.action(for: state.layerKind, event: event) { return action.isNull ? nil : action }
        return builtInAction(forKey: event)
    }

    /// S3.3: a basic animation of the property from its presentation value
    /// to the new model value, over the transaction's duration, with its
    /// timing function or the default curve; a fade transition for
    /// `contents` and `sublayers`; nothing for non-animatable properties.
    func builtInAction(forKey key: String) -> Action? {
        if let fade = builtInTransition(forKey: key) { return Action(.animation(fade)) }
        guard let (animation, property) = builtInAnimation(forKey: key) else { return nil }
        builtInEnds(property, key: key, at: mediaTime()).set(on: animation)
        return Action(.animation(animation))
    }

    /// The built-in action's ends (S3.3): the presentation value now (the
    /// render side's, still from before the change) and the new model value.
    func builtInEnds(_ property: AnyProperty, key: String, at time: Double) -> BuiltInEnds {
        let model = withUnsafePointer(to: &state) { property.read($0) }
        let from = RenderTree.shared.presentationValue(of: self, property: property, subpath: [], keyPath: key,
                                                       at: time) ?? model
        return BuiltInEnds(from: from, to: model)
    }

    /// S3.3: `contents` and the `sublayers` event fade, as a transition over
    /// the transaction's duration with its timing function or the default curve.
    private func builtInTransition(forKey key: String) -> Animation? {
        guard key == "contents" || key == "sublayers" else { return nil }
        let fade = Animation(kind: .transition, keyPath: nil)
        fade.timingFunction = Transaction.animationTimingFunction ?? TimingFunction.named(.default)
        return fade
    }

    /// The built-in action's animation and the property it animates (its
    /// row when the caller has it at hand).
    private func builtInAnimation(forKey key: String, row: AnyProperty? = nil,
                                  in transaction: Transaction.ThreadState? = nil) -> (Animation, AnyProperty)? {
        guard row?.slot != nil || key != "contents", let property = row ?? LayerProperties.named(key, kind: state.layerKind),
              property.animatable else { return nil }
        let animation = Animation(kind: .basic, keyPath: key)
        let inherited = Transaction.inherited(in: transaction ?? Transaction.current)
        animation.timingFunction = inherited.timingFunction ?? TimingFunction.named(.default)
        return (animation, property)
    }

    /// Called after a property or the hierarchy changed: searches and runs
    /// the action, unless actions are disabled (S3.2) or the layer has never
    /// been committed (it has no presentation to animate from, S5.1) and
    /// the event is not one for `uncommitted` layers (onOrderIn: a new layer
    /// entering a shown tree). `row`: the property named `event`, when the
    /// caller has it; `transaction`: the thread's transaction state, when
    /// the caller has it.
    func runAction(forKey event: String, animatable: Bool, row: AnyProperty? = nil,
                   in transaction: Transaction.ThreadState? = nil, uncommitted: Bool = false) {
        guard !isPresentationCopy else { return }
        // The thread's transaction state, looked up once for all the action's steps.
        let transaction = transaction ?? Transaction.current
        guard !Transaction.inherited(in: transaction).disableActions else { return }
        // Committed: only a commit sets the node, under the model lock this
        // runs under (so no need of the render tree's).
        guard renderNode != nil || uncommitted else { return }
        if delegate == nil, actions.isEmpty, styleActions.isEmpty, DefaultActions.isEmpty(for: state.layerKind) {
            // Only the built-in action can answer: its animation is attached
            // as it is, with no Action around it and no copy (the common
            // case, and what re-triggering thousands of animations costs).
            // A property with a field slot (a number, point, size, rect or
            // transform) is never contents: no key compares.
            if row?.slot == nil, let fade = builtInTransition(forKey: event) {
                try? addAnimation(fade, forKey: nil)
            } else if animatable, let (animation, property) = builtInAnimation(forKey: event, row: row, in: transaction) {
                attachBuiltIn(animation, forKey: event, property: property, in: transaction)
            }
            return
        }
        guard let action = action(forKey: event) else { return }
        run(action, forKey: event)
    }

    /// S3.5: an animation is added under the event's key; a custom action runs.
    func run(_ action: Action, forKey event: String) {
        switch action.behaviour {
        case .null: break
        case .custom(let body): body(event, self)
        case .animation(let animation):
            do {
                try addAnimation(Layer.actionAnimation(animation, forKey: event), forKey: event)
            } catch {
                // The change itself stands (the setter succeeded); the
                // animation the action gave cannot run here (one from a
                // delegate or a kind's default: the layer's own actions
                // are checked when set). It was dropped without a word.
                ActionWarnings.report("layerkit: warning: the action for \"\(event)\" is an animation this layer refuses, not run: \(error.message)\n")
            }
        }
    }

    /// The animation an animation action adds for `event`: a copy, its key
    /// path the event's when it has none (a transition keeps none).
    static func actionAnimation(_ animation: Animation, forKey event: String) -> Animation {
        let copy = animation.copy()
        if copy.keyPath == nil && copy.animationKind != .transition { copy.keyPath = event }
        return copy
    }

    /// An animation action set on this layer is checked as adding it for
    /// the event would check it (S8.1: refused when set, naming why), so
    /// that running it cannot fail later with no one to tell.
    private func checkAction(_ action: Action?, forKey event: String) throws(LayerKitError) {
        guard case .animation(let animation)? = action?.behaviour else { return }
        do {
            try checkAddable(Layer.actionAnimation(animation, forKey: event))
        } catch {
            throw LayerKitError(error.status, "action: as the action for \"\(event)\": \(error.message)")
        }
    }

    public func setAction(_ action: Action?, forKey event: String) throws(LayerKitError) {
        try checkWritable()
        try checkAction(action, forKey: event)
        actions[event] = action
    }

    public func setStyleAction(_ action: Action?, forKey event: String) throws(LayerKitError) {
        try checkWritable()
        try checkAction(action, forKey: event)
        styleActions[event] = action
    }
}

/// A built-in action's start and end (Layer.builtInEnds).
struct BuiltInEnds {
    let from: Value, to: Value

    /// Sets them as the animation's fromValue and toValue, unless either
    /// is a layer (a mask's): an animation holding one could keep layers
    /// alive in a loop (a mask whose own animation holds the layer it
    /// masked, where animations never end, outside any display). Such an
    /// animation goes from the value before it to the model's, read as the
    /// frames go.
    func set(on animation: Animation) {
        guard !from.holdsLayer && !to.holdsLayer else { return }
        animation.fromValue = from
        animation.toValue = to
    }
}

/// Warnings about actions that could not run: written to stderr, at most
/// `limit` of them (a program setting a property every frame with a bad
/// delegate answer would otherwise fill the log).
enum ActionWarnings {
    static let limit = 20
    private static let count = Atomic<Int>(0)

    static func report(_ text: String) {
        let n = count.add(1, ordering: .relaxed).newValue
        if n <= limit {
            writeToStandardError(text)
            if n == limit { writeToStandardError("layerkit: warning: (no further warnings about actions)\n") }
        }
    }
}
