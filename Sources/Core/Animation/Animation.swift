/// lk_animation: a timing node that animates one key path of a layer (S4).
/// Adding one to a layer adds a copy (S4.3), which is what the render side
/// evaluates and what delegate callbacks receive.
public final class Animation: Object, @unchecked Sendable {
    public enum Kind: Sendable { case basic }

    public let animationKind: Kind
    public var keyPath: String?
    public var timing = TimingState()
    /// nil: linear for explicit animations (S4.7).
    public var timingFunction: TimingFunction?
    public var fromValue: Value?
    public var toValue: Value?
    public var byValue: Value?
    public var additive = false
    public var cumulative = false
    public var removedOnCompletion = true
    public var delegate: AnimationDelegate?
    public private(set) var userValues: [String: Value] = [:]
    /// True for the copy a layer holds: it is what the render side
    /// evaluates, so it cannot change after adding (Core Animation raises).
    public internal(set) var isAttached = false

    public func checkMutable() throws(LayerKitError) {
        if isAttached {
            throw LayerKitError(.state, "animation: it was added to a layer and cannot be changed; change a copy and add that")
        }
    }

    public init(kind: Kind, keyPath: String?) {
        animationKind = kind
        self.keyPath = keyPath
        super.init(kind: .animation)
    }

    public func copy() -> Animation {
        let c = Animation(kind: animationKind, keyPath: keyPath)
        c.timing = timing
        c.timingFunction = timingFunction
        c.fromValue = fromValue
        c.toValue = toValue
        c.byValue = byValue
        c.additive = additive
        c.cumulative = cumulative
        c.removedOnCompletion = removedOnCompletion
        c.delegate = delegate
        c.userValues = userValues
        return c
    }

    public func setUserValue(_ value: Value, forKey key: String) {
        if case .none = value { userValues.removeValue(forKey: key) } else { userValues[key] = value }
    }

    /// S4.8: at most two of from, to and by.
    func validateForAdding() throws(LayerKitError) {
        guard let keyPath, !keyPath.isEmpty else {
            throw LayerKitError(.invalidArgument, "animation: has no key path")
        }
        if fromValue != nil && toValue != nil && byValue != nil {
            throw LayerKitError(.invalidArgument, "animation: fromValue, toValue and byValue are all set; set at most two (S4.8)")
        }
        if timing.repeatCount != 0 && timing.repeatDuration != 0 {
            throw LayerKitError(.invalidArgument, "animation: repeatCount and repeatDuration are both set; they are exclusive (S4.4)")
        }
    }
}

/// The program's animation delegate (S4.6): callbacks run on the run loop
/// of the thread that added the animation, never on the render thread.
public final class AnimationDelegate: @unchecked Sendable {
    let didStart: ((Animation) -> Void)?
    let didStop: ((Animation, Bool) -> Void)?
    private let destroy: (() -> Void)?

    public init(didStart: ((Animation) -> Void)?, didStop: ((Animation, Bool) -> Void)?, destroy: (() -> Void)?) {
        self.didStart = didStart
        self.didStop = didStop
        self.destroy = destroy
    }

    deinit { destroy?() }
}
