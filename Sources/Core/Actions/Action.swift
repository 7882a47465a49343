/// lk_action: what a layer does when a property changes (S3). The null
/// action stops the search with no animation; an animation action adds a
/// copy of its animation under the event's key; a custom action runs the
/// program's function.
public final class Action: Object, @unchecked Sendable {
    public enum Behaviour {
        case null
        case animation(Animation)
        case custom((String, Layer) -> Void)
    }

    public let behaviour: Behaviour
    private let destroy: (() -> Void)?

    public init(_ behaviour: Behaviour, destroy: (() -> Void)? = nil) {
        self.behaviour = behaviour
        self.destroy = destroy
        super.init(kind: .action)
    }

    deinit { destroy?() }

    /// The one null action (lk_action_null), never freed.
    public static let null = Action(.null)

    public var isNull: Bool { if case .null = behaviour { true } else { false } }
}

/// What a layer delegate's actionForKey answered.
public enum DelegateAnswer {
    /// NULL: go on with the search.
    case continueSearch
    case action(Action)
}

/// The program's layer delegate (S3.1 step 1, layout, drawing later).
public final class LayerDelegate: @unchecked Sendable {
    let actionForKey: ((Layer, String) -> DelegateAnswer)?
    let layoutSublayers: ((Layer) -> Void)?
    /// Draws the layer's content into a canvas (Layer.display()).
    let draw: ((Layer, Canvas) -> Void)?
    private let destroy: (() -> Void)?

    public init(actionForKey: ((Layer, String) -> DelegateAnswer)?, layoutSublayers: ((Layer) -> Void)? = nil,
                draw: ((Layer, Canvas) -> Void)? = nil, destroy: (() -> Void)?) {
        self.actionForKey = actionForKey
        self.layoutSublayers = layoutSublayers
        self.draw = draw
        self.destroy = destroy
    }

    deinit { destroy?() }
}
