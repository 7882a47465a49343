/// An animation added to a layer, as the model and the render side both
/// see it: the added copy, where its callbacks go, and whether its start and
/// stop were reported (exactly one stop per start, S4.6).
final class AnimationRecord: @unchecked Sendable {
    let key: String
    /// The copy that was added (S4.3). Its duration is resolved when added,
    /// its beginTime at the commit that publishes it.
    let animation: Animation
    /// The key path's presentation value when the animation was added: the
    /// start of "to only", "by only" and "none" animations (S4.8). A
    /// built-in animation's is kept in its lane track only.
    var previousValue: Value? {
        if let storedPrevious { return storedPrevious }
        if let previousLayer { return .layer(previousLayer) }
        if case .lanes(let track)? = fastTrack, track.present & 8 != 0, let slot { return slot.value(lanes: track.previous) }
        return nil
    }
    private let storedPrevious: Value?
    /// A previous value that is a layer (a mask's), held weakly: outside any
    /// display a record is never done with, and holding the layer kept it,
    /// and whatever holds this record's layer through it, alive in a loop.
    private weak var previousLayer: Layer?
    /// The run loop of the thread that added it (S4.6).
    let runLoop: RunLoop
    let groups: [CompletionGroup]
    /// The key path, resolved once: its property row and the rest (nil for
    /// a group, whose children animate).
    let property: AnyProperty?
    let subpath: [Substring]
    /// The unboxed form, for basic and spring animations of whole number/point/size/rect/transform properties.
    let fastTrack: FastTrack?
    /// The same track as a plain reference. The enum keeps its case in the
    /// pointer's spare bits, where leak checkers do not recognise it; this
    /// keeps the track visibly owned (valgrind's leak stage).
    private let fastTrackObject: AnyObject?
    /// The property's field, for the Value path's writes (nil: through the property row).
    let slot: FieldSlot?
    /// Keyframe animations: values, times and path made ready (S4.10).
    let keyframes: KeyframeTrack?
    /// Groups: one record per child, times relative to the group (S4.12).
    let children: [AnimationRecord]
    /// Model side: beginTime already made absolute at a commit.
    var beginResolved = false
    // Render side, under the render tree's lock:
    var started = false
    var stopped = false
    /// Model side: removed from its layer (replaced, removed, or finished).
    var detached = false
    /// The layer it was added to (model side only).
    weak var layer: Layer?

    init(key: String, animation: Animation, previousValue: Value?, runLoop: RunLoop, groups: [CompletionGroup],
         property: AnyProperty?, subpath: [Substring], keyframes: KeyframeTrack? = nil, children: [AnimationRecord] = []) {
        self.property = property
        self.subpath = subpath
        self.keyframes = keyframes
        self.children = children
        slot = subpath.isEmpty ? property?.slot : nil
        fastTrack = animation.animationKind == .basic || animation.animationKind == .spring ? property.flatMap {
            FastTrack.make(slot: $0.slot, subpath: subpath, animation: animation, previous: previousValue)
        } : nil
        fastTrackObject = fastTrack?.object
        self.key = key
        self.animation = animation
        if case .layer(let l)? = previousValue {
            storedPrevious = nil
            previousLayer = l
        } else {
            storedPrevious = previousValue
        }
        self.runLoop = runLoop
        self.groups = groups
    }

    /// The built-in action's animation of a whole number, point, size, rect
    /// or transform property, its ends (from the presentation value to the
    /// new model value) already in `track`, which the animation reads them
    /// from (re-triggering thousands in one transaction: no Values made).
    init(builtIn key: String, animation: Animation, track: FastTrack, slot: FieldSlot,
         runLoop: RunLoop, groups: [CompletionGroup], property: AnyProperty) {
        self.property = property
        subpath = []
        keyframes = nil
        children = []
        self.slot = slot
        fastTrack = track
        fastTrackObject = track.object
        animation.builtInTrack = track
        self.key = key
        self.animation = animation
        storedPrevious = nil
        self.runLoop = runLoop
        self.groups = groups
    }

    /// True when it (or, for a group, any child) animates the property `key`.
    func animates(_ key: String) -> Bool {
        if let property { return property.key == key }
        return children.contains { $0.animates(key) }
    }

    /// Whether it (or a child) turns the layer: path animations with a
    /// rotation mode change its transform too (S4.10).
    var turnsLayer: Bool {
        if animation.animationKind == .group { return children.contains { $0.turnsLayer } }
        return keyframes != nil && animation.keyframes.path != nil && animation.keyframes.rotationMode != .none
    }
}
