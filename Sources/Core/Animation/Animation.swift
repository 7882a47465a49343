/// lk_animation: a timing node that animates one key path of a layer (S4).
/// Adding one to a layer adds a copy (S4.3), which is what the render side
/// evaluates and what delegate callbacks receive.
public final class Animation: Object, @unchecked Sendable {
    public enum Kind: Sendable { case basic, keyframe, spring, group, transition }

    public let animationKind: Kind
    public var keyPath: String?
    public var timing = TimingState()
    /// nil: linear for explicit animations (S4.7).
    public var timingFunction: TimingFunction?
    public var fromValue: Value? {
        get { ends?.from ?? builtInTrack?.fromValue }
        set { if newValue != nil || ends != nil || builtInTrack != nil { uniqueEnds().from = newValue } }
    }
    public var toValue: Value? {
        get { ends?.to ?? builtInTrack?.toValue }
        set { if newValue != nil || ends != nil || builtInTrack != nil { uniqueEnds().to = newValue } }
    }
    public var byValue: Value? {
        get { ends?.by }
        set { if newValue != nil || ends != nil || builtInTrack != nil { uniqueEnds().by = newValue } }
    }
    /// The built-in action's ends (S3.3), kept only in the track its record
    /// evaluates (set when it is attached): fromValue and toValue read them
    /// from there. Thousands re-triggered in one transaction then make no
    /// Values (setting two cost some 2,000 instructions an animation).
    var builtInTrack: FastTrack?
    public var additive = false
    public var cumulative = false
    /// Whether a repeat adds what the ones before it moved (S4.8: "each
    /// repeat starts where the previous ended"): cumulative, unless it
    /// autoreverses, when each repeat ends where it began (it jumped by
    /// to - from at every repeat).
    var accumulates: Bool { cumulative && !timing.autoreverses }
    public var removedOnCompletion = true
    /// Keyframe animations (S4.10).
    public var keyframes: KeyframeParameters {
        get { extras?.keyframes ?? KeyframeParameters() }
        _modify { yield &extrasForWriting.keyframes }
    }
    /// Spring animations (S4.11); from/to/by as for basic ones.
    public var spring: SpringParameters {
        get { extras?.spring ?? SpringParameters() }
        _modify { yield &extrasForWriting.spring }
    }
    /// Transitions (S4.13).
    public var transition: TransitionParameters {
        get { extras?.transition ?? TransitionParameters() }
        _modify { yield &extrasForWriting.transition }
    }
    /// Group animations (S4.12): the children, in order (copies).
    public var animations: [Animation] {
        get { extras?.animations ?? [] }
        _modify { yield &extrasForWriting.animations }
    }

    /// Groups nest at most this deep (a group holding a group is 2): adding,
    /// copying and evaluating a group recurse once a level, and each set of
    /// children copies them, so groups nested 10,000 deep crashed on a
    /// stack overflow and 100,000 took minutes to build (S8.1).
    public static let maximumGroupDepth = 32

    /// The levels of groups in this animation: 0 for one that is not a
    /// group, 1 for a group of plain animations. Iterative: it measures
    /// trees too deep to recurse through.
    public var groupDepth: Int {
        var deepest = 0
        var pending: [(Animation, Int)] = [(self, 1)]
        while let (a, level) = pending.popLast() {
            guard a.animationKind == .group else { continue }
            deepest = max(deepest, level)
            if deepest > Animation.maximumGroupDepth { return deepest }
            for child in a.animations { pending.append((child, level + 1)) }
        }
        return deepest
    }
    public var delegate: AnimationDelegate?
    public private(set) var userValues: [String: Value] {
        get { extras?.userValues ?? [:] }
        _modify { yield &extrasForWriting.userValues }
    }
    /// from, to and by: nil for the built-in action's animation, so it
    /// neither initialises nor destroys three optional Values (about 130
    /// bytes each, destroyed through generic value witnesses). Shared by
    /// copies until one of them changes (values only, nothing to deep-copy).
    private var ends: Ends?
    private func uniqueEnds() -> Ends {
        if ends == nil, let track = builtInTrack {
            ends = Ends(from: track.fromValue, to: track.toValue)
            builtInTrack = nil
        }
        if ends == nil || !isKnownUniquelyReferenced(&ends) { ends = ends?.copy() ?? Ends() }
        return ends!
    }

    /// The parameters of the rarer kinds and the user values, allocated at
    /// the first write: an implicit animation (thousands re-triggered in
    /// one transaction) would otherwise initialise, and at its end release,
    /// a dozen fields it never uses.
    private var extras: Extras?
    private var extrasForWriting: Extras {
        if let extras { return extras }
        let e = Extras()
        extras = e
        return e
    }
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
        c.ends = ends
        // (the ends made Values: the track is the record's, and a transform
        // track's caches are the render side's)
        if ends == nil, let track = builtInTrack { c.ends = Ends(from: track.fromValue, to: track.toValue) }
        c.additive = additive
        c.cumulative = cumulative
        c.removedOnCompletion = removedOnCompletion
        c.extras = extras?.copy()
        c.delegate = delegate
        return c
    }

    private final class Ends {
        var from: Value?, to: Value?, by: Value?

        init(from: Value? = nil, to: Value? = nil) {
            (self.from, self.to) = (from, to)
        }

        func copy() -> Ends {
            let e = Ends()
            (e.from, e.to, e.by) = (from, to, by)
            return e
        }
    }

    /// Owned by one animation only: a copy of the animation copies it
    /// (and the group's children), so changing a copy leaves the original.
    private final class Extras {
        var keyframes = KeyframeParameters()
        var spring = SpringParameters()
        var transition = TransitionParameters()
        var animations: [Animation] = []
        var userValues: [String: Value] = [:]

        func copy() -> Extras {
            let e = Extras()
            e.keyframes = keyframes
            e.spring = spring
            e.transition = transition
            e.animations = animations.map { $0.copy() }
            e.userValues = userValues
            return e
        }
    }

    public func setUserValue(_ value: Value, forKey key: String) {
        if case .none = value {
            if extras != nil { userValues.removeValue(forKey: key) }
        } else {
            userValues[key] = value
        }
    }

    /// S4.8: at most two of from, to and by. A group's key path is its
    /// children's business; each child is checked the same way.
    func validateForAdding(_ name: String = "animation") throws(LayerKitError) {
        if animationKind == .group {
            guard !animations.isEmpty else {
                throw LayerKitError(.invalidArgument, "\(name): the group has no animations")
            }
            for (i, child) in animations.enumerated() {
                if child.animationKind == .transition {
                    throw LayerKitError(.invalidArgument,
                                        "\(name).animations[\(i)]: a transition cannot be part of a group; add it to the layer")
                }
                try child.validateForAdding("\(name).animations[\(i)]")
            }
        } else if animationKind == .transition {
            // A transition animates the layer's appearance, not a key path.
            try transition.validate(name)
        } else {
            guard let keyPath, !keyPath.isEmpty else {
                throw LayerKitError(.invalidArgument, "\(name): has no key path")
            }
        }
        if animationKind == .spring && !spring.isComputable {
            let p = spring
            throw LayerKitError(.invalidArgument, "\(name): mass \(p.mass), stiffness \(p.stiffness), damping \(p.damping) and initial velocity \(p.initialVelocity) put the spring out of range: sqrt(stiffness / mass) and damping / (2 sqrt(stiffness x mass)) must be finite, and the frequency not 0")
        }
        if animationKind == .spring && !spring.settlingDuration.isFinite && !(timing.duration > 0) {
            throw LayerKitError(.invalidArgument, "\(name): an undamped spring never settles; give it a duration")
        }
        if fromValue != nil && toValue != nil && byValue != nil {
            throw LayerKitError(.invalidArgument, "\(name): fromValue, toValue and byValue are all set; set at most two (S4.8)")
        }
        if timing.repeatCount != 0 && timing.repeatDuration != 0 {
            throw LayerKitError(.invalidArgument, "\(name): repeatCount and repeatDuration are both set; they are exclusive (S4.4)")
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
